// GraphicsEngine keeps extensions across renderer restarts and lost devices (Dawn on SwiftShader).
import { describe, expect, it } from "vitest";
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { RenderExtensionError } from "../../shade/renderer/extension/RenderExtensionError.js";
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
    it("times passes by default where the adapter has timestamp-query; gpu_timing: false asks for no feature and times nothing", async () => {
        const timed = new GraphicsEngine({ gpu: get_gpu(), target: new TextureRenderTarget(16, 16) });
        await timed.start();
        // Dawn offers timestamp-query (on SwiftShader too): the engine asks for it unrequested
        expect(timed.device!.features.has("timestamp-query")).toBe(true);
        expect(timed.renderer!.timer).not.toBeNull();
        await timed.stop();
        const untimed = new GraphicsEngine({ gpu: get_gpu(), target: new TextureRenderTarget(16, 16), gpu_timing: false });
        await untimed.start();
        expect(untimed.device!.features.has("timestamp-query")).toBe(false);
        expect(untimed.renderer!.timer).toBeNull();
        expect(untimed.render()).toBe(true);
        await untimed.stop();
    });

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

    it("a WGSL compile error is reported once naming the extension, the pass and the fragment's own line; the rest keeps drawing", async () => {
        const errors: Error[] = [];
        const { engine, target } = make_engine(errors);
        class Broken extends RenderExtension {
            name = "broken";
            phase = FramePhase.AfterTransparency;
            records = 0;
            readonly effect = new FullscreenEffect({
                label: "broken effect",
                inputs: 0,
                format: "rgba16float",
                fragment: `fn effect(uv: vec2f) -> vec4f {\n    return vec4f(uv, not_a_variable, 1.0);\n}`,
            });
            record(frame: FrameContext): void {
                this.records++;
                const scene = frame.get(SceneColor);
                scene.color = this.effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
            }
        }
        const stripe = engine.add_extension(new GreenStripe());
        const broken = engine.add_extension(new Broken());
        await engine.start();
        // the compilation info arrives asynchronously: render until the effect knows (bounded)
        const extension_errors = () => errors.filter((e) => e instanceof RenderExtensionError);
        for (let attempt = 0; extension_errors().length === 0 && attempt < 500; attempt++) {
            expect(engine.render()).toBe(true); // never thrown: the frame goes on without the broken extension
            await engine.device!.queue.onSubmittedWorkDone();
            await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const [failure] = extension_errors() as RenderExtensionError[];
        expect(failure.message).toBe("Render extension 'broken' failed to execute pass 'broken effect' at AfterTransparency");
        expect(failure.extension).toBe(broken);
        const cause = failure.cause as Error;
        expect(cause.message).toMatch(/^FullscreenEffect 'broken effect': its WGSL does not compile:\n  fragment line 2:\d+: .*not_a_variable/);
        expect(cause.message).toContain("return vec4f(uv, not_a_variable, 1.0);");
        // suspended: further frames draw the stripe, skip the broken one, and report nothing more
        const records = broken.records;
        const reported = errors.length;
        for (let i = 0; i < 3; i++) expect(engine.render()).toBe(true);
        expect(broken.records).toBe(records);
        expect(errors.length).toBe(reported);
        await expect_stripe(engine, target, "engine_after_wgsl_error");
        expect(stripe.records).toBeGreaterThanOrEqual(4);
        // what came before the compilation info: the invalid pipeline's GPU errors, and nothing else
        for (const error of errors) if (error !== failure) expect(error.message).toMatch(/^GPU error: /);
        // an explicit retry records it again, which fails again and is reported again, once
        engine.retry_extensions();
        engine.render();
        engine.render();
        expect(extension_errors().length).toBe(2);
        await engine.stop();
    });
});
