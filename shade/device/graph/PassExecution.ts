import type { FrameExecution } from "./FrameExecution.js";
import type { GPUPassTimer } from "./GPUPassTimer.js";

/** The graph's one reusable `FrameExecution`: patched per pass, never reallocated. */
export class PassExecution implements FrameExecution {
    graphics: GPUDevice = null as unknown as GPUDevice;
    encoder: GPUCommandEncoder = null as unknown as GPUCommandEncoder;
    timer: GPUPassTimer | null = null;
    pass_name = "";
    /** The outermost scope's name of the running pass (its extension), or null. */
    scope_name: string | null = null;
    #claimed = false;

    /** Moves to the next pass. */
    enter(pass_name: string, scope_name: string | null = null): void {
        this.pass_name = pass_name;
        this.scope_name = scope_name;
        this.#claimed = false;
    }

    get timestamp_writes(): GPURenderPassTimestampWrites | undefined {
        if (this.timer === null || this.#claimed) return undefined;
        this.#claimed = true;
        return this.timer.next(this.pass_name, this.scope_name);
    }
}
