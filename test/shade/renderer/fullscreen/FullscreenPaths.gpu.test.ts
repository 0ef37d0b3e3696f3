// Full-screen steps on their compute paths against their raster paths on Dawn: a FullscreenEffect that samples
// and loads its input, and the whole frame with TAA (resolve, sharpen, tonemap) under a moving camera; the rule
// "auto" follows; and the misuses the compute path refuses.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { set_fullscreen_path, use_compute, type FullscreenPath } from "../../../../shade/renderer/fullscreen/FullscreenPath.js";
import { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { PointLight } from "../../../../shade/renderer/scene/PointLight.js";
import { ShadowExtension } from "../../../../shade/renderer/shadows/ShadowExtension.js";
import { GTAOExtension } from "../../../../shade/renderer/ao/GTAOExtension.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { SCENE_COLOR_FORMAT } from "../../../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";
import { fake_gpu_device } from "../fake_gpu_device.js";

// odd sizes: the compute path's last workgroups hang over the edge
const WIDTH = 61;
const HEIGHT = 37;
// RENDER_ATTACHMENT | STORAGE_BINDING | TEXTURE_BINDING | COPY_SRC (the WebGPU globals are installed once a device is asked for)
const STORAGE_USAGE = 0x10 | 0x08 | 0x04 | 0x01;

/** A picture with detail at every scale: stripes, a diagonal ramp and a disc, painted into the scene colour. */
class Pattern extends RenderExtension {
    name = "pattern";
    phase = FramePhase.AfterTransparency;
    readonly #effect = new FullscreenEffect({
        label: "pattern",
        inputs: 0,
        format: SCENE_COLOR_FORMAT,
        path: "raster",
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let stripes = f32((u32(frag_coord.x) / 3u) % 2u);
            let disc = select(0.0, 2.0, length(uv - vec2f(0.6, 0.4)) < 0.25);
            return vec4f(stripes, uv.x * uv.y * 1.5, disc, 1.0);
        }`,
    });
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "clear");
    }
}

/** Reads the scene colour with bilinear samples between texels and offset loads, into a storage-capable texture. */
class Filter extends RenderExtension {
    name = "filter";
    phase = FramePhase.AfterTransparency;
    after = [Pattern];
    readonly #effect: FullscreenEffect;
    constructor(path: FullscreenPath) {
        super();
        this.#effect = new FullscreenEffect({
            label: `filter (${path})`,
            inputs: 1,
            format: SCENE_COLOR_FORMAT,
            path,
            fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
                let blurred = sample_input_0(uv + 0.37 * texel_0()) * 0.5 + sample_input_0(uv - vec2f(1.5, 0.5) * texel_0()) * 0.5;
                let shifted = load_input_0(vec2i(frag_coord) + vec2i(2, -1));
                return vec4f(blurred.r, shifted.g, blurred.b * 0.5 + shifted.b * 0.5, 1.0);
            }`,
        });
    }
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        const d = frame.describe(scene.color);
        const output = frame.graph.create("filtered", TextureResourceDescriptor.of(d.width, d.height, d.format, STORAGE_USAGE));
        scene.color = this.#effect.graph_draw(frame.graph, output, scene.color);
    }
}

function max_difference(a: TextureReadback, b: TextureReadback): number {
    let max = 0;
    const x = a.data as Uint8Array;
    const y = b.data as Uint8Array;
    for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs(x[i] - y[i]));
    return max;
}

/** A lit scene: a floor and boxes in two materials, so the TAA has edges to resolve; two point lights. */
function box_scene(): Scene {
    const scene = new Scene();
    for (const [x, color] of [[-2, [4, 1, 0.2]], [2, [0.3, 1, 5]]] as const) {
        const light = scene.add_point_light(new PointLight());
        light.position.set([x, 1.2, 1]);
        light.color.set(color);
        light.range = 5;
    }
    const box = make_box_geometry();
    const red = new StandardMaterial({ base_color: [0.9, 0.2, 0.1, 1] });
    const grey = new StandardMaterial({ base_color: [0.6, 0.6, 0.6, 1] });
    const floor = new Mesh(box, grey);
    floor.scale.set([8, 0.1, 8]);
    scene.add(floor);
    for (let i = 0; i < 3; i++) {
        const m = new Mesh(box, red);
        m.position.set([i * 1.5 - 1.5, 0.55, i * 0.5 - 0.5]);
        m.rotation.set([0, Math.sin(i * 0.4), 0, Math.cos(i * 0.4)]);
        scene.add(m);
    }
    return scene;
}

