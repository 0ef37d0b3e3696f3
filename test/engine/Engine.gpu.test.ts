// An Engine with a system that owns a render extension, on a real device (Dawn on SwiftShader): the system
// registers in startup and removes in shutdown exactly in the seed's shape; engine.tick renders it.
import { describe, expect, it } from "vitest";
import { Engine } from "../../engine/Engine.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { expect_pixel, get_gpu, read_texture, write_readback_png } from "../harness/index.js";

/** Draws a green stripe over the top half of the scene colour. */
class StripeExtension extends RenderExtension {
    name = "engine test stripe";
    phase = FramePhase.AfterTransparency;
    records = 0;
    readonly #effect = new FullscreenEffect({
        label: "engine test stripe",
        inputs: 0,
        format: "rgba16float",
        fragment: `fn effect(uv: vec2f) -> vec4f { if (uv.y > 0.5) { discard; } return vec4f(0.0, 4.0, 0.0, 1.0); }`,
    });
    constructor(readonly system: StripeSystem) {
        super();
    }
    record(frame: FrameContext): void {
        this.records++;
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
    }
}

/** A system in the seed's shape: its extension registered in startup, removed in shutdown. */
class StripeSystem extends System {
    readonly name = "stripe";
    updates = 0;
    readonly #graphics: GraphicsEngine;
    #extension: StripeExtension | null = null;
    constructor(graphics: GraphicsEngine) {
        super();
        this.#graphics = graphics;
    }
    get extension(): StripeExtension | null {
        return this.#extension;
    }
    override async startup(entityManager: EntityManager): Promise<void> {
        void entityManager;
        this.#extension = this.#graphics.add_extension(new StripeExtension(this));
    }
    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension = null;
        }
    }
    override update(): void {
        this.updates++;
    }
}

const STRIPE: [number, number] = [0, 240]; // green 4.0, tonemapped: g channel
async function top_and_bottom(engine: Engine, target: TextureRenderTarget, name: string) {
    const image = await read_texture(engine.graphics.device!, target.acquire());
    write_readback_png(image, name);
    return image;
}

describe("Engine with a rendering system (Dawn)", () => {
    it("tick renders the system's extension; remove_system and shutdown put extension_count back", async () => {
        const errors: Error[] = [];
        const target = new TextureRenderTarget(32, 32);
        const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e) => errors.push(e) } });
        const phase = FramePhase.AfterTransparency;
        const before = engine.graphics.extension_count(phase);

        // registering needs no device
        const system = await engine.add_system(new StripeSystem(engine.graphics));
        expect(engine.graphics.extension_count(phase)).toBe(before + 1);
        await engine.graphics.start();

        engine.tick(1 / 60);
        expect(system.updates).toBe(1);
        expect(system.extension!.records).toBe(1);
        let image = await top_and_bottom(engine, target, "engine_system_stripe");
        expect_pixel(image, 16, 3, STRIPE, 15, "stripe drawn at the top");
        expect_pixel(image, 16, 29, [60, 78, 101], 3, "sky below the stripe");

        await engine.remove_system(system);
        expect(engine.graphics.extension_count(phase)).toBe(before);
        await system.shutdown(engine.entityManager); // a second shutdown is harmless
        engine.tick(1 / 60);
        image = await top_and_bottom(engine, target, "engine_system_removed");
        expect_pixel(image, 16, 3, [60, 78, 101], 3, "no stripe once the system is removed");

        // startup after shutdown registers again
        await engine.add_system(system);
        expect(engine.graphics.extension_count(phase)).toBe(before + 1);
        engine.tick(1 / 60);
        image = await top_and_bottom(engine, target, "engine_system_again");
        expect_pixel(image, 16, 3, STRIPE, 15, "stripe drawn again");

        await engine.shutdown();
        expect(engine.graphics.extension_count(phase)).toBe(before);
        expect(engine.graphics.state).toBe("stopped");
        expect(errors).toEqual([]);
    });
});
