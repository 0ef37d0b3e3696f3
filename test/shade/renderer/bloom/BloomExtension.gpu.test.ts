// BloomExtension on Dawn: HDR pictures written straight into the scene colour at AfterTransparency (TAA off), the
// scene colour read before and after the bloom at BeforePresent. The bloom spreads a bright square's energy to
// its neighbours, less with distance; keeps the picture's total within 5%; matches a CPU reference of the
// chain; gives its input back untouched at intensity 0; follows a resize; runs the same on its compute and raster
// paths; keeps a pixel that is not finite from spreading; and makes an emissive material glow. A PNG of emissive shapes with and without it is written to
// test/output/bloom_{off,on}.png.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ExtractExtension } from "../../../../shade/renderer/extract/ExtractExtension.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import type { FullscreenPath } from "../../../../shade/renderer/fullscreen/FullscreenPath.js";
import { BloomExtension, type BloomOptions } from "../../../../shade/renderer/bloom/BloomExtension.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { half_to_float, read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";
import { bloom_reference, channel, type Channel } from "./bloom_reference.js";

/** An HDR picture, 4 floats a texel, rows top to bottom. */
interface Picture {
    readonly width: number;
    readonly height: number;
    readonly rgba: Float32Array;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** number -> IEEE 754 binary16 (round half up; enough for test pictures). */
function float_to_half(value: number): number {
    f32[0] = value;
    const x = u32[0];
    const sign = (x >>> 16) & 0x8000;
    const e = ((x >>> 23) & 0xff) - 112;
    const m = x & 0x7fffff;
    if (e <= 0) {
        if (e < -10) return sign;
        const shift = 14 - e;
        const full = m | 0x800000;
        return sign | ((full >> shift) + ((full >> (shift - 1)) & 1));
    }
    if (e >= 31) return sign | 0x7c00;
    return (sign | (e << 10) | (m >> 13)) + ((m >> 12) & 1);
}

/** A picture from `f(x, y) -> [r, g, b]`, its values rounded to half floats as the scene colour holds them. */
function picture(width: number, height: number, f: (x: number, y: number) => readonly number[]): Picture {
    const rgba = new Float32Array(width * height * 4);
    for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
            const c = f(x, y);
            for (let i = 0; i < 3; i++) rgba[(y * width + x) * 4 + i] = half_to_float(float_to_half(c[i]));
            rgba[(y * width + x) * 4 + 3] = 1;
        }
    }
    return { width, height, rgba };
}

/** A bright square of side `side` with its top-left at (x0, y0), black elsewhere. */
function square(width: number, height: number, x0: number, y0: number, side: number, color: readonly number[] = [10, 5, 2]): Picture {
    return picture(width, height, (x, y) => (x >= x0 && x < x0 + side && y >= y0 && y < y0 + side ? color : [0, 0, 0]));
}

