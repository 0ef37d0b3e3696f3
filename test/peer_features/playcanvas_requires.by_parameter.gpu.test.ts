// Worked example for PlayCanvas "An effect whose requirements depend on a parameter overrides `requires` as a
// getter". Here `requires` is a field the renderer reads every frame, so a parameter's setter reassigns it
// (to module constants: nothing allocates per frame); the product is made only in frames that ask for it.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import type { FrameProductClass } from "../../shade/renderer/products/FrameProduct.js";
import { SceneColorCopy } from "../../shade/renderer/products/SceneColorCopy.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { SCENE_COLOR_FORMAT } from "../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const WITH_GRAB: readonly FrameProductClass[] = [SceneColorCopy];
const NOTHING: readonly FrameProductClass[] = [];

/** Mirrors the scene left to right when `mirror` is on (which needs the grab: a pass cannot sample what it writes). */
class MirrorEffect extends RenderExtension {
    name = "mirror";
    phase = FramePhase.AfterTransparency;
    override requires = NOTHING;
    #mirror = false;
    readonly #effect = new FullscreenEffect({
        label: "mirror",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f { return sample_input_0(vec2f(1.0 - uv.x, uv.y)); }`,
    });
    get mirror(): boolean {
        return this.#mirror;
    }
    set mirror(on: boolean) {
        this.#mirror = on;
        this.requires = on ? WITH_GRAB : NOTHING;
    }
    record(frame: FrameContext): void {
        if (!this.#mirror) return;
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, frame.get(SceneColorCopy).color);
    }
}

/** The left half red, the right half dark; a phase earlier, since the copy is the scene as the phase began. */
class HalfRed extends RenderExtension {
    name = "half red";
    phase = FramePhase.AfterLighting;
    readonly #effect = new FullscreenEffect({
        label: "half red",
        inputs: 0,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f { return select(vec4f(0.0, 0.0, 0.0, 1.0), vec4f(1.0, 0.0, 0.0, 1.0), uv.x < 0.5); }`,
    });
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "clear");
    }
}

describe("PlayCanvas requires that depend on a parameter", () => {
    it("the grab is made only in frames whose parameter asks for it", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(32, 32);
            const renderer = new Renderer({ device, target, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.capture_pass_list = true;
            renderer.add_extension(new HalfRed());
            const mirror = renderer.add_extension(new MirrorEffect());
            const copies = () => renderer.last_frame_passes.filter((p) => p.name === "scene colour copy").length;

            renderer.render_frame();
            expect(copies()).toBe(0);
            expect(pixel_at(await read_texture(device, target.acquire()), 4, 16)[0]).toBeGreaterThan(150);

            mirror.mirror = true;
            renderer.render_frame();
            expect(copies()).toBe(1);
            const mirrored = await read_texture(device, target.acquire());
            expect(pixel_at(mirrored, 4, 16)[0]).toBeLessThan(10);
            expect(pixel_at(mirrored, 28, 16)[0]).toBeGreaterThan(150);

            mirror.mirror = false;
            renderer.render_frame();
            expect(copies()).toBe(0);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            r.add_extension(new HalfRed());
            r.add_extension(new MirrorEffect()).mirror = true;
        });
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
