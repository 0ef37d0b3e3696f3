// Skinned meshes of one skinning group drawn as one instanced draw per mesh pass (Renderer.skinned_instancing):
// a field of posed two-joint boxes, some rigid boxes of the same geometry among them, a sun shadow and the velocity
// product. Drawn instanced and each on its own, the picture, the shadows and the motion are the same, frame after
// frame while the poses and the meshes move; instanced, the skinned meshes are one run of the G-buffer's list.
import { describe, expect, it } from "vitest";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { Velocity } from "../../../../shade/renderer/products/Velocity.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { MeshSkin } from "../../../../shade/renderer/scene/MeshSkin.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { ShadowExtension } from "../../../../shade/renderer/shadows/ShadowExtension.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";
import { TextureProbe } from "../products/probe.js";

const W = 96;
const H = 64;
const COUNT = 10;

/** A 0.6 x 0.9 x 0.6 box: vertices above y = 0 bound to joint 1, below to joint 0. */
function skinned_box(): Geometry {
    const box = make_box_geometry(0.6, 0.9, 0.6);
    const position = box.attributes.position.array;
    const n = position.length / 3;
    const joints = new Float32Array(n * 4);
    const weights = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
        joints[i * 4] = position[i * 3 + 1] > 0 ? 1 : 0;
        weights[i * 4] = 1;
    }
    return new Geometry({ position, normal: box.attributes.normal!.array, uv: box.attributes.uv!.array, joints, weights, index: box.index });
}

interface Field {
    readonly scene: Scene;
    readonly skinned: Mesh[];
    /** Poses frame `f`: each box at its place, its upper half leaning by its own amount; every third box walks. */
    pose(f: number): void;
}

function make_field(): Field {
    const geometry = skinned_box();
    const scene = new Scene();
    const ground = new StandardMaterial({ base_color: [0.5, 0.55, 0.5, 1], label: "ground" });
    scene.add(new Mesh(make_box_geometry(12, 0.1, 6), ground)).position.set([0, -0.5, 0]);
    const skinned: Mesh[] = [];
    for (let i = 0; i < COUNT; i++) {
        const material = new StandardMaterial({ base_color: [0.3 + 0.07 * i, 0.4, 0.9 - 0.06 * i, 1], label: `unit ${i}` });
        const mesh = scene.add(new Mesh(geometry, material));
        mesh.skin = new MeshSkin(2, `unit ${i}`);
        skinned.push(mesh);
    }
    // rigid meshes of the same geometry among them: runs of their own
    const rigid = new StandardMaterial({ base_color: [0.9, 0.9, 0.3, 1], label: "rigid" });
    scene.add(new Mesh(geometry, rigid)).position.set([-4, 0, -1.5]);
    scene.add(new Mesh(geometry, rigid)).position.set([4, 0, -1.5]);
    const pose = (f: number): void => {
        for (let i = 0; i < COUNT; i++) {
            const mesh = skinned[i];
            const x = (i % 5) * 1.5 - 3 + (i % 3 === 0 ? f * 0.08 : 0);
            const z = Math.floor(i / 5) * 1.6 - 0.8;
            mesh.position.set([x, 0, z]);
            const m = mesh.skin!.matrices;
            // joints are world space: joint 0 at the box, joint 1 leaning its half sideways by an amount of its own
            m.set([x, 0, z], 12);
            m.set([x + 0.05 * (i % 4) + 0.04 * f * (i % 2), 0.02 * i, z], 16 + 12);
            mesh.skin!.mark_changed();
        }
    };
    return { scene, skinned, pose };
}

interface Run {
    readonly color: TextureReadback[];
    readonly velocity: TextureReadback[];
    readonly skinned_runs: number[];
}

// four frames of the field, the poses and the walkers moving; the colour and velocity of each
async function run(device: GPUDevice, instanced: boolean): Promise<Run> {
    const field = make_field();
    const target = new TextureRenderTarget(W, H);
    const errors: Error[] = [];
    const renderer = new Renderer({ device, target, scene: field.scene, feature_taa_enabled: false, resolution_scale: 1, on_error: (e) => errors.push(e) });
    renderer.skinned_instancing = instanced;
    renderer.add_extension(new ShadowExtension({ cascades: 2, resolution: 256, distance: 20 }));
    const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
    renderer.view.camera.position.set([0, 3.5, 6]);
    renderer.view.camera.target.set([0, 0, 0]);
    field.scene.sun.direction.set([-0.5, -1, -0.3]);
    const out: Run = { color: [], velocity: [], skinned_runs: [] };
    for (let f = 0; f < 4; f++) {
        field.pose(f);
        renderer.render_frame();
        out.color.push(await read_texture(device, target.acquire()));
        out.velocity.push(await read_texture(device, probe.texture!));
        const list = renderer.gbuffer_draw_list;
        let runs = 0;
        for (let i = 0; i < list.opaque_run_count; i++) if (list.opaque_runs[i].skin !== null) runs++;
        out.skinned_runs.push(runs);
    }
    expect(errors).toEqual([]);
    renderer.destroy();
    return out;
}

function largest_difference(a: TextureReadback, b: TextureReadback): number {
    let worst = 0;
    for (let i = 0; i < a.data.length; i++) worst = Math.max(worst, Math.abs(a.data[i] - b.data[i]));
    return worst;
}

describe("skinned meshes drawn instanced on Dawn", () => {
    it("a field of posed skinned boxes with rigid ones of the same geometry: the same picture, shadows and motion instanced and one draw each", async () => {
        await with_gpu_device(async (device) => {
            const alone = await run(device, false);
            const instanced = await run(device, true);
            write_readback_png(instanced.color[3], "skinned_instancing");
            expect(alone.skinned_runs, "one run per skinned mesh when not instanced").toEqual([COUNT, COUNT, COUNT, COUNT]);
            // materials of one pipeline variant share runs: every skinned box of the group is one instanced draw
            expect(instanced.skinned_runs, "one run of the skin batch").toEqual([1, 1, 1, 1]);
            for (let f = 0; f < 4; f++) {
                expect(largest_difference(instanced.color[f], alone.color[f]), `frame ${f}: colour`).toBeLessThanOrEqual(1);
                expect(largest_difference(instanced.velocity[f], alone.velocity[f]), `frame ${f}: velocity`).toBeLessThan(1e-4);
            }
            // the field is drawn at all: lit boxes over the ground, and motion where the poses moved
            let moving = 0;
            const { data: v, channels } = instanced.velocity[3];
            for (let p = 0; p < W * H; p++) if (Math.abs(v[p * channels]) + Math.abs(v[p * channels + 1]) > 1e-4) moving++;
            expect(moving, "pixels with motion in the last frame").toBeGreaterThan(30);
        });
    });
});
