import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase, frame_phase_name } from "../extension/FramePhase.js";
import { FrameProduct } from "./FrameProduct.js";

/**
 * A readable copy of the scene colour as the phase began (PlayCanvas's colour grab, pixi's `importColor`), for
 * effects that sample the scene while writing it (refraction, heat haze, a blur behind glass). Made at
 * AfterLighting, AfterTransparency and BeforePresent, each only if an extension of that phase declares
 * `requires = [SceneColorCopy]`; same size and format as the scene colour it copies.
 */
export class SceneColorCopy extends FrameProduct {
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

const NAME = "SceneColorCopy";
