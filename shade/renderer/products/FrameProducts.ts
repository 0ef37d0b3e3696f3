import type { FrameContext } from "../extension/FrameContext.js";
import { FramePhase } from "../extension/FramePhase.js";
import type { RenderExtensionRegistry } from "../extension/RenderExtensionRegistry.js";
import type { Camera } from "../scene/Camera.js";
import type { GBufferStep } from "../steps/GBufferStep.js";
import type { FrameProductClass } from "./FrameProduct.js";
import { HalfResolutionColor } from "./HalfResolutionColor.js";
import { HalfResolutionColorStep } from "./HalfResolutionColorStep.js";
import { PrepassDepth } from "./PrepassDepth.js";
import { PrepassDepthStep } from "./PrepassDepthStep.js";
import { SceneColorCopy } from "./SceneColorCopy.js";
import { SceneColorCopyStep } from "./SceneColorCopyStep.js";
import { Velocity } from "./Velocity.js";
import { VelocityStep } from "./VelocityStep.js";

/**
 * @internal The renderer's frame products: makes each one at its phase only when some registered extension of
 * a phase that carries it declares it in `requires` (Velocity also when the built-in TAA uses it).
 */
export class FrameProducts {
    readonly #registry: RenderExtensionRegistry;
    readonly #scene_copy = new SceneColorCopyStep();
    readonly #half = new HalfResolutionColorStep();
    readonly #velocity = new VelocityStep();
    readonly #prepass = new PrepassDepthStep();

    constructor(registry: RenderExtensionRegistry) {
        this.#registry = registry;
    }

    /** Call every frame once the camera holds this frame's matrices and jitter. */
    begin_frame(camera: Camera): void {
        this.#velocity.begin_frame(camera);
    }

    /**
     * At FrameStart, before its extensions (after skinning): PrepassDepth when a FrameStart extension declares it
     * (the G-buffer then draws over its depth; the list both draw is built when the G-buffer records). Otherwise
     * nothing: the G-buffer builds and draws as ever.
     */
    frame_start(frame: FrameContext, gbuffer: GBufferStep): void {
        if (this.#required_from(PrepassDepth, FramePhase.FrameStart, FramePhase.FrameStart)) this.#prepass.record(frame, gbuffer);
    }

    /**
     * At AfterGBuffer, after the G-buffer step (`before_extensions`) and again after the phase's extensions:
     * Velocity when an extension declares it, or when `taa_velocity` (TAA is on and asks) and some mesh moved
     * since last frame (camera motion alone reprojects through depth). Made before the AfterGBuffer extensions
     * only if one of them declares it; otherwise after them, so that the surfaces they drew into the depth
     * (terrain, say) reproject as still ones instead of as sky.
     */
    after_gbuffer(frame: FrameContext, gbuffer: GBufferStep, taa_velocity: boolean, before_extensions: boolean): void {
        if (before_extensions) {
            if (this.#required_from(Velocity, FramePhase.AfterGBuffer, FramePhase.AfterGBuffer)) this.#velocity.record(frame, gbuffer);
            return;
        }
        if (frame.has(Velocity)) return;
        const pays = taa_velocity && gbuffer.draw_list.moved_count > 0;
        if (pays || this.#required_from(Velocity, FramePhase.AfterLighting, FramePhase.BeforePresent)) this.#velocity.record(frame, gbuffer);
    }

    /** The products made at `phase` itself (AfterLighting, AfterTransparency, BeforePresent), before its extensions. */
    at(phase: FramePhase, frame: FrameContext): void {
        if (this.#required_from(SceneColorCopy, phase, phase)) this.#scene_copy.record(frame);
        if (this.#required_from(HalfResolutionColor, phase, phase)) this.#half.record(frame);
    }

    // whether an extension of a phase in [first, last] declares `product`
    #required_from(product: FrameProductClass, first: FramePhase, last: FramePhase): boolean {
        for (let phase = first; phase <= last; phase++) {
            const extensions = this.#registry.ordered(phase);
            for (let i = 0; i < extensions.length; i++) if (extensions[i].requires.includes(product)) return true;
        }
        return false;
    }
}