/** Writes a picture into the scene colour at AfterTransparency (through a texture it uploads). */
class HdrSource extends RenderExtension {
    name = "hdr source";
    phase = FramePhase.AfterTransparency;
    texture: GPUTexture | null = null;
    readonly #effect = new FullscreenEffect({
        label: "hdr source",
        inputs: 1,
        format: "rgba16float",
        path: "raster",
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f { return load_input_0(vec2i(frag_coord)); }`,
    });

    upload(device: GPUDevice, p: Picture): void {
        this.texture?.destroy();
        this.texture = device.createTexture({ label: "hdr source", size: [p.width, p.height], format: "rgba16float", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
        const halves = new Uint16Array(p.rgba.length);
        for (let i = 0; i < halves.length; i++) halves[i] = float_to_half(p.rgba[i]);
        device.queue.writeTexture({ texture: this.texture }, halves, { bytesPerRow: p.width * 8 }, [p.width, p.height]);
    }

    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        const input = frame.graph.import_texture("hdr source image", this.texture!);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, input, undefined, undefined, undefined, "clear");
    }

    override destroy(): void {
        this.texture?.destroy();
    }
}

/** A renderer that shows pictures through a bloom, with the scene colour captured before and after it. */
class BloomRig {
    readonly target: TextureRenderTarget;
    readonly renderer: Renderer;
    readonly source = new HdrSource();
    readonly bloom: BloomExtension;
    readonly before: ExtractExtension;
    readonly after: ExtractExtension;

    constructor(
        readonly device: GPUDevice,
        width: number,
        height: number,
        options: BloomOptions = {},
        path: FullscreenPath = "raster",
    ) {
        this.target = new TextureRenderTarget(width, height);
        this.renderer = new Renderer({ device, target: this.target, upscale: "none", resolution_scale: 1, fullscreen_paths: path });
        this.renderer.add_extension(this.source);
        this.bloom = this.renderer.add_extension(new BloomExtension(options));
        this.before = new ExtractExtension("before bloom", FramePhase.BeforePresent, (f) => f.get(SceneColor).color);
        this.before.before = [BloomExtension];
        this.after = new ExtractExtension("after bloom", FramePhase.BeforePresent, (f) => f.get(SceneColor).color);
        this.after.after = [BloomExtension];
        this.renderer.add_extension(this.before);
        this.renderer.add_extension(this.after);
    }

    /** Renders `p` (the target's size) and reads the scene colour before and after the bloom. */
    async render(p: Picture): Promise<{ before: TextureReadback; after: TextureReadback }> {
        if (this.target.width !== p.width || this.target.height !== p.height) this.target.resize(p.width, p.height);
        this.source.upload(this.device, p);
        this.renderer.render_frame();
        return { before: await read_texture(this.device, this.before.texture!), after: await read_texture(this.device, this.after.texture!) };
    }

    destroy(): void {
        this.before.destroy();
        this.after.destroy();
        this.bloom.destroy();
        this.source.destroy();
        this.renderer.destroy();
    }
}

async function bloomed(device: GPUDevice, p: Picture, options: BloomOptions = {}, path: FullscreenPath = "raster"): Promise<{ before: TextureReadback; after: TextureReadback }> {
    const rig = new BloomRig(device, p.width, p.height, options, path);
    const frame = await rig.render(p);
    rig.destroy();
    return frame;
}

/** Channel `c` of a read-back. */
function channel_of(r: TextureReadback, c: number): Channel {
    const data = r.data as Float32Array;
    return channel(r.width, r.height, (x, y) => data[(y * r.width + x) * 4 + c]);
}

function rgb_sum(r: TextureReadback): number {
    const data = r.data as Float32Array;
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum += data[i] + data[i + 1] + data[i + 2];
    return sum;
}

function red(r: TextureReadback, x: number, y: number): number {
    return (r.data as Float32Array)[(y * r.width + x) * 4];
}

function max_abs_difference(a: TextureReadback, b: TextureReadback): number {
    const x = a.data as Float32Array;
    const y = b.data as Float32Array;
    let max = 0;
    for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs(x[i] - y[i]));
    return max;
}

/** The largest difference in half-float steps of the larger value (2^-10 of its power of two), floored at 2^-14. */
function max_relative_difference(a: TextureReadback, b: TextureReadback): number {
    const x = a.data as Float32Array;
    const y = b.data as Float32Array;
    let max = 0;
    for (let i = 0; i < x.length; i++) {
        const scale = Math.max(Math.abs(x[i]), Math.abs(y[i]), 2 ** -14);
        max = Math.max(max, Math.abs(x[i] - y[i]) / (2 ** Math.floor(Math.log2(scale)) * 2 ** -10));
    }
    return max;
}

const SIZE = 64;

describe("BloomExtension on Dawn", () => {
    it("spreads a bright square's energy to pixels that had none, less with distance, and takes it from the square", async () => {
        await with_gpu_device(async (device) => {
            // a square of 8 at (28..35, 28..35): its middle row is y = 31, its right edge x = 35
            const { before, after } = await bloomed(device, square(SIZE, SIZE, 28, 28, 8));
            const distances = [1, 2, 4, 8, 16, 24];
            const glow = distances.map((d) => red(after, 35 + d, 31));
            for (const d of distances) expect(red(before, 35 + d, 31), `no light at ${d} px without the bloom`).toBe(0);
            for (let i = 0; i < distances.length; i++) expect(glow[i], `light at ${distances[i]} px with the bloom`).toBeGreaterThan(0);
            for (let i = 1; i < distances.length; i++) expect(glow[i], `less at ${distances[i]} px than at ${distances[i - 1]} px`).toBeLessThan(glow[i - 1]);
            // the same below and to the left (the chain is not lopsided)
            expect(red(after, 31, 35 + 4)).toBeCloseTo(glow[2], 3);
            expect(red(after, 28 - 4, 31)).toBeCloseTo(glow[2], 3);
            // the square gave some of its light away
            expect(red(after, 31, 31)).toBeLessThan(red(before, 31, 31));
            expect(red(after, 31, 31)).toBeGreaterThan(0.9 * red(before, 31, 31));
        });
    });

    it("keeps the picture's total energy within 5%, at any intensity (a mix, not an add)", async () => {
        await with_gpu_device(async (device) => {
            const pictures = [
                ["centred square", square(SIZE, SIZE, 28, 28, 8)],
                ["square by a corner", square(SIZE, SIZE, 3, 50, 6, [20, 1, 4])],
            ] as const;
            for (const [name, p] of pictures) {
                for (const intensity of [0.04, 0.3, 1]) {
                    const { before, after } = await bloomed(device, p, { intensity });
                    const ratio = rgb_sum(after) / rgb_sum(before);
                    console.log(`[bloom] ${name}, intensity ${intensity}: total after / before ${ratio.toFixed(4)}`);
                    expect(Math.abs(ratio - 1), `${name}, intensity ${intensity}: total after / before ${ratio}`).toBeLessThan(0.05);
                }
            }
        });
    });

    it("matches a CPU reference of the chain (13-tap down, tent up adding each level, mix) on a picture that is not square", async () => {
        await with_gpu_device(async (device) => {
            const width = 40;
            const height = 24;
            const p = picture(width, height, (x, y) => {
                const bright = x >= 9 && x < 15 && y >= 5 && y < 9 ? 12 : 0;
                return [bright + x * 0.05, (y * 0.1) % 1.5, x === 30 && y === 17 ? 40 : 0];
            });
            for (const options of [{ levels: 4, radius: 1 }, { levels: 3, radius: 2.5 }]) {
                const { before, after } = await bloomed(device, p, { ...options, intensity: 1 });
                for (let c = 0; c < 3; c++) {
                    const expected = bloom_reference(channel_of(before, c), options.levels, options.radius, 1);
                    const actual = channel_of(after, c);
                    let peak = 0;
                    let error = 0;
                    for (let i = 0; i < expected.data.length; i++) {
                        peak = Math.max(peak, expected.data[i]);
                        error = Math.max(error, Math.abs(expected.data[i] - actual.data[i]));
                    }
                    console.log(`[bloom] reference, levels ${options.levels}, radius ${options.radius}, channel ${c}: peak ${peak.toFixed(3)}, largest error ${error.toExponential(2)}`);
                    // half-float levels and the filter's fixed-point weights: well under 1% of the peak
                    expect(error, `channel ${c}, levels ${options.levels}, radius ${options.radius}`).toBeLessThan(0.005 * peak);
                }
            }
        });
    });

    it("gives its input back exactly at intensity 0, and again after the intensity goes up and back down", async () => {
        await with_gpu_device(async (device) => {
            const p = square(SIZE, SIZE, 20, 30, 5, [100, 0.5, 3]);
            const rig = new BloomRig(device, SIZE, SIZE, { intensity: 0 });
            const off = await rig.render(p);
            expect(Array.from(off.after.data)).toEqual(Array.from(off.before.data));
            rig.bloom.intensity = 0.5;
            const on = await rig.render(p);
            expect(max_abs_difference(on.after, on.before)).toBeGreaterThan(1);
            rig.bloom.intensity = 0;
            const off_again = await rig.render(p);
            expect(Array.from(off_again.after.data)).toEqual(Array.from(off.before.data));
            rig.destroy();
        });
    });

    it("keeps a pixel that is not finite (an overflowing highlight) to itself: every other pixel stays finite", async () => {
        await with_gpu_device(async (device) => {
            const p = picture(SIZE, SIZE, (x, y) => (x === 40 && y === 20 ? [Infinity, 1, 1] : x === 10 && y === 50 ? [-5, 0, 0] : [0.5, 0.5, 0.5]));
            const { before, after } = await bloomed(device, p, { intensity: 0.3 });
            // Dawn on SwiftShader reads the half-float infinity back as NaN (WGSL lets an implementation assume
            // finite values): either way the pixel is not finite
            expect(Number.isFinite(red(before, 40, 20))).toBe(false);
            const data = after.data as Float32Array;
            let not_finite = 0;
            for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i]) && i !== (20 * SIZE + 40) * 4) not_finite++;
            expect(not_finite, "values other than the infinite pixel's own that are not finite").toBe(0);
        });
    });

    it("follows a resize: each size draws what a fresh renderer of that size draws, no texture of the old size left", async () => {
        await with_gpu_device(async (device) => {
            const sizes = [[64, 64], [40, 24], [97, 33], [3, 2], [64, 64]] as const;
            const rig = new BloomRig(device, 64, 64, { intensity: 0.5 });
            for (const [w, h] of sizes) {
                const p = square(w, h, w >> 2, h >> 2, Math.min(6, h - (h >> 2)));
                const resized = await rig.render(p);
                const fresh = await bloomed(device, p, { intensity: 0.5 });
                expect([resized.after.width, resized.after.height]).toEqual([w, h]);
                expect(Array.from(resized.after.data), `${w}x${h} after a resize`).toEqual(Array.from(fresh.after.data));
            }
            rig.destroy();
        });
    });

    it("draws the same on its compute path as on its raster path (odd size: the last workgroups hang over the edge)", async () => {
        await with_gpu_device(async (device) => {
            const p = picture(61, 37, (x, y) => {
                const disc = (x - 40) ** 2 + (y - 12) ** 2 < 25 ? 30 : 0;
                return [disc + ((x >> 2) % 2), (x * y) / 1000, y === 30 && x > 5 && x < 20 ? 50 : 0];
            });
            const raster = await bloomed(device, p, { intensity: 0.5, radius: 1.5 }, "raster");
            const compute = await bloomed(device, p, { intensity: 0.5, radius: 1.5 }, "compute");
            const steps = max_relative_difference(raster.after, compute.after);
            console.log(`[bloom] compute vs raster: largest difference ${steps} half-float steps`);
            expect(max_abs_difference(raster.before, raster.after)).toBeGreaterThan(1);
            expect(steps, "half-float steps between the paths").toBeLessThanOrEqual(2);
        });
    });
});

/** Emissive boxes and spheres in the dark, on a dim floor. */
function emissive_scene(): Scene {
    const scene = new Scene();
    scene.sun.intensity = 0.05;
    scene.ambient.set([0.01, 0.01, 0.012]);
    scene.sky.set([0, 0, 0]);
    const floor = scene.add(new Mesh(make_box_geometry(), new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1], roughness: 0.8 })));
    floor.scale.set([12, 0.1, 8]);
    floor.position.set([0, -0.05, 0]);
    const shapes = [
        { geometry: make_sphere_geometry(0.5, 24, 16), at: [-2.2, 0.6, 0], emissive: [12, 3, 0.6] },
        { geometry: make_box_geometry(), at: [0, 0.5, 0.3], emissive: [1, 6, 14] },
        { geometry: make_sphere_geometry(0.35, 24, 16), at: [2.1, 0.45, -0.2], emissive: [4, 12, 4] },
        { geometry: make_box_geometry(), at: [0.9, 0.15, 1.6], emissive: [0.2, 0.2, 0.2] },
    ];
    for (const s of shapes) {
        const mesh = scene.add(new Mesh(s.geometry, new StandardMaterial({ base_color: [0.05, 0.05, 0.05, 1], emissive: s.emissive })));
        mesh.position.set(s.at);
        if (s.geometry.vertex_count === 24) mesh.scale.set([0.7, 0.7, 0.7]);
    }
    return scene;
}

describe("BloomExtension with emissive materials (Dawn)", () => {
    it("an emissive material glows: light beyond its silhouette, the total kept; a PNG with and without", async () => {
        await with_gpu_device(async (device) => {
            // BLOOM_PNG_SIZE=640x400 for a closer look
            const [width, height] = (process.env.BLOOM_PNG_SIZE ?? "160x100").split("x").map(Number);
            const shots: { present: TextureReadback; scene: TextureReadback }[] = [];
            for (const on of [false, true]) {
                const target = new TextureRenderTarget(width, height);
                const renderer = new Renderer({ device, target, scene: emissive_scene(), feature_taa_enabled: false });
                renderer.view.camera.position.set([0, 2.2, 5.5]);
                renderer.view.camera.target.set([0, 0.4, 0]);
                const bloom = on ? renderer.add_extension(new BloomExtension({ intensity: 0.08 })) : null;
                const capture = new ExtractExtension("scene colour", FramePhase.BeforePresent, (f) => f.get(SceneColor).color);
                if (bloom !== null) capture.after = [BloomExtension];
                renderer.add_extension(capture);
                renderer.render_frame();
                const present = await read_texture(device, target.acquire());
                write_readback_png(present, on ? "bloom_on" : "bloom_off");
                shots.push({ present, scene: await read_texture(device, capture.texture!) });
                capture.destroy();
                bloom?.destroy();
                renderer.destroy();
            }
            const [off, on] = shots;
            // beside the middle box (blue-white), on the black sky above it: no light there without the bloom
            let sky_pixels = 0;
            let glowing = 0;
            const data_off = off.scene.data as Float32Array;
            const data_on = on.scene.data as Float32Array;
            for (let i = 0; i < data_off.length; i += 4) {
                if (data_off[i] + data_off[i + 1] + data_off[i + 2] !== 0) continue;
                sky_pixels++;
                if (data_on[i + 2] > 0) glowing++;
            }
            expect(sky_pixels, "black sky in the picture").toBeGreaterThan(1000);
            expect(glowing / sky_pixels, "share of the black sky the bloom lights").toBeGreaterThan(0.9);
            const ratio = rgb_sum(on.scene) / rgb_sum(off.scene);
            console.log(`[bloom] emissive scene: total after / before ${ratio.toFixed(4)}; ${glowing} of ${sky_pixels} black pixels lit`);
            expect(Math.abs(ratio - 1)).toBeLessThan(0.05);
        });
    });
});
