// The page of test/engine/Engine.browser.test.ts: an Engine on a canvas, driven by the browser's own
// requestAnimationFrame through engine.run(), with a level loaded (TypeBox's compiled validator in the browser).
// Reports through body[data-*].
import { Engine } from "../../../engine/Engine.js";
import type { GraphicsEngine } from "../../../engine/GraphicsEngine.js";
import { load_level } from "../../../engine/level/load_level.js";
import { save_level } from "../../../engine/level/save_level.js";
import { System } from "../../../engine/System.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { CanvasRenderTarget } from "../../../shade/renderer/target/CanvasRenderTarget.js";

const data = document.body.dataset;

class StripeExtension extends RenderExtension {
    name = "browser stripe";
    phase = FramePhase.AfterTransparency;
    readonly #effect = new FullscreenEffect({
        label: "browser stripe",
        inputs: 0,
        format: "rgba16float",
        fragment: `fn effect(uv: vec2f) -> vec4f { if (uv.y > 0.5) { discard; } return vec4f(0.0, 4.0, 0.0, 1.0); }`,
    });
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
    }
}

class StripeSystem extends System {
    readonly name = "stripe";
    readonly #graphics: GraphicsEngine;
    #extension: StripeExtension | null = null;
    updates = 0;
    seconds = 0;
    constructor(graphics: GraphicsEngine) {
        super();
        this.#graphics = graphics;
    }
    override async startup(): Promise<void> {
        this.#extension = this.#graphics.add_extension(new StripeExtension());
    }
    override async shutdown(): Promise<void> {
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension = null;
        }
    }
    override update(dt: number): void {
        this.updates++;
        this.seconds += dt;
    }
}

const LEVEL = { version: 1, entities: [{ name: "a", Transform: { position: [1.5, 2, 3], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }] };

async function main(): Promise<void> {
    const canvas = document.getElementById("view") as HTMLCanvasElement;
    const engine = new Engine({ graphics: { target: new CanvasRenderTarget(canvas), on_error: (e) => console.error(e.message) } });
    const system = await engine.add_system(new StripeSystem(engine.graphics));
    load_level(engine, JSON.stringify(LEVEL));
    data.saved = JSON.stringify(save_level(engine));
    try {
        load_level(engine, '{ "entities": [ { "Transform": { "scale": [1, "x", 1] } } ] }');
    } catch (error) {
        data.error = (error as Error).message;
    }
    await engine.graphics.start();
    engine.run();
    await new Promise<void>((resolve) => {
        const wait = (): void => (system.updates >= 10 ? resolve() : void requestAnimationFrame(wait));
        wait();
    });
    data.running_updates = String(system.updates);
    data.drawn = "1";
    // the test takes its screenshot while frames still run, then asks for the stop
    (globalThis as { stop_engine?: () => Promise<void> }).stop_engine = async () => {
        engine.stop_running();
        data.updates = String(system.updates);
        data.seconds = String(system.seconds);
        data.running = String(engine.running);
        // frames that would still arrive after stop_running must not update
        await new Promise((resolve) => setTimeout(resolve, 300));
        data.updates_later = String(system.updates);
        data.done = "1";
    };
}

main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    data.done = "failed";
});
