// Meshes drawn a second time with another shader, on Dawn: an outline shell and an additive hover rim on the
// joined sphere only; leaving takes the outline away; with nothing joined there is no mesh-pass pass.
import { describe, expect, it } from "vitest";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { OUTLINE_WGSL } from "../../../../shade/renderer/mesh_pass/mesh_pass_wgsl.js";
import { MeshPassExtension } from "../../../../shade/renderer/mesh_pass/MeshPassExtension.js";
import { PipelineCache } from "../../../../shade/renderer/pipeline/PipelineCache.js";
import { make_outline_pass } from "../../../../shade/renderer/mesh_pass/make_outline_pass.js";
import { make_rim_pass } from "../../../../shade/renderer/mesh_pass/make_rim_pass.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, to_rgba8, with_gpu_device, write_png, type TextureReadback } from "../../../harness/index.js";

const W = 96;
const H = 64;

/** Two equal grey spheres at x = -1 and x = +1 against the sky, seen head-on: the picture is mirror-symmetric. */
function two_spheres(): { scene: Scene; left: Mesh; right: Mesh } {
    const scene = new Scene();
    const grey = new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1], roughness: 0.8 });
    const geometry = make_sphere_geometry(0.6, 32, 16);
    const left = scene.add(new Mesh(geometry, grey));
    left.position.set([-1, 0, 0]);
    const right = scene.add(new Mesh(geometry, grey));
    right.position.set([1, 0, 0]);
    scene.sun.direction.set([0, -1, -1]); // from above and behind the camera, the same on both spheres
    return { scene, left, right };
}

function renderer_for(device: GPUDevice, scene: Scene): Renderer {
    const renderer = new Renderer({ device, target: new TextureRenderTarget(W, H), scene, feature_taa_enabled: false });
    const camera = renderer.view.camera;
    camera.position.set([0, 0, 5]);
    camera.target.set([0, 0, 0]);
    camera.fov_y = Math.PI / 4;
    renderer.capture_pass_list = true;
    return renderer;
}

async function frame(renderer: Renderer, name: string): Promise<TextureReadback> {
    renderer.render_frame();
    const image = await read_texture(renderer.device, (renderer.target as TextureRenderTarget).acquire());
    write_png(`/tmp/mesh_pass_${name}.png`, image.width * 4, image.height * 4, upscaled(to_rgba8(image), image.width, image.height, 4));
    return image;
}

/** Nearest-neighbour enlargement, so that the PNG can be looked at. */
function upscaled(rgba: Uint8Array, w: number, h: number, k: number): Uint8Array {
    const out = new Uint8Array(w * k * h * k * 4);
    for (let y = 0; y < h * k; y++) {
        for (let x = 0; x < w * k; x++) out.set(rgba.subarray(((((y / k) | 0) * w + ((x / k) | 0)) * 4), ((((y / k) | 0) * w + ((x / k) | 0)) * 4) + 4), (y * w * k + x) * 4);
    }
    return out;
}

/** Pixels of the ink colour (pure green) in columns [x0, x1) of rows [y0, y1). */
function green_pixels(image: TextureReadback, x0: number, x1: number, y0 = 0, y1 = image.height): number {
    let n = 0;
    for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
            const [r, g, b] = pixel_at(image, x, y);
            if (g > 150 && r < 60 && b < 60) n++;
        }
    }
    return n;
}

function red_pixels(image: TextureReadback, x0: number, x1: number): number {
    let n = 0;
    for (let y = 0; y < image.height; y++) {
        for (let x = x0; x < x1; x++) {
            const [r, g, b] = pixel_at(image, x, y);
            if (r > 150 && g < 60 && b < 60) n++;
        }
    }
    return n;
}

