// Levels of detail on Dawn (issue 23: the skirmish's 2,000 units are vertex-bound). A strip of two quads whose
// coarser level keeps the left quad alone: drawn at that level, the right quad is gone from the G-buffer, from the
// shadow map and from the motion (every pass draws the same level); the level is picked by the size on screen
// (near: full, far: coarse); a bad level is refused naming it.
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_plane_geometry } from "../../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Velocity } from "../../../../shade/renderer/products/Velocity.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { ShadowExtension } from "../../../../shade/renderer/shadows/ShadowExtension.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png, type TextureReadback, screen_pixel, luminance_at } from "../../../harness/index.js";
import { TextureProbe } from "../products/probe.js";

const SIZE = 64;
/** The coarser level: the left quad's two triangles (the full index lists the right quad first). */
const LEFT = Uint16Array.of(0, 1, 4, 0, 4, 3);

/**
 * Two 1 m quads side by side, x in [-1, 0] and [0, 1], z in [-0.5, 0.5]: six vertices (the middle edge shared),
 * facing `up` (y, lying flat) or +z (standing, `vertical`).
 */
function strip(vertical: boolean): Geometry {
    const position = new Float32Array(18);
    const xs = [-1, 0, 1];
    for (let row = 0; row < 2; row++) {
        for (let c = 0; c < 3; c++) {
            const v = row * 3 + c;
            const d = row === 0 ? 0.5 : -0.5;
            position.set(vertical ? [xs[c], -d, 0] : [xs[c], 0, d], v * 3);
        }
    }
    const normal = new Float32Array(18);
    for (let v = 0; v < 6; v++) normal.set(vertical ? [0, 0, 1] : [0, 1, 0], v * 3);
    const uv = new Float32Array(12);
    return new Geometry({ position, normal, uv, index: Uint16Array.of(1, 2, 5, 1, 5, 4, 0, 1, 4, 0, 4, 3) });
}

function pixel_of(renderer: Renderer, x: number, y: number, z: number): [number, number] {
    return screen_pixel(renderer.view.camera.view_projection, SIZE, x, y, z);
}

const luminance = luminance_at;

/** Blue over red and green: the strip's colour (the ground is grey, the sky pale). */
function blue(image: TextureReadback, [x, y]: [number, number]): boolean {
    const [r, g, b] = pixel_at(image, x, y);
    return b > r * 1.6 && b > g * 1.6;
}

async function level_counts(renderer: Renderer, device: GPUDevice): Promise<number[]> {
    const counts = await renderer.gbuffer_culling.read_level_instance_counts(device);
    const per_level = [0, 0, 0, 0];
    for (let i = 0; i < counts.length; i++) per_level[i % 4] += counts[i];
    return per_level;
}

