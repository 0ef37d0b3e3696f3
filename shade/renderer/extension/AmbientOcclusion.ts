import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "./FramePhase.js";
import { FrameRecord } from "./FrameRecord.js";

/**
 * The frame's screen-space ambient occlusion, the hook through which any AfterGBuffer extension darkens the
 * indirect light (PlayCanvas's `SSAOTYPE_LIGHTING`): `frame.create(AmbientOcclusion).texture = handle`.
 * `texture` is a filterable float texture (`r8unorm`, `r16float`, `rgba8unorm`, ...) whose red channel is the
 * ambient visibility, 1 unoccluded and 0 fully occluded, of any size: the deferred lighting samples it with a
 * linear sampler at each pixel's uv and multiplies it into the material's occlusion, so it darkens the ambient
 * and environment terms only (the sun and the point lights are untouched).
 *
 * Publishable at AfterGBuffer only, carried from there to BeforePresent (internal resolution). Frames where no
 * extension publishes one run today's lighting shader, with no binding for it.
 */
export class AmbientOcclusion extends FrameRecord {
    #texture: FrameGraphHandle = -1;
    #saved_texture: FrameGraphHandle = -1;

    static override is_present_at(phase: FramePhase): boolean {
        return phase >= FramePhase.AfterGBuffer && phase <= FramePhase.BeforePresent;
    }

    static override is_writable_at(phase: FramePhase): boolean {
        return phase === FramePhase.AfterGBuffer;
    }

    get texture(): FrameGraphHandle {
        return this.read(this.#texture, "texture");
    }

    set texture(handle: FrameGraphHandle) {
        this.#texture = this.publish(handle, "texture");
    }

    /** Whether `texture` was published this frame (a record created and left empty is ignored by the lighting). */
    get published(): boolean {
        return this.#texture !== -1;
    }

    override save_state(): boolean {
        this.#saved_texture = this.#texture;
        return true;
    }

    override restore_state(): void {
        this.#texture = this.#saved_texture;
    }

    override reset_for_reuse(): boolean {
        this.#texture = -1;
        return true;
    }
}
