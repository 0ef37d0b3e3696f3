import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "../extension/FramePhase.js";
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

    static override is_present_at(phase: FramePhase): boolean {
        return phase >= FramePhase.AfterLighting && phase <= FramePhase.BeforePresent;
    }

    get color(): FrameGraphHandle {
        return this.read(this.#color, "color");
    }

    /** @internal the renderer fills it in */
    provide(handle: FrameGraphHandle): void {
        this.#color = handle;
    }

    override reset_for_reuse(): boolean {
        this.#color = -1;
        return true;
    }
}
