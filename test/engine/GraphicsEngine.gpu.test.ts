// GraphicsEngine keeps extensions across renderer restarts and lost devices (Dawn on SwiftShader).
import { describe, expect, it } from "vitest";
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { expect_pixel, get_gpu, read_texture, write_readback_png } from "../harness/index.js";

class GreenStripe extends RenderExtension {
    name = "green stripe";
    phase = FramePhase.AfterTransparency;
    records = 0;
    readonly #effect = new FullscreenEffect({
        label: "green stripe",
        inputs: 0,
        format: "rgba16float",
        fragment: `fn effect(uv: vec2f) -> vec4f { if (uv.y > 0.5) { discard; } return vec4f(0.0, 4.0, 0.0, 1.0); }`,
    });
    record(frame: FrameContext): void {
        this.records++;
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
    }
}

function make_engine(errors: Error[] = []) {
    const target = new TextureRenderTarget(48, 48);
    const engine = new GraphicsEngine({ gpu: get_gpu(), target, on_error: (e) => errors.push(e) });
    return { engine, target };
}

async function expect_stripe(engine: GraphicsEngine, target: TextureRenderTarget, name: string) {
    const image = await read_texture(engine.device!, target.acquire());
    write_readback_png(image, name);
    expect_pixel(image, 24, 4, [0, 240], 15, name); // green, tonemapped
    expect_pixel(image, 24, 44, [60, 78, 101], 3, name); // below the stripe: the sky, tonemapped
}

describe("GraphicsEngine", () => {
    it("accepts extensions before any device exists and applies them when the renderer is built", async () => {
        const errors: Error[] = [];
        const { engine, target } = make_engine(errors);
        const stripe = engine.add_extension(new GreenStripe());
        expect(engine.extension_count(FramePhase.AfterTransparency)).toBe(1);
        expect(engine.render()).toBe(false); // no renderer yet
        await engine.start();
        expect(engine.renderer!.extension_count(FramePhase.AfterTransparency)).toBe(1);
        expect(engine.render()).toBe(true);
        expect(stripe.records).toBe(1);
        await expect_stripe(engine, target, "engine_first_start");
        await engine.stop();
        expect(errors).toEqual([]);
    });

    it("start -> stop -> start keeps the extensions; one registered on the renderer directly is lost", async () => {
        const errors: Error[] = [];
        const { engine, target } = make_engine(errors);
        const stripe = engine.add_extension(new GreenStripe());
        await engine.start();
        class Direct extends RenderExtension {
            name = "direct";
            phase = FramePhase.Overlay;
            record(): void {}
        }
        engine.renderer!.add_extension(new Direct());
        expect(engine.renderer!.extension_count(FramePhase.Overlay)).toBe(1);
        engine.render();
        await engine.stop();
        expect(engine.renderer).toBeNull();
        expect(engine.extension_count(FramePhase.AfterTransparency)).toBe(1);
        await engine.start();
        expect(engine.renderer_generation).toBe(2);
        expect(engine.renderer!.extension_count(FramePhase.AfterTransparency)).toBe(1);
        expect(engine.renderer!.extension_count(FramePhase.Overlay)).toBe(0);
        engine.render();
        expect(stripe.records).toBe(2);
        await expect_stripe(engine, target, "engine_restart");

        // teardown leaks nothing
        expect(engine.remove_extension(stripe)).toBe(true);
        expect(engine.remove_extension(stripe)).toBe(false);
        expect(engine.extension_count(FramePhase.AfterTransparency)).toBe(0);
        expect(engine.renderer!.extension_count(FramePhase.AfterTransparency)).toBe(0);
        await engine.stop();
        expect(errors).toEqual([]);
    });

    it("recovers from a device destroyed mid-run: a new device, the same extensions, frames render again", async () => {
        const errors: Error[] = [];
        const { engine, target } = make_engine(errors);
        const stripe = engine.add_extension(new GreenStripe());
        await engine.start();
        engine.render();
        const first_device = engine.device!;
        first_device.destroy();
        await first_device.lost;
        // the engine's own lost handler ran first; until recovered, render draws nothing
        expect(engine.state).toBe("recovering");
        expect(engine.render()).toBe(false);
        await engine.ready();
        expect(engine.state).toBe("running");
        expect(engine.device).not.toBe(first_device);
        expect(engine.renderer!.extension_count(FramePhase.AfterTransparency)).toBe(1);
        expect(engine.render()).toBe(true);
        expect(stripe.records).toBe(2);
        await expect_stripe(engine, target, "engine_after_device_loss");
        // the loss, and nothing else
        expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^GPU device lost \(destroyed\)/)]);
        await engine.stop();
    });

    it("a cycle is refused at add_extension even before a device exists", () => {
        const { engine } = make_engine();
        class A extends RenderExtension {
            name = "a";
            phase = FramePhase.BeforePresent;
            override before = [B];
            record(): void {}
        }
        class B extends RenderExtension {
            name = "b";
            phase = FramePhase.BeforePresent;
            override before = [A];
            record(): void {}
        }
        engine.add_extension(new A());
        expect(() => engine.add_extension(new B())).toThrow("add_extension('b') at BeforePresent closes an ordering cycle");
        expect(engine.extension_count(FramePhase.BeforePresent)).toBe(1);
    });

    it("a WGSL compile error names the effect and the line, and the engine renders again once the extension is removed", async () => {
        const errors: Error[] = [];
        const { engine, target } = make_engine(errors);
        class Broken extends RenderExtension {
            name = "broken";
            phase = FramePhase.AfterTransparency;
            readonly effect = new FullscreenEffect({
                label: "broken effect",
                inputs: 0,
                format: "rgba16float",
                fragment: `fn effect(uv: vec2f) -> vec4f { return vec4f(uv, not_a_variable, 1.0); }`,
            });
            record(frame: FrameContext): void {
                const scene = frame.get(SceneColor);
                scene.color = this.effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
            }
        }
        const stripe = engine.add_extension(new GreenStripe());
        const broken = engine.add_extension(new Broken());
        await engine.start();
        engine.render(); // the pipeline is invalid until the compilation info arrives: a GPU error is reported
        await engine.device!.queue.onSubmittedWorkDone();
        // the compilation info arrives asynchronously: render until the effect knows (bounded)
        let caught: Error | null = null;
        for (let attempt = 0; caught === null && attempt < 500; attempt++) {
            await new Promise((resolve) => setTimeout(resolve, 10));
            try {
                engine.render();
            } catch (e) {
                caught = e as Error;
            }
        }
        const cause = caught!;
        expect(cause.message).toMatch(/^FullscreenEffect 'broken effect': its WGSL does not compile:\n  line \d+:\d+: .*not_a_variable/);
        expect(cause.message).toContain("return vec4f(uv, not_a_variable, 1.0);");
        // the first frames' invalid pipeline, reported through on_error, and nothing else
        expect(errors.length).toBeGreaterThan(0);
        for (const error of errors) expect(error.message).toMatch(/^GPU error: /);
        engine.remove_extension(broken);
        expect(engine.render()).toBe(true);
        await expect_stripe(engine, target, "engine_after_wgsl_error");
        expect(stripe.records).toBeGreaterThanOrEqual(2);
        await engine.stop();
    });
});
