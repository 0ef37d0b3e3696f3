// GPU skinning on Dawn: a two-joint box whose upper half follows joint 1. Identity joints draw it exactly where a
// rigid box with an identity world matrix is, whatever the skinned mesh's own world matrix (the joints are world
// space); a joint moved moves only its half, pixel for pixel as a box whose vertices were moved by hand; the
// velocity product sees the moving half move and the still half stand; a skin not marked changed is not re-skinned.
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
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";
import { TextureProbe } from "../products/probe.js";

const SIZE = 64;
const SHIFT = 0.5;

/** A 1 x 1.5 x 1 box split in height: vertices above y = 0 bound to joint 1, below to joint 0. */
function skinned_box(shift_upper = 0): Geometry {
    const box = make_box_geometry(1, 1.5, 1);
    const position = box.attributes.position.array.slice();
    const n = position.length / 3;
    const joints = new Float32Array(n * 4);
    const weights = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
        const upper = position[i * 3 + 1] > 0;
        joints[i * 4] = upper ? 1 : 0;
        weights[i * 4] = 1;
        if (upper) position[i * 3] += shift_upper;
    }
    return new Geometry({
        position,
        normal: box.attributes.normal!.array,
        uv: box.attributes.uv!.array,
        joints,
        weights,
        index: box.index,
    });
}

async function draw(device: GPUDevice, mesh: Mesh, frames = 1): Promise<TextureReadback> {
    const scene = new Scene();
    scene.add(mesh);
    const target = new TextureRenderTarget(SIZE, SIZE);
    const errors: Error[] = [];
    const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, resolution_scale: 1, on_error: (e) => errors.push(e) });
    renderer.view.camera.position.set([0.6, 0.8, 4]);
    for (let f = 0; f < frames; f++) renderer.render_frame();
    const image = await read_texture(device, target.acquire());
    renderer.destroy();
    scene.remove(mesh);
    expect(errors).toEqual([]);
    return image;
}

function largest_difference(a: TextureReadback, b: TextureReadback): number {
    let worst = 0;
    for (let i = 0; i < a.data.length; i++) worst = Math.max(worst, Math.abs(a.data[i] - b.data[i]));
    return worst;
}

function differing_pixels(a: TextureReadback, b: TextureReadback): number {
    let count = 0;
    for (let p = 0; p < SIZE * SIZE; p++) {
        for (let c = 0; c < 3; c++) {
            if (Math.abs(a.data[p * 4 + c] - b.data[p * 4 + c]) > 2) {
                count++;
                break;
            }
        }
    }
    return count;
}

const material = new StandardMaterial({ base_color: [0.8, 0.4, 0.2, 1], label: "skinned box" });

