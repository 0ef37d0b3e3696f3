import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { FrameRecord } from "../../shade/renderer/extension/FrameRecord.js";

/**
 * The fog-of-war grid of the frame (the seed's record): `grid` is the handle of an `r8unorm` texture, one texel
 * per cell (x along world x, rows along world z), 0 hidden, about 0.5 explored, 1 visible for the team shown,
 * fading between. Published at FrameStart by `FogOfWarSystem`; any later extension may read it
 * (`frame.has(VisibilityGrid)` first).
 */
export class VisibilityGrid extends FrameRecord {
    #grid: FrameGraphHandle = -1;

    static override is_present_at(phase: FramePhase): boolean {
        void phase;
        return true;
    }

    get grid(): FrameGraphHandle {
        return this.read(this.#grid);
    }

    set grid(handle: FrameGraphHandle) {
        this.#grid = this.publish(handle);
    }

    override reset_for_reuse(): boolean {
        this.#grid = -1;
        return true;
    }
}
