import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase, frame_phase_name } from "../extension/FramePhase.js";
import { FrameProduct } from "./FrameProduct.js";

/**
 * A colour product made per phase (AfterLighting, AfterTransparency, BeforePresent), for the extensions of that
 * phase that declare it: `SceneColorCopy`, `HalfResolutionColor`. The record made at one phase is still carried
 * at the later ones, but its `color` is valid only at the phase it was made for; read elsewhere it throws,
 * naming both phases.
 */
export class PerPhaseColorProduct extends FrameProduct {
    #color: FrameGraphHandle = -1;
    #frame: { readonly phase: FramePhase } | null = null;
    #made_at: FramePhase = FramePhase.FrameStart;

    static override is_present_at(phase: FramePhase): boolean {
        return phase >= FramePhase.AfterLighting && phase <= FramePhase.BeforePresent;
    }

    /** The product's class name, for messages (kept as a string: production bundles may rename classes). */
    protected get product_name(): string {
        return "PerPhaseColorProduct";
    }

    /** Valid at the phase it was made for; read at a later phase (which did not declare it) it throws. */
    get color(): FrameGraphHandle {
        const frame = this.#frame;
        if (frame !== null && frame.phase !== this.#made_at) {
            const name = this.product_name;
            throw new Error(
                `${name}.color read at ${frame_phase_name(frame.phase)}, but this frame made it for ${frame_phase_name(this.#made_at)} ` +
                    `(it is made per phase): declare requires = [${name}] on an extension of ${frame_phase_name(frame.phase)}`,
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