describe("GPU skinning on Dawn", () => {
    it("identity joints draw the box where its joints say, whatever its world matrix; a moved joint moves its half as hand-moved vertices do", async () => {
        await with_gpu_device(async (device) => {
            const rigid = await draw(device, new Mesh(skinned_box(), material));
            const skinned = new Mesh(skinned_box(), material);
            // far from where its joints put it: the joints (world space) win
            skinned.position.set([3, -2, 1]);
            skinned.skin = new MeshSkin(2, "box skin");
            const at_rest = await draw(device, skinned);
            write_readback_png(at_rest, "skinning_rest");
            expect(largest_difference(at_rest, rigid), "bind pose = the unskinned mesh").toBeLessThanOrEqual(1);

            const moved_by_hand = await draw(device, new Mesh(skinned_box(SHIFT), material));
            skinned.skin.matrices[16 + 12] = SHIFT;
            skinned.skin.mark_changed();
            const moved = await draw(device, skinned);
            write_readback_png(moved, "skinning_joint_moved");
            expect(differing_pixels(moved, at_rest), "the upper half moved").toBeGreaterThan(60);
            expect(largest_difference(moved, moved_by_hand), "as the vertices moved by hand").toBeLessThanOrEqual(1);
        });
    });

    it("a skinned mesh hidden long enough for its skin to let go of its slot draws its pose again when shown", async () => {
        await with_gpu_device(async (device) => {
            const moved_by_hand = await draw(device, new Mesh(skinned_box(SHIFT), material));
            const skinned = new Mesh(skinned_box(), material);
            skinned.skin = new MeshSkin(2, "box skin");
            skinned.skin.matrices[16 + 12] = SHIFT;
            const scene = new Scene();
            scene.add(skinned);
            // a second skinned mesh of the same geometry keeps the skin group in use while the first is hidden
            const other = scene.add(new Mesh(skinned.geometry, material));
            other.skin = new MeshSkin(2, "other skin");
            other.position.set([0, -40, 0]);
            const target = new TextureRenderTarget(SIZE, SIZE);
            const errors: Error[] = [];
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, resolution_scale: 1, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0.6, 0.8, 4]);
            renderer.render_frame();
            skinned.visible = false;
            // past the skinning's keep window (120 frames): the hidden skin's record is let go
            for (let f = 0; f < 130; f++) renderer.render_frame();
            skinned.visible = true;
            renderer.render_frame();
            const shown = await read_texture(device, target.acquire());
            renderer.destroy();
            expect(errors).toEqual([]);
            expect(largest_difference(shown, moved_by_hand), "its pose, as the vertices moved by hand").toBeLessThanOrEqual(1);
        });
    });

    it("re-skins only when the skin's version moves, and the velocity product sees the moving half move", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const mesh = new Mesh(skinned_box(), material);
            const skin = (mesh.skin = new MeshSkin(2, "box skin"));
            scene.add(mesh);
            const target = new TextureRenderTarget(SIZE, SIZE);
            const errors: Error[] = [];
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, resolution_scale: 1, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 4]);
            renderer.capture_pass_list = true;
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            renderer.render_frame();
            const before = await read_texture(device, target.acquire());
            // written but not marked: the renderer keeps what it skinned
            skin.matrices[16 + 12] = SHIFT;
            renderer.render_frame();
            expect(largest_difference(await read_texture(device, target.acquire()), before), "not re-skinned without mark_changed").toBeLessThanOrEqual(1);
            skin.mark_changed();
            renderer.render_frame();
            expect(differing_pixels(await read_texture(device, target.acquire()), before)).toBeGreaterThan(60);
            const v = await read_texture(device, probe.texture!);
            const at = (x: number, y: number): number => v.data[(y * SIZE + x) * v.channels];
            // the upper half's front, moved right by SHIFT: about 0.5 / 3.5 / 2 x SIZE... in uv, ~0.05; the lower half still
            const upper = at(38, 22);
            const lower = at(32, 44);
            console.log(`[skinning] velocity x: upper half ${upper.toFixed(4)}, lower half ${lower.toFixed(4)}`);
            expect(upper).toBeGreaterThan(0.03);
            expect(Math.abs(lower)).toBeLessThan(1e-3);
            // the next frame, nothing changed: no motion anywhere
            renderer.render_frame();
            const still = await read_texture(device, probe.texture!);
            expect(Math.abs(still.data[(22 * SIZE + 38) * still.channels])).toBeLessThan(1e-4);
            expect(renderer.last_frame_passes.map((p) => p.name)).toContain("skinning");
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("refuses a skin on a geometry without joints and weights, naming the skin; the next frame without it draws", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const mesh = new Mesh(make_box_geometry(1, 1, 1), material);
            mesh.skin = new MeshSkin(1, "jointless");
            scene.add(mesh);
            const errors: Error[] = [];
            const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            let thrown: unknown = null;
            try {
                renderer.render_frame();
            } catch (error) {
                thrown = error;
            }
            const message = String((thrown as Error | null)?.message ?? "") + errors.map((e) => e.message).join("\n");
            expect(message).toContain("MeshSkin 'jointless': the mesh's geometry has no joints and weights");
            mesh.skin = null;
            errors.length = 0;
            renderer.render_frame();
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("meshes sharing a geometry are skinned together, each its own pose; one leaving moves the others' slots without a frame of false motion", async () => {
        await with_gpu_device(async (device) => {
            const geometry = skinned_box();
            const scene = new Scene();
            const meshes: Mesh[] = [];
            for (let i = 0; i < 3; i++) {
                const mesh = scene.add(new Mesh(geometry, material));
                mesh.position.set([(i - 1) * 1.6, 0, 0]);
                const skin = (mesh.skin = new MeshSkin(2, `skin ${i}`));
                // joints are world space: each box's joints at its own place, the upper half shifted by i * 0.2
                for (const j of [0, 1]) skin.matrices.set([(i - 1) * 1.6 + (j === 1 ? i * 0.2 : 0), 0, 0], j * 16 + 12);
                meshes.push(mesh);
            }
            const target = new TextureRenderTarget(SIZE * 2, SIZE);
            const errors: Error[] = [];
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, resolution_scale: 1, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.view.camera.fov_y = Math.PI / 4;
            renderer.capture_pass_list = true;
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            renderer.render_frame();
            const together = await read_texture(device, target.acquire());
            // the same boxes drawn each with a geometry of its own, its shift moved into the vertices by hand
            const by_hand = new Scene();
            for (let i = 0; i < 3; i++) by_hand.add(new Mesh(skinned_box(i * 0.2), material)).position.set([(i - 1) * 1.6, 0, 0]);
            renderer.scene = by_hand;
            renderer.render_frame();
            expect(largest_difference(together, await read_texture(device, target.acquire())), "three poses in one dispatch = three boxes moved by hand").toBeLessThanOrEqual(2);
            // the first leaves: the other two take slots 0 and 1; still, so no motion
            renderer.scene = scene;
            renderer.render_frame();
            scene.remove(meshes[0]);
            renderer.render_frame();
            const velocity = await read_texture(device, probe.texture!);
            let largest = 0;
            for (let p = 0; p < velocity.data.length; p++) largest = Math.max(largest, Math.abs(velocity.data[p]));
            expect(largest, "no motion after the slots moved").toBeLessThan(1e-4);
            const after = await read_texture(device, target.acquire());
            // the right box is where it was
            let right = 0;
            for (let y = 0; y < SIZE; y++) for (let x = SIZE + 16; x < SIZE * 2; x++) for (let c = 0; c < 3; c++) right = Math.max(right, Math.abs(after.data[(y * SIZE * 2 + x) * 4 + c] - together.data[(y * SIZE * 2 + x) * 4 + c]));
            expect(right).toBeLessThanOrEqual(2);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });
});
