// The closed frame on Dawn: records at each phase, the upscale boundary, pixels through tonemap, overlays, elision.
import { describe, expect, it } from "vitest";
import type { FrameGraphHandle } from "../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { frame_phase_name } from "../../../shade/renderer/extension/frame_phase_name.js";
import { GBufferTextures } from "../../../shade/renderer/extension/GBufferTextures.js";
import { PresentTarget } from "../../../shade/renderer/extension/PresentTarget.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../shade/renderer/extension/ViewTextures.js";
import { FullscreenEffect } from "../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { Renderer } from "../../../shade/renderer/Renderer.js";
import { Scene } from "../../../shade/renderer/scene/Scene.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { TextureResourceDescriptor } from "../../../shade/device/graph/TextureResourceDescriptor.js";
import { VisibilityGrid } from "./extension/VisibilityGrid.js";
import { expect_pixel, read_texture, tonemapped, with_gpu_device, write_readback_png } from "../../harness/index.js";

const SIZE = 64;

const SKY = [0.05, 0.07, 0.1];

/** Draws a flat colour where `region` (WGSL bool of uv) holds, keeping the rest. */
function painter(label: string, format: GPUTextureFormat, rgb: number[], region: string): FullscreenEffect {
    return new FullscreenEffect({
        label,
        inputs: 0,
        format,
        fragment: `fn effect(uv: vec2f) -> vec4f {
            if (!(${region})) { discard; }
            return vec4f(${rgb.map((c) => c.toFixed(4)).join(", ")}, 1.0);
        }`,
    });
}

class ScenePainter extends RenderExtension {
    name = "scene painter";
    phase = FramePhase.AfterTransparency;
    readonly #effect = painter("scene painter", "rgba16float", [0.5, 0.1, 0.05], "uv.x < 0.5");
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
    }
}

class OverlayPainter extends RenderExtension {
    phase = FramePhase.Overlay;
    readonly #effect: FullscreenEffect;
    constructor(
        public name: string,
        rgb: number[],
        region: string,
    ) {
        super();
        this.#effect = painter(name, "rgba8unorm", rgb, region);
    }
    record(frame: FrameContext): void {
        const present = frame.get(PresentTarget);
        present.target = this.#effect.graph_draw(frame.graph, present.target, undefined, undefined, undefined, undefined, "load");
    }
}

async function render_once(device: GPUDevice, options: { taa: boolean; scale?: number }, extensions: RenderExtension[]) {
    const target = new TextureRenderTarget(SIZE, SIZE);
    const renderer = new Renderer({ device, target, feature_taa_enabled: options.taa, resolution_scale: options.scale ?? 0.5 });
    for (const e of extensions) renderer.add_extension(e);
    renderer.render_frame();
    const image = await read_texture(device, target.acquire());
    return { renderer, image };
}

