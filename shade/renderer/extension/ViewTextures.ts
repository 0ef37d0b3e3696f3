import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "./FramePhase.js";
import { FrameRecord } from "./FrameRecord.js";

/**
 * The view's depth: in/out at AfterGBuffer, read-only from AfterLighting to BeforePresent (always at the
 * internal resolution - across the upscale, `frame.describe` gives the ratio).
 */
export class ViewTextures extends FrameRecord {
    #depth: FrameGraphHandle = -1;
    #saved_depth: FrameGraphHandle = -1;

    static override is_present_at(phase: FramePhase): boolean {
        return phase >= FramePhase.AfterGBuffer && phase <= FramePhase.BeforePresent;
    }

    static override is_writable_at(phase: FramePhase): boolean {
        return phase === FramePhase.AfterGBuffer;
    }

    get depth(): FrameGraphHandle {
        return this.read(this.#depth, "depth");
    }

    set depth(handle: FrameGraphHandle) {
        this.#depth = this.publish(handle, "depth");
    }

    override save_state(): boolean {
        this.#saved_depth = this.#depth;
        return true;
    }

    override restore_state(): void {
        this.#depth = this.#saved_depth;
    }

    override reset_for_reuse(): boolean {
        this.#depth = -1;
        return true;
    }
}
