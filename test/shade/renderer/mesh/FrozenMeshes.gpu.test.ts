// Frozen meshes and shared draw runs on Dawn (issue 23: "the CPU cost of a frame then depends on what changed").
// A frozen mesh is read when it joins the scene and after `changed()`; in other frames the draw list keeps its
// slot and run as they were (`frozen_writes` does not move), while meshes not frozen are compared every frame.
// Untextured materials share runs: meshes of one geometry are one instanced draw whatever their colours.
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 64;

function setup(device: GPUDevice) {
    const scene = new Scene();
    scene.sun.intensity = 0;
    scene.ambient.set([1, 1, 1]);
    const errors: Error[] = [];
    const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, resolution_scale: 1, on_error: (e) => errors.push(e) });
    renderer.view.camera.position.set([0, 0, 4.5]);
    renderer.view.camera.target.set([0, 0, 0]);
    return { scene, renderer, errors };
}

/** The pixel at clip-space-ish (x, y) in [-1, 1], as linear-ish rgb. */
function pixel(r: TextureReadback, x: number, y: number): [number, number, number] {
    const px = Math.round(((x + 1) / 2) * (r.width - 1));
    const py = Math.round(((1 - y) / 2) * (r.height - 1));
    const o = (py * r.width + px) * r.channels;
    return [r.data[o], r.data[o + 1], r.data[o + 2]];
}

function is_red(p: [number, number, number]): boolean {
    return p[0] > 120 && p[1] < 60 && p[2] < 60;
}
function is_green(p: [number, number, number]): boolean {
    return p[1] > 120 && p[0] < 60 && p[2] < 60;
}
/** The picture's colour there is its corner's (the sky). */
function is_sky(r: TextureReadback, x: number, y: number): boolean {
    const p = pixel(r, x, y);
    const corner = pixel(r, -1, 1);
    return Math.abs(p[0] - corner[0]) + Math.abs(p[1] - corner[1]) + Math.abs(p[2] - corner[2]) <= 3;
}

describe("frozen meshes and shared runs on Dawn", () => {
    it("a frozen mesh is kept as it was until changed(); the meshes not frozen are still read every frame", async () => {
        await with_gpu_device(async (device) => {
            const { scene, renderer, errors } = setup(device);
            const box = make_box_geometry(1, 1, 1);
            const red = new StandardMaterial({ base_color: [1, 0, 0, 1], label: "red" });
            const green = new StandardMaterial({ base_color: [0, 1, 0, 1], label: "green" });
            const still = scene.add(new Mesh(box, red));
            still.position.set([-1.5, 1, 0]);
            still.frozen = true;
            const moving = scene.add(new Mesh(box, green));
            moving.position.set([-1.5, -1, 0]);
            renderer.render_frame();
            const list = renderer.gbuffer_draw_list;
            const reads = list.frozen_writes;
            let picture = await read_texture(device, renderer.target.acquire());
            expect(is_red(pixel(picture, -0.5, 0.33)), "the frozen box where it was put").toBe(true);
            expect(is_green(pixel(picture, -0.5, -0.33)), "the live box where it was put").toBe(true);

            // ten frames: the live box moves right each frame; the frozen one is not read once
            for (let i = 0; i < 10; i++) {
                moving.position[0] = -1.5 + 0.3 * (i + 1);
                renderer.render_frame();
            }
            picture = await read_texture(device, renderer.target.acquire());
            expect(list.frozen_writes, "no frozen mesh was read in frames where none changed").toBe(reads);
            expect(is_green(pixel(picture, 0.5, -0.33)), "the live box followed its position").toBe(true);
            expect(is_red(pixel(picture, -0.5, 0.33)), "the frozen box still drawn").toBe(true);

            // changed(): read again, drawn where it now is
            still.position[0] = 1.5;
            still.changed();
            renderer.render_frame();
            picture = await read_texture(device, renderer.target.acquire());
            write_readback_png(picture, "frozen_mesh_changed");
            expect(list.frozen_writes).toBe(reads + 1);
            expect(is_red(pixel(picture, 0.5, 0.33)), "the frozen box at its new place after changed()").toBe(true);
            expect(is_sky(picture, -0.5, 0.33), "and gone from the old one").toBe(true);

            // visible off (with changed()) hides it; a material edit shows without changed()
            still.visible = false;
            still.changed();
            renderer.render_frame();
            picture = await read_texture(device, renderer.target.acquire());
            expect(is_sky(picture, 0.5, 0.33), "a hidden frozen mesh is not drawn").toBe(true);
            still.visible = true;
            still.changed();
            red.base_color.set([0, 1, 0, 1]);
            renderer.render_frame();
            picture = await read_texture(device, renderer.target.acquire());
            expect(is_green(pixel(picture, 0.5, 0.33)), "its material's new colour without changed()").toBe(true);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("a frozen mesh moved by changed() has motion that frame and none the frames after", async () => {
        await with_gpu_device(async (device) => {
            const { scene, renderer } = setup(device);
            const mesh = scene.add(new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial()));
            mesh.frozen = true;
            renderer.render_frame();
            renderer.render_frame();
            const list = renderer.gbuffer_draw_list;
            expect(list.moved_count).toBe(0);
            mesh.position[1] = 0.5;
            mesh.changed();
            renderer.render_frame();
            expect(list.moved_count, "moved that frame").toBe(1);
            renderer.render_frame();
            expect(list.moved_count, "still the frame after").toBe(0);
            renderer.destroy();
        });
    });

    it("untextured materials share draw runs: one instanced draw per geometry and variant, each mesh in its own colour", async () => {
        await with_gpu_device(async (device) => {
            const { scene, renderer, errors } = setup(device);
            const box = make_box_geometry(0.8, 0.8, 0.8);
            const red = new StandardMaterial({ base_color: [1, 0, 0, 1], label: "red" });
            const green = new StandardMaterial({ base_color: [0, 1, 0, 1], label: "green" });
            // double-sided: another pipeline, another run
            const two_sided = new StandardMaterial({ base_color: [0, 1, 0, 1], double_sided: true, label: "two-sided" });
            const a = scene.add(new Mesh(box, red));
            a.position.set([-1.5, 0, 0]);
            const b = scene.add(new Mesh(box, green));
            b.position.set([0, 0, 0]);
            const c = scene.add(new Mesh(box, red));
            c.position.set([1.5, 0, 0]);
            const d = scene.add(new Mesh(box, two_sided));
            d.position.set([0, 1.5, 0]);
            renderer.render_frame();
            const picture = await read_texture(device, renderer.target.acquire());
            write_readback_png(picture, "shared_runs");
            const list = renderer.gbuffer_draw_list;
            expect(list.opaque_run_count, "red, green, red in one run; the double-sided box in another").toBe(2);
            expect(is_red(pixel(picture, -0.5, 0))).toBe(true);
            expect(is_green(pixel(picture, 0, 0))).toBe(true);
            expect(is_red(pixel(picture, 0.5, 0))).toBe(true);
            expect(is_green(pixel(picture, 0, 0.5))).toBe(true);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });
});
