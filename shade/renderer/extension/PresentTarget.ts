import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "./FramePhase.js";
import { FrameRecord } from "./FrameRecord.js";

/**
 * The presented canvas at Overlay: one field, and deliberately not called colour - there is no colour here
 * to read. Keep the existing contents with a load, write only your own pixels and publish the result back,
 * so that a second overlay composes over the first.
 */
export class PresentTarget extends FrameRecord {
    #target: FrameGraphHandle = -1;
    #saved_target: FrameGraphHandle = -1;

    static override is_present_at(phase: FramePhase): boolean {
        return phase === FramePhase.Overlay;
    }

    get target(): FrameGraphHandle {
        return this.read(this.#target, "target");
    }

    set target(handle: FrameGraphHandle) {
        this.#target = this.publish(handle, "target");
    }

    override save_state(): boolean {
        this.#saved_target = this.#target;
        return true;
    }

    override restore_state(): void {
        this.#target = this.#saved_target;
    }

    override reset_for_reuse(): boolean {
        this.#target = -1;
        return true;
    }
}
