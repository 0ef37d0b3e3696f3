import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "../extension/FramePhase.js";
import { FrameProduct } from "./FrameProduct.js";

/**
 * A readable copy of the scene colour as the phase began (PlayCanvas's colour grab, pixi's `importColor`), for
 * effects that sample the scene while writing it (refraction, heat haze, a blur behind glass). Made at
 * AfterLighting, AfterTransparency and BeforePresent, each only if an extension of that phase declares
 * `requires = [SceneColorCopy]`; same size and format as the scene colour it copies.
 */
export class SceneColorCopy extends FrameProduct {
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
