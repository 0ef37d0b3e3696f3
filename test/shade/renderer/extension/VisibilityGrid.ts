import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { FrameRecord } from "../../../../shade/renderer/extension/FrameRecord.js";

// The seed's custom record, with TypeScript types added and nothing else changed.
export class VisibilityGrid extends FrameRecord {
    #grid = -1;

    static override is_present_at(phase: FramePhase): boolean {
        return true;
    }

    get grid(): number {
        return this.read(this.#grid);
    }

    set grid(handle: number) {
        this.#grid = this.publish(handle);
    }
}
