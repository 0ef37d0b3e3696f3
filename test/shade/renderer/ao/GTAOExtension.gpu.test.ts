// Ambient occlusion on Dawn: GTAOExtension publishes the frame's AmbientOcclusion at AfterGBuffer and the deferred
// lighting multiplies it into the ambient and environment light only. Each check compares a frame against the
// same frame without the extension: an inner corner darkens, an open face does not, the sun is untouched, and
// without any ambient occlusion the lighting's shader and picture are today's.
import { describe, expect, it } from "vitest";
import { GTAOExtension, type GTAOExtensionOptions } from "../../../../shade/renderer/ao/GTAOExtension.js";
import { AmbientOcclusion } from "../../../../shade/renderer/extension/AmbientOcclusion.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ExtractExtension } from "../../../../shade/renderer/extract/ExtractExtension.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import type { FullscreenPath } from "../../../../shade/renderer/fullscreen/FullscreenPath.js";
import { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Camera } from "../../../../shade/renderer/scene/Camera.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { deferred_compute_wgsl, deferred_wgsl } from "../../../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 64;

interface Lighting {
    readonly sun: number;
    readonly ambient: number;
}

/**
 * A floor slab and a wall slab standing on it at a right angle, the wall's foot across the middle of the picture,
 * seen from the front and above; far behind, a backdrop wall. `l_shape` floats the pair (no floor to the sides).
 */
function corner_scene(lighting: Lighting, boxes = false): Scene {
    const scene = new Scene();
    scene.sun.direction.set([0.3, -1, -0.4]);
    scene.sun.intensity = lighting.sun;
    scene.ambient.set([lighting.ambient, lighting.ambient, lighting.ambient]);
    const grey = new StandardMaterial({ base_color: [0.7, 0.7, 0.7, 1], roughness: 1 });
    const box = make_box_geometry();
    const floor = scene.add(new Mesh(box, grey));
    floor.scale.set([3, 0.2, 3]);
    floor.position.set([0, -0.1, 0]);
    const wall = scene.add(new Mesh(box, grey));
    wall.scale.set([3, 2, 0.2]);
    wall.position.set([0, 1, -1.4]);
    const backdrop = scene.add(new Mesh(box, grey));
    backdrop.scale.set([40, 40, 0.2]);
    backdrop.position.set([0, 0, -12]);
    if (boxes) {
        const red = new StandardMaterial({ base_color: [0.8, 0.3, 0.2, 1], roughness: 0.8 });
        const cube = scene.add(new Mesh(box, red));
        cube.scale.set([0.6, 0.6, 0.6]);
        cube.position.set([-0.5, 0.3, 0.2]);
        const tall = scene.add(new Mesh(box, red));
        tall.scale.set([0.4, 1.2, 0.4]);
        tall.position.set([0.7, 0.6, -1.0]);
        tall.rotation.set([0, Math.sin(0.3), 0, Math.cos(0.3)]);
    }
    return scene;
}

interface Frame {
    /** The lit HDR colour (rgba16float, floats). */
    readonly lit: TextureReadback;
    /** The published ambient occlusion, when there was one. */
    readonly ao: TextureReadback | null;
    readonly canvas: TextureReadback;
}

async function render(device: GPUDevice, scene: Scene, extension: RenderExtension | null, size = SIZE): Promise<Frame> {
    const target = new TextureRenderTarget(size, size);
    const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false });
    set_camera(renderer.view.camera);
    if (extension !== null) renderer.add_extension(extension);
    const lit = renderer.add_extension(new ExtractExtension("lit", FramePhase.AfterLighting, (f) => f.get(SceneColor).color));
    const ao = renderer.add_extension(
        new ExtractExtension("ao", FramePhase.AfterLighting, (f) => (f.has(AmbientOcclusion) && f.get(AmbientOcclusion).published ? f.get(AmbientOcclusion).texture : f.get(SceneColor).color)),
    );
    renderer.render_frame();
    const frame = {
        lit: await read_texture(device, lit.texture!),
        ao: extension !== null ? await read_texture(device, ao.texture!) : null,
        canvas: await read_texture(device, target.acquire()),
    };
    renderer.destroy();
    return frame;
}