function luminance(image: TextureReadback, x: number, y: number): number {
    const [r, g, b] = pixel_at(image, x, y);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function pass_names(renderer: Renderer): string[] {
    return renderer.last_frame_passes.filter((p) => !p.culled).map((p) => p.name);
}

describe("MeshPassExtension on Dawn", () => {
    it("an outline shell rings the joined sphere only; after remove(mesh) it is gone and no mesh-pass pass is recorded", async () => {
        await with_gpu_device(async (device) => {
            const { scene, left, right } = two_spheres();
            const renderer = renderer_for(device, scene);
            const outline = renderer.add_extension(make_outline_pass({ color: [0, 4, 0, 1], width: 0.08 }));

            const empty = await frame(renderer, "outline_nothing_joined");
            expect(pass_names(renderer), "nothing joined: no mesh-pass pass").not.toContain("outline / draw");
            expect(green_pixels(empty, 0, W)).toBe(0);

            expect(outline.add(left)).toBe(true);
            expect(outline.add(left), "joining twice").toBe(false);
            expect(outline.has(left) && !outline.has(right)).toBe(true);
            const joined = await frame(renderer, "outline_left_joined");
            expect(pass_names(renderer)).toContain("outline / draw");
            const ring = green_pixels(joined, 0, W / 2);
            expect(ring, "ink around the joined (left) sphere").toBeGreaterThan(40);
            expect(green_pixels(joined, W / 2, W), "no ink around the other sphere").toBe(0);
            // only a rim: the joined sphere's own centre is shaded as the other's is
            const cy = H / 2;
            const cx = Math.round(W / 2 - W * 0.19);
            const mx = W - 1 - cx;
            expect(green_pixels(joined, cx - 4, cx + 4, cy - 4, cy + 4), "the sphere's middle is not inked").toBe(0);
            expect(Math.abs(luminance(joined, cx, cy) - luminance(joined, mx, cy))).toBeLessThan(6);

            // per-frame values: the ink turns red from the values block, written in place, on the next frame
            outline.values.data.set([4, 0, 0, 1]);
            const red = await frame(renderer, "outline_red");
            expect(green_pixels(red, 0, W)).toBe(0);
            expect(red_pixels(red, 0, W / 2), "the same ring, red").toBeGreaterThan(ring * 0.8);

            expect(outline.remove(left)).toBe(true);
            expect(outline.remove(left)).toBe(false);
            const left_out = await frame(renderer, "outline_removed");
            expect(green_pixels(left_out, 0, W), "after remove(mesh) no outline").toBe(0);
            expect(pass_names(renderer)).not.toContain("outline / draw");

            // a joined mesh that is hidden or leaves the scene is not drawn either
            outline.add(right);
            right.visible = false;
            await frame(renderer, "outline_hidden");
            expect(pass_names(renderer)).not.toContain("outline / draw");
            renderer.destroy();
            outline.destroy();
        });
    });

    it("frame_update (PlayCanvas frameUpdate) writes this frame's values before the pass draws", async () => {
        await with_gpu_device(async (device) => {
            const { scene, left } = two_spheres();
            const renderer = renderer_for(device, scene);
            class BlinkingOutline extends MeshPassExtension {
                frames = 0;
                override frame_update(_frame: FrameContext, values: Float32Array): void {
                    const on = this.frames++ % 2 === 0;
                    values[0] = on ? 0 : 4;
                    values[1] = on ? 4 : 0;
                }
            }
            const blink = renderer.add_extension(new BlinkingOutline({ name: "blink", shader: OUTLINE_WGSL, cull: "front" }));
            blink.values.data.set([0, 0, 0, 1, 0.08]);
            blink.add(left);
            const even = await frame(renderer, "blink_even");
            const odd = await frame(renderer, "blink_odd");
            expect(green_pixels(even, 0, W / 2)).toBeGreaterThan(40);
            expect(red_pixels(even, 0, W / 2)).toBe(0);
            expect(red_pixels(odd, 0, W / 2)).toBeGreaterThan(40);
            expect(green_pixels(odd, 0, W / 2)).toBe(0);
            renderer.destroy();
        });
    });

    it("an outline and a rim at once, sharing one pipeline cache: each on its own meshes; meshes sharing a geometry are one instanced draw", async () => {
        await with_gpu_device(async (device) => {
            const { scene, left, right } = two_spheres();
            const third = scene.add(new Mesh(left.geometry, left.material));
            third.position.set([-1, 1.2, 0]);
            third.scale.set([0.5, 0.5, 0.5]);
            const renderer = renderer_for(device, scene);
            const pipelines = new PipelineCache();
            const outline = renderer.add_extension(make_outline_pass({ color: [0, 4, 0, 1], width: 0.08, pipelines }));
            const rim = renderer.add_extension(make_rim_pass({ color: [1, 0.8, 0.2, 3], pipelines }));
            outline.add(left);
            outline.add(third);
            rim.add(right);
            const image = await frame(renderer, "outline_and_rim");
            expect(pipelines.builds, "two shaders, two pipelines in the one cache").toBe(2);
            expect(outline.draw_count, "two joined meshes of one geometry: one instanced draw").toBe(1);
            expect(green_pixels(image, 0, W / 2, 0, H / 2 - 12), "the small upper sphere is outlined too").toBeGreaterThan(15);
            expect(green_pixels(image, W / 2, W)).toBe(0);
            renderer.destroy();
        });
    });

    it("a hover rim adds a fresnel glow at the joined sphere's edge, not at its middle nor on the other sphere", async () => {
        await with_gpu_device(async (device) => {
            const { scene, left } = two_spheres();
            const renderer = renderer_for(device, scene);
            const rim = renderer.add_extension(make_rim_pass({ color: [1, 0.8, 0.2, 3], power: 2 }));
            rim.add(left);
            const image = await frame(renderer, "rim_left_joined");
            expect(pass_names(renderer)).toContain("hover rim / draw");
            // the left sphere spans about x in [14, 40] at 96 px; scan its row for the brightest gain over the mirror
            const cy = H / 2;
            let edge_gain = 0;
            let middle_gain = Infinity;
            const cx = Math.round(W / 2 - W * 0.19);
            for (let x = 0; x < W / 2; x++) {
                const gain = luminance(image, x, cy) - luminance(image, W - 1 - x, cy);
                edge_gain = Math.max(edge_gain, gain);
                if (x === cx) middle_gain = gain;
            }
            expect(edge_gain, "the joined sphere's edge is much brighter than the mirrored edge of the other").toBeGreaterThan(60);
            expect(Math.abs(middle_gain), "facing the camera, the fresnel term is ~0").toBeLessThan(12);
            rim.remove(left);
            const plain = await frame(renderer, "rim_removed");
            for (let x = 0; x < W / 2; x += 3) expect(Math.abs(luminance(plain, x, cy) - luminance(plain, W - 1 - x, cy))).toBeLessThan(6);
            renderer.destroy();
            rim.destroy();
        });
    });

    it("a per-mesh variant over the scene colour: the right sphere's outline drawn by its own shader (red), the left's by the pass's (green)", async () => {
        await with_gpu_device(async (device) => {
            const { scene, left, right } = two_spheres();
            const renderer = renderer_for(device, scene);
            const outline = renderer.add_extension(make_outline_pass({ color: [0, 4, 0, 1], width: 0.08 }));
            // the same shell, its ink fixed to red: pixi3d's per-material entry for a pass name
            outline.define_variant("red ink", OUTLINE_WGSL.replace("return values[0];", "return vec4f(4.0, 0.0, 0.0, 1.0);"));
            outline.add(left);
            outline.add(right, "red ink");
            const image = await frame(renderer, "outline_variants");
            expect(green_pixels(image, 0, W / 2), "the left: green ink").toBeGreaterThan(40);
            expect(red_pixels(image, 0, W / 2)).toBe(0);
            expect(red_pixels(image, W / 2, W), "the right: red ink").toBeGreaterThan(40);
            expect(green_pixels(image, W / 2, W)).toBe(0);
            expect(outline.pipelines.builds, "one pipeline per variant").toBe(2);
            renderer.destroy();
            outline.destroy();
        });
    });
});