/** Renders `frames` frames of the box scene under a panning camera; the canvas after each. */
async function frames_of(device: GPUDevice, paths: FullscreenPath, frames: number, shadows = false, ambient_occlusion = false, ambient = false): Promise<TextureReadback[]> {
    const target = new TextureRenderTarget(WIDTH, HEIGHT);
    const scene = box_scene();
    // a bright ambient, for the ambient occlusion to show
    if (ambient) scene.ambient.set([1.5, 1.5, 1.5]);
    const renderer = new Renderer({ device, target, scene, resolution_scale: 0.75, fullscreen_paths: paths });
    if (shadows) renderer.add_extension(new ShadowExtension({ cascades: 2, distance: 20 }));
    if (ambient_occlusion) renderer.add_extension(new GTAOExtension({ radius: 0.8 }));
    const camera = renderer.view.camera;
    const images: TextureReadback[] = [];
    for (let f = 0; f < frames; f++) {
        camera.position.set([Math.sin(f * 0.05) * 6, 4, 6]);
        camera.target.set([0, 0.5, 0]);
        renderer.render_frame();
        images.push(await read_texture(device, target.acquire()));
    }
    renderer.destroy();
    return images;
}

describe("full-screen paths: compute against raster (Dawn)", () => {
    it("a FullscreenEffect's compute path draws what its raster path draws (samples between texels, offset loads, edges)", async () => {
        await with_gpu_device(async (device) => {
            const images: TextureReadback[] = [];
            for (const path of ["raster", "compute"] as const) {
                const target = new TextureRenderTarget(WIDTH, HEIGHT);
                const renderer = new Renderer({ device, target, upscale: "none", resolution_scale: 1 });
                renderer.add_extension(new Pattern());
                renderer.add_extension(new Filter(path));
                renderer.render_frame();
                images.push(await read_texture(device, target.acquire()));
                write_readback_png(images[images.length - 1], `fullscreen_path_${path}`);
                renderer.destroy();
            }
            // the picture is not flat (the test would pass on a blank frame otherwise)
            const data = images[0].data as Uint8Array;
            const distinct = new Set<number>();
            for (let i = 0; i < data.length; i += 4) distinct.add(data[i] * 65536 + data[i + 1] * 256 + data[i + 2]);
            expect(distinct.size).toBeGreaterThan(50);
            expect(max_difference(images[0], images[1]), "8-bit units, compute vs raster").toBeLessThanOrEqual(1);
        });
    });

    it("the whole frame with TAA, its sharpen and the tonemap on compute matches raster frame by frame under a moving camera", async () => {
        await with_gpu_device(async (device) => {
            const raster = await frames_of(device, "raster", 6);
            const compute = await frames_of(device, "compute", 6);
            write_readback_png(compute[5], "fullscreen_paths_taa_compute");
            for (let f = 0; f < raster.length; f++) {
                expect(max_difference(raster[f], compute[f]), `frame ${f}, 8-bit units`).toBeLessThanOrEqual(2);
            }
            // the history matters: the last frame is not the first frame's picture
            expect(max_difference(compute[0], compute[5])).toBeGreaterThan(10);
        });
    });

    it("the deferred lighting's compute path (sun, ambient, tiled point lights, the sun's shadow map) matches raster", async () => {
        await with_gpu_device(async (device) => {
            const raster = await frames_of(device, "raster", 2, true);
            const compute = await frames_of(device, "compute", 2, true);
            write_readback_png(compute[1], "fullscreen_paths_lighting_compute");
            write_readback_png(raster[1], "fullscreen_paths_lighting_raster");
            for (let f = 0; f < raster.length; f++) expect(max_difference(raster[f], compute[f]), `frame ${f}, 8-bit units`).toBeLessThanOrEqual(2);
        });
    });

    it("the deferred lighting with GTAO's ambient occlusion (its two passes and the lighting's occlusion binding) on compute matches raster", async () => {
        await with_gpu_device(async (device) => {
            const raster = await frames_of(device, "raster", 2, true, true, true);
            const compute = await frames_of(device, "compute", 2, true, true, true);
            const without = await frames_of(device, "raster", 2, true, false, true);
            write_readback_png(compute[1], "fullscreen_paths_lighting_ao_compute");
            for (let f = 0; f < raster.length; f++) expect(max_difference(raster[f], compute[f]), `frame ${f}, 8-bit units`).toBeLessThanOrEqual(2);
            // the occlusion shows
            expect(max_difference(raster[1], without[1])).toBeGreaterThan(4);
        });
    });

    it("'auto' is raster on SwiftShader and compute on a GPU; the renderer's setting and an effect's own path win over it", async () => {
        await with_gpu_device(async (device) => {
            expect(use_compute(device, "auto")).toBe(false);
            expect(use_compute(device, "compute")).toBe(true);
        });
        // FAKE device (device-independent): the rule reads the adapter's information only
        const gpu = fake_gpu_device().device;
        Object.defineProperty(gpu, "adapterInfo", { value: { vendor: "nvidia", architecture: "", device: "nvidia-h200", description: "NVIDIA", isFallbackAdapter: false } });
        expect(use_compute(gpu, "auto")).toBe(true);
        expect(use_compute(gpu, "raster")).toBe(false);
        set_fullscreen_path(gpu, "raster");
        expect(use_compute(gpu, "auto")).toBe(false);
        expect(use_compute(gpu, "compute")).toBe(true);
        const cpu = fake_gpu_device().device;
        Object.defineProperty(cpu, "adapterInfo", { value: { vendor: "google", architecture: "swiftshader", device: "", description: "SwiftShader", isFallbackAdapter: false } });
        expect(use_compute(cpu, "auto")).toBe(false);
    });

    it("refuses what a compute path cannot do, naming the effect", async () => {
        const base = { label: "glow", inputs: 0, format: SCENE_COLOR_FORMAT } as const;
        expect(() => new FullscreenEffect({ ...base, path: "compute", fragment: "fn effect(uv: vec2f) -> vec4f { return vec4f(1.0); }", blend: { color: { srcFactor: "one", dstFactor: "one" }, alpha: {} } })).toThrow(
            /FullscreenEffect 'glow': path 'compute' cannot blend/,
        );
        expect(() => new FullscreenEffect({ ...base, path: "compute", fragment: "fn effect(uv: vec2f) -> vec4f { if (uv.x < 0.5) { discard; } return vec4f(1.0); }" })).toThrow(
            /FullscreenEffect 'glow': path 'compute' cannot run 'discard'/,
        );
        expect(() => new FullscreenEffect({ ...base, path: "sideways" as FullscreenPath, fragment: "" })).toThrow(/'auto', 'raster' or 'compute', got 'sideways'/);
        await with_gpu_device(async (device) => {
            expect(() => new Renderer({ device, target: new TextureRenderTarget(8, 8), fullscreen_paths: "fast" as FullscreenPath })).toThrow(/Renderer fullscreen_paths/);
            // an output without STORAGE_BINDING usage, at record time
            const effect = new FullscreenEffect({ ...base, path: "compute", fragment: "fn effect(uv: vec2f) -> vec4f { return vec4f(uv, 0.0, 1.0); }" });
            class Writer extends RenderExtension {
                name = "writer";
                phase = FramePhase.AfterTransparency;
                record(frame: FrameContext): void {
                    const scene = frame.get(SceneColor);
                    const d = frame.describe(scene.color);
                    const plain = TextureResourceDescriptor.of(d.width, d.height, d.format, 0x10 | 0x04 /* RENDER_ATTACHMENT | TEXTURE_BINDING */);
                    scene.color = effect.graph_draw(frame.graph, frame.graph.create("plain", plain), undefined);
                }
            }
            const errors: Error[] = [];
            const renderer = new Renderer({ device, target: new TextureRenderTarget(8, 8), on_error: (e) => errors.push(e) });
            renderer.add_extension(new Writer());
            renderer.render_frame();
            expect(errors.map((e) => `${e.message}: ${(e.cause as Error | undefined)?.message}`).join("\n")).toMatch(/FullscreenEffect 'glow': path 'compute' writes its output as a storage texture, but the output has no STORAGE_BINDING usage/);
            renderer.destroy();
        });
    });
});