/** The pixel (x, y) where the test camera sees world point `p` at `size`. */
function pixel_of(p: readonly number[], size = SIZE): [number, number] {
    const camera = new Camera();
    set_camera(camera);
    camera.update(size, size);
    const m = camera.view_projection;
    const clip = [0, 1, 2, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
    return [Math.floor(((clip[0] / clip[3]) * 0.5 + 0.5) * size), Math.floor((0.5 - (clip[1] / clip[3]) * 0.5) * size)];
}

function set_camera(camera: Camera): void {
    camera.position.set([0.4, 2.2, 3.2]);
    camera.target.set([0, 0.3, -1]);
    camera.fov_y = Math.PI / 3;
}

/** Points on the corner scene: the floor and the wall just at their inner corner, open faces away from it. */
const ON_FLOOR_AT_CORNER = [0.2, 0, -1.22];
const ON_WALL_AT_CORNER = [0.2, 0.08, -1.3];
const OPEN_FLOOR = [0.2, 0, 0.6];
const OPEN_WALL = [0.2, 1.3, -1.3];

function gtao(options: GTAOExtensionOptions = {}): GTAOExtension {
    return new GTAOExtension({ radius: 0.6, ...options });
}

/** Largest difference over the red channel of two float readbacks. */
function max_difference(a: TextureReadback, b: TextureReadback): number {
    let max = 0;
    for (let i = 0; i < a.data.length; i += a.channels) max = Math.max(max, Math.abs(a.data[i] - b.data[i]));
    return max;
}

function red(frame: TextureReadback, p: readonly number[]): number {
    const [x, y] = pixel_of(p);
    return pixel_at(frame, x, y)[0];
}

const AMBIENT_ONLY = { sun: 0, ambient: 1 };
const SUN_ONLY = { sun: 3, ambient: 0 };
const SUN_AND_AMBIENT = { sun: 3, ambient: 0.5 };

/** Publishes a constant ambient occlusion (a quarter-size r8unorm texture) at AfterGBuffer: the hook, without GTAO. */
class ConstantOcclusion extends RenderExtension {
    name = "constant occlusion";
    phase = FramePhase.AfterGBuffer;
    readonly #effect: FullscreenEffect;
    publish = true;
    constructor(value: number) {
        super();
        this.#effect = new FullscreenEffect({ label: "constant occlusion", inputs: 0, format: "r8unorm", path: "raster", fragment: `fn effect(uv: vec2f) -> vec4f { return vec4f(${value.toFixed(4)}); }` });
    }
    record(frame: FrameContext): void {
        const record = frame.create(AmbientOcclusion);
        if (!this.publish) return;
        const [w, h] = frame.resolution;
        const texture = frame.graph.create("constant occlusion", TextureResourceDescriptor.of(w >> 2, h >> 2, "r8unorm", 0x10 | 0x04 | 0x01));
        record.texture = this.#effect.graph_draw(frame.graph, texture);
    }
}

describe("GTAOExtension on Dawn", () => {
    it("darkens the inner corner of a floor and a wall meeting at a right angle, and leaves their open faces as they were (half and full resolution)", async () => {
        await with_gpu_device(async (device) => {
            const without = await render(device, corner_scene(AMBIENT_ONLY), null);
            // without ambient occlusion, ambient-only light is the albedo (0.7, as 8 bits) times the ambient: today's picture
            expect(red(without.lit, OPEN_FLOOR)).toBeCloseTo(179 / 255, 2);
            expect(red(without.lit, ON_FLOOR_AT_CORNER)).toBeCloseTo(179 / 255, 2);
            for (const half_resolution of [true, false]) {
                const name = `gtao_corner_ambient_${half_resolution ? "half" : "full"}`;
                const with_ao = await render(device, corner_scene(AMBIENT_ONLY), gtao({ half_resolution }));
                write_readback_png(with_ao.ao!, `${name}_ao`);
                const ratio = (p: readonly number[]) => red(with_ao.lit, p) / red(without.lit, p);
                expect(ratio(ON_FLOOR_AT_CORNER), `${name}: the floor at the corner`).toBeLessThan(0.85);
                expect(ratio(ON_WALL_AT_CORNER), `${name}: the wall at the corner`).toBeLessThan(0.9);
                expect(ratio(OPEN_FLOOR), `${name}: the open floor`).toBeGreaterThan(0.98);
                expect(ratio(OPEN_WALL), `${name}: the open wall`).toBeGreaterThan(0.98);
                expect(ratio(OPEN_FLOOR)).toBeLessThanOrEqual(1.0001);
            }
        });
    });

    it("leaves the sun untouched: sun-only frames are equal with and without it, and with sun and ambient a pixel changes by its ambient share only", async () => {
        await with_gpu_device(async (device) => {
            const sun_without = await render(device, corner_scene(SUN_ONLY), null);
            const sun_with = await render(device, corner_scene(SUN_ONLY), gtao());
            // sunlit pixels are there to be changed
            expect(red(sun_without.lit, OPEN_FLOOR)).toBeGreaterThan(0.5);
            expect(max_difference(sun_without.lit, sun_with.lit), "sun-only, with against without").toBeLessThanOrEqual(1e-3);
            const both_without = await render(device, corner_scene(SUN_AND_AMBIENT), null);
            const both_with = await render(device, corner_scene(SUN_AND_AMBIENT), gtao());
            const ambient_without = await render(device, corner_scene({ sun: 0, ambient: 0.5 }), null);
            const ambient_with = await render(device, corner_scene({ sun: 0, ambient: 0.5 }), gtao());
            // the sunlit floor at the corner: darker by exactly what the ambient-only frame lost, ambient * albedo * (1 - ao)
            const lost = red(ambient_without.lit, ON_FLOOR_AT_CORNER) - red(ambient_with.lit, ON_FLOOR_AT_CORNER);
            expect(lost).toBeGreaterThan(0.04);
            const [x, y] = pixel_of(ON_FLOOR_AT_CORNER);
            expect(lost).toBeCloseTo(0.5 * (179 / 255) * (1 - pixel_at(both_with.ao!, x, y)[0] / 255), 2);
            expect(red(both_without.lit, ON_FLOOR_AT_CORNER) - red(both_with.lit, ON_FLOOR_AT_CORNER)).toBeCloseTo(lost, 2);
            // and so everywhere
            let worst = 0;
            for (let i = 0; i < both_with.lit.data.length; i += 4) {
                const change = both_without.lit.data[i] - both_with.lit.data[i];
                const ambient_change = ambient_without.lit.data[i] - ambient_with.lit.data[i];
                worst = Math.max(worst, Math.abs(change - ambient_change));
            }
            expect(worst, "change with sun and ambient minus change with ambient alone").toBeLessThanOrEqual(4e-3);
        });
    });

    it("does not carry occlusion across a silhouette: the far backdrop beside the corner's end is unchanged", async () => {
        await with_gpu_device(async (device) => {
            const without = await render(device, corner_scene(AMBIENT_ONLY), null);
            const with_ao = await render(device, corner_scene(AMBIENT_ONLY), gtao());
            // the corner's right end, and the backdrop just right of it (the floor and wall end at x = 1.5)
            const [x, y] = pixel_of([1.5, 0.02, -1.3]);
            expect(red(with_ao.lit, [1.45, 0, -1.25]) / red(without.lit, [1.45, 0, -1.25]), "the corner at its end").toBeLessThan(0.9);
            for (let dx = 1; dx <= 3; dx++) {
                for (let dy = -2; dy <= 2; dy++) {
                    const b = pixel_at(without.lit, x + dx, y + dy)[0];
                    const a = pixel_at(with_ao.lit, x + dx, y + dy)[0];
                    expect(a / b, `backdrop pixel (${x + dx}, ${y + dy})`).toBeGreaterThan(0.98);
                }
            }
        });
    });

    it("compute and raster draw the same ambient occlusion", async () => {
        await with_gpu_device(async (device) => {
            for (const half_resolution of [true, false]) {
                const images: TextureReadback[] = [];
                for (const path of ["raster", "compute"] as FullscreenPath[]) images.push((await render(device, corner_scene(AMBIENT_ONLY), gtao({ path, half_resolution }))).ao!);
                let max = 0;
                for (let i = 0; i < images[0].data.length; i++) max = Math.max(max, Math.abs(images[0].data[i] - images[1].data[i]));
                expect(max, `8-bit units, half resolution ${String(half_resolution)}`).toBeLessThanOrEqual(2);
            }
        });
    });

    it("writes pictures of boxes on a floor with and without ambient occlusion (contact shadows, no noise or halos)", async () => {
        await with_gpu_device(async (device) => {
            const size = 256;
            const lighting = { sun: 1.2, ambient: 0.9 };
            const without = await render(device, corner_scene(lighting, true), null, size);
            const with_ao = await render(device, corner_scene(lighting, true), gtao(), size);
            write_readback_png(without.canvas, "gtao_boxes_without");
            write_readback_png(with_ao.canvas, "gtao_boxes_with");
            write_readback_png(with_ao.ao!, "gtao_boxes_ao");
            expect(max_difference(without.lit, with_ao.lit)).toBeGreaterThan(0.05);
        });
    });
});

describe("AmbientOcclusion, the lighting's hook", () => {
    it("without one, the lighting's shader text has no ambient occlusion binding and is today's", () => {
        for (const shadows of [false, true]) {
            for (const environment of [false, true]) {
                const today = deferred_wgsl(shadows, environment);
                expect(today).toBe(deferred_wgsl(shadows, environment, false));
                expect(today).not.toMatch(/ambient_occlusion|@binding\(1[12]\)/);
                expect(deferred_compute_wgsl(shadows, environment)).not.toMatch(/ambient_occlusion/);
                expect(deferred_wgsl(shadows, environment, true)).toMatch(/@binding\(11\) var ambient_occlusion: texture_2d<f32>/);
                expect(deferred_compute_wgsl(shadows, environment, true)).toMatch(/@binding\(11\) var ambient_occlusion: texture_2d<f32>/);
            }
        }
    });

    it("any AfterGBuffer extension can publish one: a constant quarter-size 0.25 scales the ambient light by 0.25 and leaves the sun as it was", async () => {
        await with_gpu_device(async (device) => {
            const ambient_without = await render(device, corner_scene(AMBIENT_ONLY), null);
            const ambient_with = await render(device, corner_scene(AMBIENT_ONLY), new ConstantOcclusion(0.25));
            for (const p of [OPEN_FLOOR, OPEN_WALL, ON_FLOOR_AT_CORNER]) expect(red(ambient_with.lit, p)).toBeCloseTo(red(ambient_without.lit, p) * (64 / 255), 2);
            const sun_without = await render(device, corner_scene(SUN_ONLY), null);
            const sun_with = await render(device, corner_scene(SUN_ONLY), new ConstantOcclusion(0.25));
            expect(max_difference(sun_without.lit, sun_with.lit)).toBeLessThanOrEqual(1e-3);
            // a record created and left empty changes nothing
            const empty = new ConstantOcclusion(0.25);
            empty.publish = false;
            const unpublished = await render(device, corner_scene(AMBIENT_ONLY), empty);
            expect(max_difference(unpublished.lit, ambient_without.lit)).toBe(0);
        });
    });

    it("is publishable at AfterGBuffer only: publishing it later is refused, naming the record and the phase", async () => {
        await with_gpu_device(async (device) => {
            class Late extends RenderExtension {
                name = "late occlusion";
                phase = FramePhase.AfterLighting;
                record(frame: FrameContext): void {
                    frame.create(AmbientOcclusion).texture = frame.get(SceneColor).color;
                }
            }
            const errors: Error[] = [];
            const renderer = new Renderer({ device, target: new TextureRenderTarget(8, 8), on_error: (e) => errors.push(e) });
            renderer.add_extension(new Late());
            renderer.render_frame();
            expect(errors.map((e) => `${e.message}: ${(e.cause as Error | undefined)?.message}`).join("\n")).toMatch(/AmbientOcclusion/);
            renderer.destroy();
        });
    });

    it("GTAOExtension refuses bad options, naming them", () => {
        expect(() => new GTAOExtension({ radius: 0 })).toThrow(/GTAOExtension: radius must be a finite number above 0, got 0/);
        expect(() => new GTAOExtension({ slices: 9 })).toThrow(/GTAOExtension: slices must be an integer in \[1, 8\], got 9/);
        expect(() => new GTAOExtension({ steps: 1.5 })).toThrow(/steps must be an integer/);
        expect(() => new GTAOExtension({ path: "fast" as FullscreenPath })).toThrow(/GTAOExtension: fullscreen path/);
    });
});
