import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase, frame_phase_name } from "../extension/FramePhase.js";
import { FrameProduct } from "./FrameProduct.js";

/**
 * The scene colour as the phase began, downsampled to half size (ceil(width / 2) x ceil(height / 2), each
 * texel the box average of its 2x2 source texels; an odd last row or column averages the texels it has), for
 * blurs, bloom and screen-space effects that need not run at full size. Made at AfterLighting,
 * AfterTransparency and BeforePresent, each only if an extension of that phase declares
 * `requires = [HalfResolutionColor]`; same format as the scene colour.
 */
export class HalfResolutionColor extends FrameProduct {
    #color: FrameGraphHandle = -1;
    // made per phase: a record made at an earlier phase of the frame is still carried later, but not valid there
    #frame: { readonly phase: FramePhase } | null = null;
    #made_at: FramePhase = FramePhase.FrameStart;

    static override is_present_at(phase: FramePhase): boolean {
        return phase >= FramePhase.AfterLighting && phase <= FramePhase.BeforePresent;
    }

    /** Valid at the phase it was made for; read at a later phase (which did not declare it) it throws. */
    get color(): FrameGraphHandle {
        const frame = this.#frame;
        if (frame !== null && frame.phase !== this.#made_at) {
            throw new Error(
                `${NAME}.color read at ${frame_phase_name(frame.phase)}, but this frame made it for ${frame_phase_name(this.#made_at)} ` +
                    `(it is made per phase): declare requires = [${NAME}] on an extension of ${frame_phase_name(frame.phase)}`,
            );
        }
        return this.read(this.#color, "color");
    }

    /** @internal the renderer fills it in, at each phase it makes it for */
    provide(handle: FrameGraphHandle, frame: { readonly phase: FramePhase }): void {
        this.#color = handle;
        this.#frame = frame;
        this.#made_at = frame.phase;
    }

    override reset_for_reuse(): boolean {
        this.#color = -1;
        this.#frame = null;
        return true;
    }
}

const NAME = "HalfResolutionColor";
