// Worked example for PlayCanvas "Values of each frame" (`frameUpdate`: the render size, handed every frame) and
// `resizeSource` (a pass's target following the half-resolution scene; "do not keep their sizes"). Here: an
// effect sizes its target from `frame.resolution` inside `record`, every frame; resizing the output changes
// it on the next frame with nothing rebuilt, and `texel_0()` in the shader is the per-frame texel size.
import { describe, expect, it } from "vitest";
import { TextureResourceDescriptor } from "../../shade/device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { SCENE_COLOR_FORMAT } from "../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04 /* TEXTURE_BINDING */;

/** One-pixel vertical stripes, bright and dark: averaging pairs of pixels makes them one grey. */
class Stripes extends RenderExtension {
    name = "stripes";
    phase = FramePhase.AfterTransparency;
    readonly #effect = new FullscreenEffect({
        label: "stripes",
        inputs: 0,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let bright = (i32(frag_coord.x) & 1) == 0;
            return select(vec4f(0.0, 0.0, 0.0, 1.0), vec4f(0.8, 0.8, 0.8, 1.0), bright);
        }`,
    });
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "clear");
    }
}

/** Down to half resolution (a box filter of 2x2 pixels), then back up over the scene. */
class HalfResolutionPass extends RenderExtension {
    name = "half resolution";
    phase = FramePhase.AfterTransparency;
    after = [Stripes];
    /** The size of the half-resolution target in the last frame, for the test. */
    readonly last_size = new Uint32Array(2);
    readonly #down = new FullscreenEffect({
        label: "half resolution / down",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        // the output pixel covers input pixels 2p and 2p+1 each way; texel_0() is this frame's input texel
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let t = texel_0();
            return 0.25 * (sample_input_0(uv + vec2f(-0.5, -0.5) * t) + sample_input_0(uv + vec2f(0.5, -0.5) * t)
                + sample_input_0(uv + vec2f(-0.5, 0.5) * t) + sample_input_0(uv + vec2f(0.5, 0.5) * t));
        }`,
    });
    readonly #up = new FullscreenEffect({
        label: "half resolution / up",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f { return sample_input_0(uv); }`,
    });
    record(frame: FrameContext): void {
        const size = frame.resolution; // PlayCanvas frame.renderWidth / renderHeight, asked every frame
        const half = TextureResourceDescriptor.of(Math.max(1, size[0] >> 1), Math.max(1, size[1] >> 1), SCENE_COLOR_FORMAT, USAGE);
        this.last_size[0] = half.width;
        this.last_size[1] = half.height;
        const scene = frame.get(SceneColor);
        const small = this.#down.graph_draw(frame.graph, frame.graph.create("half resolution scene", half), scene.color);
        const full = frame.graph.create("half resolution result", frame.describe(scene.color));
        scene.color = this.#up.graph_draw(frame.graph, full, small);
    }
}

describe("PlayCanvas frameUpdate / resizeSource: a pass at half the render size", () => {
    it("sizes its target from frame.resolution each frame; a resize reaches it on the next frame with nothing rebuilt", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(64, 32);
            const renderer = new Renderer({ device, target, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.add_extension(new Stripes());
            renderer.render_frame();
            const striped = await read_texture(device, target.acquire());
            const bright = pixel_at(striped, 10, 10)[0];
            const dark = pixel_at(striped, 11, 10)[0];
            expect(bright - dark).toBeGreaterThan(150);

            const half = renderer.add_extension(new HalfResolutionPass());
            const sizes: string[] = [];
            const render = () => {
                renderer.render_frame();
                sizes.push(half.last_size.join("x"));
            };
            render();
            const averaged = await read_texture(device, target.acquire());
            write_readback_png(averaged, "playcanvas_half_resolution");
            // each pair of stripes became one grey, the same on both pixels of the pair
            const a = pixel_at(averaged, 10, 10)[0];
            const b = pixel_at(averaged, 11, 10)[0];
            expect(Math.abs(a - b)).toBeLessThanOrEqual(2);
            expect(a).toBeGreaterThan(dark + 40);
            expect(a).toBeLessThan(bright - 20);

            target.resize(96, 48);
            render();
            render();
            expect(sizes).toEqual(["32x16", "48x24", "48x24"]);
            const resized = await read_texture(device, target.acquire());
            expect(resized.width).toBe(96);
            expect(Math.abs(pixel_at(resized, 40, 20)[0] - pixel_at(resized, 41, 20)[0])).toBeLessThanOrEqual(2);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            r.add_extension(new Stripes());
            r.add_extension(new HalfResolutionPass());
        });
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
