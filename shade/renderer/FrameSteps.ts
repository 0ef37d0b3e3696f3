import type { FrameGraph } from "../device/graph/FrameGraph.js";
import type { FrameContext } from "./extension/FrameContext.js";
import { FramePhase } from "./extension/FramePhase.js";
import { PresentTarget } from "./extension/PresentTarget.js";
import type { RenderExtensionRegistry } from "./extension/RenderExtensionRegistry.js";
import { FrameProducts } from "./products/FrameProducts.js";
import type { Scene } from "./scene/Scene.js";
import { SkinningStep } from "./skinning/SkinningStep.js";
import { SceneDraws } from "./mesh/SceneDraws.js";
import { GBufferStep } from "./steps/GBufferStep.js";
import { LightingStep } from "./steps/LightingStep.js";
import { TonemapStep } from "./steps/TonemapStep.js";
import { TransparencyStep } from "./steps/TransparencyStep.js";
import { UpscaleStep } from "./steps/UpscaleStep.js";
import { record_upscaler } from "./upscale/record_upscaler.js";
import type { Upscaler, UpscaleSlot } from "./upscale/Upscaler.js";

/** @internal What the steps read of the renderer's settings (the renderer itself). */
export interface FrameStepSettings {
    readonly scene: Scene;
    readonly taa_uses_velocity: boolean;
    readonly fuse_fullscreen_steps: boolean;
}

/**
 * @internal A renderer's built-in steps and the closed frame's order: each step, then the products and
 * extensions of the phase it ends. The renderer owns one and keeps it private (its settings read through).
 */
export class FrameSteps {
    readonly gbuffer = new GBufferStep();
    readonly skinning = new SkinningStep();
    readonly lighting = new LightingStep();
    readonly transparency = new TransparencyStep(this.gbuffer, this.lighting.lights, this.lighting.tiles);
    readonly upscale = new UpscaleStep();
    readonly tonemap = new TonemapStep();
    readonly products: FrameProducts;
    readonly #registry: RenderExtensionRegistry;

    constructor(registry: RenderExtensionRegistry) {
        this.products = new FrameProducts(registry);
        this.#registry = registry;
    }

    /**
     * Records FrameStart to Overlay into the begun `frame`, presenting into `present`; `upscaler` is the slot's
     * user upscaler (null for "taa" and "none"). The caller closes the frame. `settings` (the renderer) is read
     * where each step needs it, so a setting changed by an extension's record applies from the next step on.
     */
    record(frame: FrameContext, graph: FrameGraph, present: GPUTexture, slot: UpscaleSlot, upscaler: Upscaler | null, settings: FrameStepSettings): void {
        const registry = this.#registry;
        // before anything draws a skinned mesh (shadows draw at FrameStart)
        this.skinning.record(frame, settings.scene);
        // the meshes' draw list and object data, for every pass that draws them: built by the G-buffer step after
        // FrameStart's extensions record (they may change the scene), read by passes when they execute
        const draws = frame.create(SceneDraws);
        draws.list = this.gbuffer.draw_list;
        draws.objects = this.gbuffer.objects;
        draws.culling = this.gbuffer.culling;
        this.products.frame_start(frame, this.gbuffer);
        registry.record_phase(FramePhase.FrameStart, frame);

        frame.enter(FramePhase.AfterGBuffer);
        this.gbuffer.record(frame, settings.scene);
        const taa_velocity = slot === "taa" && settings.taa_uses_velocity;
        this.products.after_gbuffer(frame, this.gbuffer, taa_velocity, true);
        registry.record_phase(FramePhase.AfterGBuffer, frame);
        this.products.after_gbuffer(frame, this.gbuffer, taa_velocity, false);

        frame.enter(FramePhase.AfterLighting);
        this.lighting.record(frame, settings.scene);
        this.products.at(FramePhase.AfterLighting, frame);
        registry.record_phase(FramePhase.AfterLighting, frame);

        frame.enter(FramePhase.AfterTransparency);
        this.transparency.record(frame, settings.scene);
        this.products.at(FramePhase.AfterTransparency, frame);
        registry.record_phase(FramePhase.AfterTransparency, frame);

        frame.enter(FramePhase.BeforePresent);
        // adjacent full-screen steps with nothing between them are one pass: the TAA sharpen and the tonemap
        // (products at BeforePresent are made only for its extensions)
        const fuse = upscaler === null && slot === "taa" && settings.fuse_fullscreen_steps && registry.extension_count(FramePhase.BeforePresent) === 0;
        if (upscaler !== null) record_upscaler(upscaler, frame, graph);
        else this.upscale.record(frame, slot === "taa", fuse);
        this.products.at(FramePhase.BeforePresent, frame);
        registry.record_phase(FramePhase.BeforePresent, frame);
        const canvas = graph.import_texture("present target", present);
        const presented = this.tonemap.record(frame, canvas, fuse);

        frame.enter(FramePhase.Overlay);
        frame.create(PresentTarget).target = presented;
        registry.record_phase(FramePhase.Overlay, frame);
    }
}