describe("Renderer on Dawn", () => {
    it("every record carries a real texture of the right format and size, across the upscale boundary", async () => {
        await with_gpu_device(async (device) => {
            const seen: Record<string, string> = {};
            const describe_handle = (frame: FrameContext, h: FrameGraphHandle) => {
                const d = frame.describe(h);
                return `${d.width}x${d.height} ${d.format}`;
            };
            class Probe extends RenderExtension {
                constructor(
                    public name: string,
                    public phase: FramePhase,
                ) {
                    super();
                }
                record(frame: FrameContext): void {
                    const at = frame_phase_name(frame.phase);
                    seen[`${at} resolution`] = `${frame.resolution[0]}x${frame.resolution[1]}`;
                    if (frame.has(GBufferTextures)) {
                        const g = frame.get(GBufferTextures);
                        seen[`${at} albedo`] = describe_handle(frame, g.albedo);
                        seen[`${at} normal`] = describe_handle(frame, g.normal);
                        seen[`${at} material`] = describe_handle(frame, g.material);
                        seen[`${at} object_id`] = describe_handle(frame, g.object_id);
                        seen[`${at} depth`] = describe_handle(frame, frame.get(ViewTextures).depth);
                    }
                    if (frame.has(SceneColor)) seen[`${at} scene`] = describe_handle(frame, frame.get(SceneColor).color);
                    if (frame.has(PresentTarget)) seen[`${at} present`] = describe_handle(frame, frame.get(PresentTarget).target);
                }
            }
            const probes = () =>
                [FramePhase.FrameStart, FramePhase.AfterGBuffer, FramePhase.AfterLighting, FramePhase.AfterTransparency, FramePhase.BeforePresent, FramePhase.Overlay].map(
                    (p) => new Probe(`probe ${p}`, p),
                );
            const taa = await render_once(device, { taa: true, scale: 0.5 }, probes());
            expect(seen).toEqual({
                "FrameStart resolution": "32x32",
                "AfterGBuffer resolution": "32x32",
                "AfterGBuffer albedo": "32x32 rgba8unorm",
                "AfterGBuffer normal": "32x32 rgba16float",
                "AfterGBuffer material": "32x32 rgba8uint",
                "AfterGBuffer object_id": "32x32 r32uint",
                "AfterGBuffer depth": "32x32 depth32float",
                "AfterLighting resolution": "32x32",
                "AfterLighting albedo": "32x32 rgba8unorm",
                "AfterLighting normal": "32x32 rgba16float",
                "AfterLighting material": "32x32 rgba8uint",
                "AfterLighting object_id": "32x32 r32uint",
                "AfterLighting depth": "32x32 depth32float",
                "AfterLighting scene": "32x32 rgba16float",
                "AfterTransparency resolution": "32x32",
                "AfterTransparency albedo": "32x32 rgba8unorm",
                "AfterTransparency normal": "32x32 rgba16float",
                "AfterTransparency material": "32x32 rgba8uint",
                "AfterTransparency object_id": "32x32 r32uint",
                "AfterTransparency depth": "32x32 depth32float",
                "AfterTransparency scene": "32x32 rgba16float",
                "BeforePresent resolution": "64x64",
                // the G-buffer is on the far side of the upscale here: half the colour beside it
                "BeforePresent albedo": "32x32 rgba8unorm",
                "BeforePresent normal": "32x32 rgba16float",
                "BeforePresent material": "32x32 rgba8uint",
                "BeforePresent object_id": "32x32 r32uint",
                "BeforePresent depth": "32x32 depth32float",
                "BeforePresent scene": "64x64 rgba16float",
                "Overlay resolution": "64x64",
                "Overlay present": "64x64 rgba8unorm",
            });
            taa.renderer.destroy();

            for (const k of Object.keys(seen)) delete seen[k];
            const plain = await render_once(device, { taa: false, scale: 0.5 }, probes());
            expect(seen["AfterTransparency scene"]).toBe("64x64 rgba16float");
            expect(seen["BeforePresent scene"]).toBe("64x64 rgba16float");
            expect(seen["BeforePresent albedo"]).toBe("64x64 rgba8unorm");
            plain.renderer.destroy();
        });
    });

    it("an AfterTransparency extension's write reaches the canvas through the upscale", async () => {
        await with_gpu_device(async (device) => {
            const { renderer, image } = await render_once(device, { taa: true, scale: 0.5 }, [new ScenePainter()]);
            const name = "renderer_after_transparency";
            expect_pixel(image, 8, 32, [0.5, 0.1, 0.05].map(tonemapped), 3, name);
            expect_pixel(image, 56, 32, SKY.map(tonemapped), 3, name);
            renderer.destroy();
        });
    });

    it("the scene's sky colour fills what no mesh covers, and a change shows the next frame", async () => {
        await with_gpu_device(async (device) => {
            const target = new TextureRenderTarget(SIZE, SIZE);
            const scene = new Scene();
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, resolution_scale: 1 });
            const name = "renderer_sky";
            scene.sky.set([0.3, 0.1, 0.6]);
            renderer.render_frame();
            expect_pixel(await read_texture(device, target.acquire()), 32, 32, [0.3, 0.1, 0.6].map(tonemapped), 3, name);
            scene.sky.set([0.02, 0.4, 0.1]);
            renderer.render_frame();
            expect_pixel(await read_texture(device, target.acquire()), 32, 32, [0.02, 0.4, 0.1].map(tonemapped), 3, name);
            renderer.destroy();
        });
    });

    it("an Overlay extension draws over the frame and a second Overlay extension composes over both", async () => {
        await with_gpu_device(async (device) => {
            const red = new OverlayPainter("overlay a (top)", [1, 0, 0], "uv.y < 0.5");
            const blue = new OverlayPainter("overlay b (left)", [0, 0, 1], "uv.x < 0.5");
            const { renderer, image } = await render_once(device, { taa: true }, [blue, red]);
            const name = "renderer_overlays";
            write_readback_png(image, name);
            expect_pixel(image, 8, 8, [0, 0, 255], 1, name); // b over a
            expect_pixel(image, 56, 8, [255, 0, 0], 1, name); // a alone
            expect_pixel(image, 8, 56, [0, 0, 255], 1, name); // b alone
            expect_pixel(image, 56, 56, SKY.map(tonemapped), 3, name); // the frame itself
            renderer.destroy();
        });
    });

    it("an extension whose output nothing consumes records no GPU work, and the dump shows its grey cluster", async () => {
        await with_gpu_device(async (device) => {
            let executed = 0;
            class Orphan extends RenderExtension {
                name = "orphan";
                phase = FramePhase.AfterTransparency;
                record(frame: FrameContext): void {
                    const d = TextureResourceDescriptor.from({ resolution: frame.resolution, format: "rgba8unorm", usage: 0x14 });
                    const pass = frame.graph.add("orphan / draw", null, () => executed++);
                    pass.write(pass.create("orphan scratch", d));
                }
            }
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target });
            renderer.add_extension(new Orphan());
            renderer.capture_graph_dump = true;
            renderer.render_frame();
            renderer.render_frame();
            expect(executed).toBe(0);
            const dot = renderer.last_frame_dot;
            const cluster = dot.slice(dot.indexOf('label="orphan"') - 60);
            expect(cluster).toMatch(/subgraph cluster_\d+ \{\s+label="orphan";\s+style="filled,dashed" fillcolor="#e4e4e4"/);
            expect(dot).toContain('label="orphan / draw"');
            renderer.destroy();
        });
    });

    it("a throwing extension drops that frame cleanly and the next frame renders", async () => {
        await with_gpu_device(async (device) => {
            let fail = true;
            class Flaky extends RenderExtension {
                name = "flaky";
                phase = FramePhase.AfterLighting;
                record(): void {
                    if (fail) throw new TypeError("not today");
                }
            }
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target });
            renderer.add_extension(new Flaky());
            renderer.add_extension(new ScenePainter());
            expect(() => renderer.render_frame()).toThrow("Render extension 'flaky' failed to record at AfterLighting");
            fail = false;
            renderer.render_frame();
            const image = await read_texture(device, target.acquire());
            expect_pixel(image, 8, 32, [0.5, 0.1, 0.05].map(tonemapped), 3, "renderer_after_failure");
            renderer.destroy();
        });
    });

    it("a custom record created at FrameStart carries a texture to an extension at AfterTransparency", async () => {
        await with_gpu_device(async (device) => {
            const fill = new FullscreenEffect({
                label: "fog / visibility",
                inputs: 0,
                format: "rgba16float",
                fragment: `fn effect(uv: vec2f) -> vec4f { return vec4f(0.25, 0.5, 0.75, 1.0); }`,
            });
            const apply = new FullscreenEffect({
                label: "fog / apply",
                inputs: 1,
                format: "rgba16float",
                fragment: `fn effect(uv: vec2f) -> vec4f { return sample_input_0(uv); }`,
            });
            class Publisher extends RenderExtension {
                name = "fog publisher";
                phase = FramePhase.FrameStart;
                record(frame: FrameContext): void {
                    const d = TextureResourceDescriptor.from({ resolution: [8, 8], format: "rgba16float", usage: 0x14 });
                    frame.create(VisibilityGrid).grid = fill.graph_draw(frame.graph, frame.graph.create("visibility grid", d));
                }
            }
            let saw_grid = false;
            class Reader extends RenderExtension {
                name = "fog reader";
                phase = FramePhase.AfterTransparency;
                record(frame: FrameContext): void {
                    if (!frame.has(VisibilityGrid)) return;
                    saw_grid = true;
                    const grid = frame.get(VisibilityGrid).grid;
                    const scene = frame.get(SceneColor);
                    scene.color = apply.graph_draw(frame.graph, scene.color, grid, undefined, undefined, undefined, "load");
                }
            }
            const { renderer, image } = await render_once(device, { taa: false }, [new Reader(), new Publisher()]);
            expect(saw_grid).toBe(true);
            expect_pixel(image, 32, 32, [0.25, 0.5, 0.75].map(tonemapped), 3, "renderer_custom_record");
            renderer.destroy();
        });
    });
});
