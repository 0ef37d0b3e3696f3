// The HalfResolutionColor frame product on Dawn: a known pattern painted into the scene colour averages 2x2
// into a ceil-half target (odd sizes included); made only at the phase that declares it, absent otherwise.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { HalfResolutionColor } from "../../../../shade/renderer/products/HalfResolutionColor.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { SCENE_COLOR_FORMAT } from "../../../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png } from "../../../harness/index.js";
import { TextureProbe } from "./probe.js";

// odd on both axes: the last column and row of the half image have one source column / row
const W = 33;
const H = 17;

/** Paints a pattern no filter but the right one reproduces: red alternates by column, green by row, blue ramps. */
class Painter extends RenderExtension {
    override name = "painter";
    override phase = FramePhase.AfterLighting;
    readonly #effect = new FullscreenEffect({
        label: "painter",
        inputs: 0,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
    let p = vec2u(frag_coord);
    return vec4f(f32(p.x % 2u), f32(p.y % 3u) * 0.5, f32(p.x + 2u * p.y) / 64.0, 1.0);
}`,
    });
    override record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color);
    }
}

describe("HalfResolutionColor frame product on Dawn", () => {
    it("averages each 2x2 of the scene colour into ceil(w/2) x ceil(h/2); no pass without a declaration", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const renderer = new Renderer({ device, target: new TextureRenderTarget(W, H), feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.capture_pass_list = true;
            renderer.capture_graph_dump = true;
            renderer.add_extension(new Painter());
            const full = renderer.add_extension(new TextureProbe("full probe", FramePhase.AfterTransparency, [], (f) => f.get(SceneColor).color));
            renderer.render_frame();
            expect(renderer.last_frame_passes.map((p) => p.name)).not.toContain("half resolution colour");
            expect(renderer.last_frame_dot).not.toContain("half resolution");

            const half = renderer.add_extension(new TextureProbe("half probe", FramePhase.AfterTransparency, [HalfResolutionColor], (f) => f.get(HalfResolutionColor).color));
            renderer.render_frame();
            expect(renderer.last_frame_passes.filter((p) => p.name === "half resolution colour"), "made once, at AfterTransparency").toHaveLength(1);
            const source = await read_texture(device, full.texture!);
            const small = await read_texture(device, half.texture!);
            write_readback_png(small, "half_resolution_colour");
            expect([small.width, small.height]).toEqual([Math.ceil(W / 2), Math.ceil(H / 2)]);
            let worst = 0;
            for (let y = 0; y < small.height; y++) {
                for (let x = 0; x < small.width; x++) {
                    for (let c = 0; c < 3; c++) {
                        let sum = 0;
                        for (let dy = 0; dy < 2; dy++) {
                            for (let dx = 0; dx < 2; dx++) {
                                const sx = Math.min(2 * x + dx, W - 1);
                                const sy = Math.min(2 * y + dy, H - 1);
                                sum += source.data[(sy * W + sx) * 4 + c];
                            }
                        }
                        worst = Math.max(worst, Math.abs(small.data[(y * small.width + x) * 4 + c] - sum / 4));
                    }
                }
            }
            // the red columns average to 0.5 except the odd last column (0 only: column 32 is even)
            expect(small.data[(0 * small.width + 0) * 4]).toBeCloseTo(0.5, 3);
            expect(small.data[(0 * small.width + small.width - 1) * 4]).toBeCloseTo(0, 3);
            console.log(`[half resolution] ${small.width}x${small.height} from ${W}x${H}: largest difference from the 2x2 average ${worst.toExponential(2)}`);
            expect(worst).toBeLessThan(2e-3);

            renderer.remove_extension(half);
            renderer.render_frame();
            expect(renderer.last_frame_passes.map((p) => p.name)).not.toContain("half resolution colour");
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("get at a phase without it names where it exists; requiring it at AfterGBuffer is refused", async () => {
        await with_gpu_device(async (device) => {
            const renderer = new Renderer({ device, target: new TextureRenderTarget(W, H), feature_taa_enabled: false });
            let message = "";
            renderer.add_extension(
                new TextureProbe("early looker", FramePhase.AfterGBuffer, [], (f) => {
                    try {
                        f.get(HalfResolutionColor);
                    } catch (error) {
                        message = (error as Error).message;
                    }
                    return null;
                }),
            );
            renderer.render_frame();
            expect(message).toContain("HalfResolutionColor is not carried at AfterGBuffer; it is carried at AfterLighting, AfterTransparency and BeforePresent");
            expect(() => renderer.add_extension(new TextureProbe("early", FramePhase.AfterGBuffer, [HalfResolutionColor], () => null))).toThrow(
                "requires HalfResolutionColor at AfterGBuffer, but HalfResolutionColor is made only at AfterLighting, AfterTransparency and BeforePresent",
            );
            renderer.destroy();
        });
    });
});
