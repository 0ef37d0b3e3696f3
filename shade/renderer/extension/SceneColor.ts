import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "./FramePhase.js";
import { FrameRecord } from "./FrameRecord.js";

/**
 * The lit HDR colour of the frame: in/out at AfterLighting and AfterTransparency (internal resolution) and at
 * BeforePresent (output resolution, after the upscale). Not carried at Overlay, where the canvas is written
 * and cannot be read: an effect that needs the finished image belongs at BeforePresent.
 */
export class SceneColor extends FrameRecord {
    #color: FrameGraphHandle = -1;
    #saved_color: FrameGraphHandle = -1;

    static override is_present_at(phase: FramePhase): boolean {
        return phase >= FramePhase.AfterLighting && phase <= FramePhase.BeforePresent;
    }

    get color(): FrameGraphHandle {
        return this.read(this.#color, "color");
    }

    set color(handle: FrameGraphHandle) {
        this.#color = this.publish(handle, "color");
    }

    override save_state(): boolean {
        this.#saved_color = this.#color;
        return true;
    }

    override restore_state(): void {
        this.#color = this.#saved_color;
    }

    override reset_for_reuse(): boolean {
        this.#color = -1;
        return true;
    }
}