describe("levels of detail on Dawn", () => {
    it("drawn at its coarser level, the strip's right quad is gone from the picture and from the shadows; the full index keeps both", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            scene.add(new Mesh(make_plane_geometry(12, 12), new StandardMaterial({ base_color: [0.7, 0.7, 0.7, 1], roughness: 0.9 })));
            const geometry = strip(false);
            scene.add(new Mesh(geometry, new StandardMaterial({ base_color: [0.1, 0.2, 0.95, 1], roughness: 0.9 }))).position.set([0, 1, 0]);
            scene.sun.direction.set([1, -1, 0]);
            scene.sun.intensity = 3;
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            const camera = renderer.view.camera;
            camera.position.set([0, 7, 6]);
            camera.target.set([0, 0, 0]);
            camera.fov_y = Math.PI / 4;
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256 }));

            const frame = async (name: string) => {
                renderer.render_frame();
                const image = await read_texture(device, target.acquire());
                write_readback_png(image, name);
                return image;
            };
            const full = await frame("detail_levels_full");
            expect(await level_counts(renderer, device), "no levels: everything at level 0").toEqual([2, 0, 0, 0]);
            // a screen size of 1: drawn coarse wherever it is smaller than the view
            geometry.detail_levels = [{ index: LEFT, screen_size: 1 }];
            const coarse = await frame("detail_levels_coarse");
            expect(await level_counts(renderer, device), "the strip at level 1").toEqual([1, 1, 0, 0]);

            const lit = luminance(full, pixel_of(renderer, -3, 0, 0));
            // the sun travels +x and down at 45 degrees: the left quad shades the ground at x in [0, 1], the right
            // one at [1, 2]
            for (const [name, image] of [["full", full], ["coarse", coarse]] as const) {
                expect(blue(image, pixel_of(renderer, -0.5, 1, 0)), `${name}: the left quad drawn`).toBe(true);
                expect(luminance(image, pixel_of(renderer, 0.5, 0, 0)), `${name}: the left quad's shadow`).toBeLessThan(lit * 0.5);
            }
            expect(blue(full, pixel_of(renderer, 0.5, 1, 0)), "full: the right quad drawn").toBe(true);
            expect(luminance(full, pixel_of(renderer, 1.5, 0, 0)), "full: the right quad's shadow").toBeLessThan(lit * 0.5);
            expect(blue(coarse, pixel_of(renderer, 0.5, 1, 0)), "coarse: the right quad not drawn").toBe(false);
            expect(luminance(coarse, pixel_of(renderer, 1.5, 0, 0)), "coarse: no shadow of the right quad").toBeGreaterThan(lit * 0.9);
            const casters = await shadows.read_caster_counts(device);
            expect(casters[0] + casters[1] + casters[2]).toBeGreaterThan(0);

            // a screen size the strip is above (about 0.3 of the view here): the full index, its shadow too
            geometry.detail_levels = [{ index: LEFT, screen_size: 0.01 }];
            const above = await frame("detail_levels_above");
            expect(await level_counts(renderer, device), "the strip above its level's size: level 0").toEqual([2, 0, 0, 0]);
            expect(blue(above, pixel_of(renderer, 0.5, 1, 0)), "above: the right quad drawn").toBe(true);
            expect(luminance(above, pixel_of(renderer, 1.5, 0, 0)), "above: the right quad's shadow").toBeLessThan(lit * 0.5);

            // back to none: the full strip again
            geometry.detail_levels = [];
            const again = await frame("detail_levels_again");
            expect(blue(again, pixel_of(renderer, 0.5, 1, 0)), "levels removed: the right quad drawn again").toBe(true);
            expect(errors).toEqual([]);
            shadows.destroy();
            renderer.destroy();
        });
    });

    it("the level follows the size on screen: full near, coarse far", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            const geometry = strip(true);
            // the strip's sphere (radius sqrt(1.25)) on a 45 degree view: 0.67 of its height at 4 m, 0.067 at 40 m
            geometry.detail_levels = [{ index: LEFT, screen_size: 0.2 }];
            scene.add(new Mesh(geometry, new StandardMaterial({ base_color: [0.1, 0.2, 0.95, 1] })));
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            const camera = renderer.view.camera;
            camera.fov_y = Math.PI / 4;
            camera.target.set([0, 0, 0]);
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256, distance: 80 }));
            camera.position.set([0, 0, 4]);
            renderer.render_frame();
            expect(await level_counts(renderer, device), "at 4 m: full").toEqual([1, 0, 0, 0]);
            const near = await read_texture(device, target.acquire());
            expect(blue(near, pixel_of(renderer, 0.5, 0, 0)), "at 4 m the right quad is drawn").toBe(true);
            camera.position.set([0, 0, 40]);
            renderer.render_frame();
            expect(await level_counts(renderer, device), "at 40 m: coarse").toEqual([0, 1, 0, 0]);
            const far = await read_texture(device, target.acquire());
            write_readback_png(far, "detail_levels_far");
            expect(blue(far, pixel_of(renderer, -0.5, 0, 0)), "at 40 m the left quad is drawn").toBe(true);
            expect(blue(far, pixel_of(renderer, 0.5, 0, 0)), "at 40 m the right quad is not").toBe(false);
            expect(errors).toEqual([]);
            shadows.destroy();
            renderer.destroy();
        });
    });

    it("the motion of a mesh drawn coarse is where its coarse triangles are (the motion pass meets the G-buffer's depth), none where the full one would be", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            const geometry = strip(true);
            geometry.detail_levels = [{ index: LEFT, screen_size: 1 }];
            const mesh = scene.add(new Mesh(geometry, new StandardMaterial({ base_color: [0.1, 0.2, 0.95, 1] })));
            const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            renderer.render_frame();
            mesh.position.set([0.2, 0, 0]);
            renderer.render_frame();
            const v = await read_texture(device, probe.texture!);
            const at = ([x, y]: [number, number]) => v.data[(y * SIZE + x) * v.channels];
            const left = at(pixel_of(renderer, -0.4, 0, 0));
            const right = at(pixel_of(renderer, 0.6, 0, 0));
            expect(left, "the coarse (left) quad moves right").toBeGreaterThan(0.01);
            expect(Math.abs(right), "no motion where the coarse level has no triangle").toBeLessThan(1e-4);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("a level indexing past the vertices fails the frame at upload, naming the level and the index; fixed, the next frame draws", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            const geometry = strip(true);
            geometry.detail_levels = [{ index: Uint16Array.of(0, 1, 9), screen_size: 1 }];
            const mesh = scene.add(new Mesh(geometry, new StandardMaterial({ base_color: [0.1, 0.2, 0.95, 1] })));
            const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            // the frame fails naming the pass and the level (as a geometry's own bad index does)
            expect(() => renderer.render_frame()).toThrow(/detail_levels\[0\]: index 2 is 9, but the geometry has 6 vertices \(indices must be below the vertex count\)/);
            geometry.detail_levels = [{ index: LEFT, screen_size: 1 }];
            renderer.render_frame();
            expect(errors).toEqual([]);
            expect(mesh.geometry.detail_levels.length).toBe(1);
            renderer.destroy();
        });
    });

    it("bad levels are refused when set, naming the level", () => {
        const geometry = strip(true);
        expect(() => (geometry.detail_levels = [{ index: Uint16Array.of(0, 1), screen_size: 0.5 }])).toThrow(/detail_levels\[0\]: the index is a triangle list; 2 indices/);
        expect(() => (geometry.detail_levels = [{ index: LEFT, screen_size: 0 }])).toThrow(/detail_levels\[0\]: screen_size must be in \(0, 1\], got 0/);
        expect(() =>
            (geometry.detail_levels = [
                { index: LEFT, screen_size: 0.2 },
                { index: LEFT, screen_size: 0.3 },
            ]),
        ).toThrow(/detail_levels\[1\]: screen_size 0.3 must be below the level before it \(0.2\)/);
        const four = [0.5, 0.4, 0.3, 0.2].map((screen_size) => ({ index: LEFT, screen_size }));
        expect(() => (geometry.detail_levels = four)).toThrow(/at most 3 coarser levels, got 4/);
        expect(geometry.detail_levels).toEqual([]);
    });
});
