// Worked example for @pixi/3d "Effects in several steps" (`FullscreenPass` + `graph.createColor`): a separable
// blur as two FullscreenEffect passes, across then down, through an intermediate texture that the frame graph
// creates for the frame (a transient, owned by nobody), reading the scene colour and publishing the result.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { SCENE_COLOR_FORMAT } from "../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const SIZE = 64;

/** A bright square on black: two vertical and two horizontal sharp edges. */
class SquarePainter extends RenderExtension {
    name = "square";
    phase = FramePhase.AfterTransparency;
    readonly #effect = new FullscreenEffect({
        label: "square",
        inputs: 0,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let inside = all(uv > vec2f(0.25)) && all(uv < vec2f(0.75));
            return select(vec4f(0.0, 0.0, 0.0, 1.0), vec4f(1.0, 1.0, 1.0, 1.0), inside);
        }`,
    });
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "clear");
    }
}

/** Five taps `d` apart (pixi's `blurFragment`); `texel_0()` is pixi's `inputTexel()`. */
function blur_step(label: string, step: string): FullscreenEffect {
    return new FullscreenEffect({
        label,
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let d = ${step};
            return (sample_input_0(uv - 2.0 * d) + sample_input_0(uv - d) + sample_input_0(uv)
                + sample_input_0(uv + d) + sample_input_0(uv + 2.0 * d)) / 5.0;
        }`,
    });
}

/** pixi's `MyBlurEffect`: across into a frame-lifetime texture, then down into the scene colour. */
class TwoStepBlur extends RenderExtension {
    name = "blur";
    phase = FramePhase.AfterTransparency;
    after = [SquarePainter];
    readonly #across = blur_step("blur / across", "vec2f(2.0 * texel_0().x, 0.0)");
    readonly #down = blur_step("blur / down", "vec2f(0.0, 2.0 * texel_0().y)");
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        const graph = frame.graph;
        // pixi's graph.createColor(): the size and format of the scene, alive for this frame only
        const across = this.#across.graph_draw(graph, graph.create("blur intermediate", frame.describe(scene.color)), scene.color);
        const output = graph.create("blurred scene", frame.describe(scene.color));
        scene.color = this.#down.graph_draw(graph, output, across);
    }
}

function row(image: TextureReadback, y: number, x0: number, x1: number): number[] {
    const out: number[] = [];
    for (let x = x0; x <= x1; x++) out.push(pixel_at(image, x, y)[0]);
    return out;
}

function column(image: TextureReadback, x: number, y0: number, y1: number): number[] {
    const out: number[] = [];
    for (let y = y0; y <= y1; y++) out.push(pixel_at(image, x, y)[0]);
    return out;
}

/** How many values lie strictly between the square's black and white (as drawn unblurred, tonemapped). */
function ramp_levels(values: number[], black: number, white: number): number {
    return values.filter((v) => v > black + 2 && v < white - 2).length;
}

describe("pixi FullscreenPass: a two-step separable blur", () => {
    it("a sharp edge becomes a ramp across and down; the intermediate is a transient the graph creates", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.add_extension(new SquarePainter());
            renderer.render_frame();
            const sharp = await read_texture(device, target.acquire());
            // the square's left edge at x = 16 and top edge at y = 16: one step from black to white
            const black = pixel_at(sharp, 2, 2)[0];
            const white = pixel_at(sharp, 32, 32)[0];
            expect(white - black).toBeGreaterThan(150);
            expect(ramp_levels(row(sharp, 32, 8, 24), black, white)).toBe(0);
            expect(ramp_levels(column(sharp, 32, 8, 24), black, white)).toBe(0);

            const blur = renderer.add_extension(new TwoStepBlur());
            renderer.capture_graph_dump = true;
            renderer.capture_pass_list = true;
            const created_before = renderer.graph.pool.created_count;
            renderer.render_frame();
            const blurred = await read_texture(device, target.acquire());
            write_readback_png(blurred, "pixi_two_step_blur");
            const across = row(blurred, 32, 8, 24);
            const down = column(blurred, 32, 8, 24);
            // 5 taps 2 px apart: the edge spreads over 8 pixels, rising monotonically, both ways
            expect(ramp_levels(across, black, white), `across ${across.join(",")}`).toBeGreaterThanOrEqual(4);
            expect(ramp_levels(down, black, white), `down ${down.join(",")}`).toBeGreaterThanOrEqual(4);
            for (let i = 1; i < across.length; i++) expect(across[i]).toBeGreaterThanOrEqual(across[i - 1]);
            for (let i = 1; i < down.length; i++) expect(down[i]).toBeGreaterThanOrEqual(down[i - 1]);
            // the middle of the square and far outside it are untouched
            expect(pixel_at(blurred, 32, 32)[0]).toBe(pixel_at(sharp, 32, 32)[0]);
            expect(pixel_at(blurred, 2, 2)[0]).toBe(pixel_at(sharp, 2, 2)[0]);

            const passes = renderer.last_frame_passes.filter((p) => p.scope === "blur").map((p) => p.name);
            expect(passes).toEqual(["blur / across", "blur / down"]);
            // transient: an ellipse in the dump (imported textures are double octagons), pooled by the graph
            const dot = renderer.last_frame_dot;
            expect(dot).toMatch(/shape=ellipse label="blur intermediate v1/);
            expect(dot).not.toMatch(/shape=doubleoctagon label="blur intermediate/);
            expect(renderer.graph.pool.created_count).toBeGreaterThan(created_before);
            // a frame later the pool reuses its textures: the intermediate costs no new texture per frame
            const created = renderer.graph.pool.created_count;
            renderer.render_frame();
            renderer.render_frame();
            expect(renderer.graph.pool.created_count).toBe(created);

            renderer.remove_extension(blur);
            renderer.render_frame();
            expect(renderer.last_frame_passes.map((p) => p.name)).not.toContain("blur / across");
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            r.add_extension(new SquarePainter());
            r.add_extension(new TwoStepBlur());
        });
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
