// MeshDrawList's bookkeeping of frozen meshes and shared runs (device-independent: the list writes a CPU object
// buffer; nothing is uploaded). The pictures are FrozenMeshes.gpu.test.ts's.
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { OBJECT_FLOATS } from "../../../../shade/renderer/mesh/mesh_wgsl.js";
import { MeshDrawList } from "../../../../shade/renderer/mesh/MeshDrawList.js";
import { ObjectBuffer } from "../../../../shade/renderer/mesh/ObjectBuffer.js";
import { MaterialTexture } from "../../../../shade/renderer/scene/MaterialTexture.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { MeshSkin } from "../../../../shade/renderer/scene/MeshSkin.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";

const EYE = [0, 0, 5];

/** The world matrix's and last frame's matrix's y translation in `mesh`'s slot (found by its object id). */
function slot_y(objects: ObjectBuffer, mesh: Mesh): { now: number; before: number } {
    for (let i = 0; i < objects.count; i++) {
        const o = i * OBJECT_FLOATS;
        if (objects.uints[o + 36] === mesh.object_id) return { now: objects.floats[o + 13], before: objects.floats[o + 40 + 13] };
    }
    throw new Error(`mesh ${mesh.object_id} has no slot`);
}

describe("MeshDrawList (device-independent)", () => {
    it("a frozen mesh moved by changed() has last frame's matrix that frame and its own the frame after", () => {
        const scene = new Scene();
        const mesh = scene.add(new Mesh(make_box_geometry(), new StandardMaterial()));
        mesh.frozen = true;
        const list = new MeshDrawList();
        const objects = new ObjectBuffer();
        list.build(scene, objects, EYE);
        list.build(scene, objects, EYE);
        mesh.position[1] = 2;
        mesh.changed();
        list.build(scene, objects, EYE);
        expect(slot_y(objects, mesh)).toEqual({ now: 2, before: 0 });
        expect(list.moved_count).toBe(1);
        list.build(scene, objects, EYE);
        expect(slot_y(objects, mesh), "no motion left behind").toEqual({ now: 2, before: 2 });
        expect(list.moved_count).toBe(0);
        const reads = list.frozen_writes;
        list.build(scene, objects, EYE);
        list.build(scene, objects, EYE);
        expect(list.frozen_writes, "then kept as it is").toBe(reads);
        expect(objects.count).toBe(1);
    });

    it("frozen meshes come first and keep their runs while the live ones after them are rebuilt", () => {
        const scene = new Scene();
        const box = make_box_geometry();
        const sphere = make_sphere_geometry(0.5, 8, 4);
        const material = new StandardMaterial();
        const frozen: Mesh[] = [];
        for (let i = 0; i < 6; i++) {
            const m = scene.add(new Mesh(i % 2 === 0 ? box : sphere, material));
            m.frozen = true;
            frozen.push(m);
        }
        const live = scene.add(new Mesh(box, material));
        const list = new MeshDrawList();
        const objects = new ObjectBuffer();
        list.build(scene, objects, EYE);
        // two frozen runs (boxes, spheres) then the live box on its own
        expect(list.opaque_run_count).toBe(3);
        expect(list.opaque_runs[2].first).toBe(6);
        expect(list.opaque_runs[0].count + list.opaque_runs[1].count).toBe(6);
        for (let frame = 0; frame < 3; frame++) {
            live.position[0] = frame;
            list.build(scene, objects, EYE);
            expect(list.opaque_run_count).toBe(3);
            expect(slot_y(objects, live).now).toBe(0);
            expect(objects.floats[6 * OBJECT_FLOATS + 12], "the live mesh written each frame").toBe(frame);
        }
        // unfreezing is a membership change: one list of seven
        for (const m of frozen) m.frozen = false;
        list.build(scene, objects, EYE);
        expect(list.opaque_run_count).toBe(2);
    });

    it("a material gaining a texture splits the run it shared, without mark_changed", () => {
        const scene = new Scene();
        const box = make_box_geometry();
        const a = new StandardMaterial({ base_color: [1, 0, 0, 1] });
        const b = new StandardMaterial({ base_color: [0, 1, 0, 1] });
        scene.add(new Mesh(box, a)).frozen = true;
        scene.add(new Mesh(box, b)).frozen = true;
        const list = new MeshDrawList();
        const objects = new ObjectBuffer();
        list.build(scene, objects, EYE);
        expect(list.opaque_run_count).toBe(1);
        b.base_color_texture = new MaterialTexture({} as GPUTexture);
        list.build(scene, objects, EYE);
        expect(list.opaque_run_count).toBe(2);
        // a value edit (no run change) is read into the frozen meshes' slots
        a.roughness = 0.25;
        list.build(scene, objects, EYE);
        let found = false;
        for (let i = 0; i < objects.count; i++) if (objects.floats[i * OBJECT_FLOATS + 32] === 0.25) found = true;
        expect(found, "the new roughness in the object data").toBe(true);
    });

    it("a skin given to a mesh in a scene re-sorts the lists (a frozen mesh becomes live: its vertices change every frame)", () => {
        const scene = new Scene();
        const mesh = scene.add(new Mesh(make_box_geometry(), new StandardMaterial()));
        mesh.frozen = true;
        const version = scene.version;
        mesh.skin = new MeshSkin(1, "test skin");
        expect(scene.version).toBe(version + 1);
        mesh.skin = mesh.skin;
        expect(scene.version, "the same skin again is no change").toBe(version + 1);
    });
});
