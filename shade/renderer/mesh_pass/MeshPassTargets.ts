import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FramePhase } from "../extension/FramePhase.js";
import { FrameRecord } from "../extension/FrameRecord.js";

/**
 * The owned targets that mesh passes drew this frame, by extension name: a mesh pass with a `target` publishes
 * its texture's handle here in the phase it records at, and any later extension samples it with
 * `frame.get(MeshPassTargets).get(name)` (test `has(name)` first: a pass with no mesh to draw records and
 * publishes nothing). Carried at every phase.
 */
export class MeshPassTargets extends FrameRecord {
    readonly #names: string[] = [];
    readonly #handles: FrameGraphHandle[] = [];
    #count = 0;

    static override is_present_at(phase: FramePhase): boolean {
        void phase;
        return true;
    }

    static override is_writable_at(phase: FramePhase): boolean {
        void phase;
        return true;
    }

    /** Whether a pass named `name` published its target this frame. */
    has(name: string): boolean {
        return this.#index(name) >= 0;
    }

    /** This frame's handle of the target of the pass named `name`. */
    get(name: string): FrameGraphHandle {
        const i = this.#index(name);
        if (i < 0) {
            throw new Error(`MeshPassTargets.get('${name}'): no mesh pass of that name published a target this frame (it had no mesh to draw, or is not registered); test has('${name}') first`);
        }
        return this.read(this.#handles[i], name);
    }

    /** @internal published by the mesh pass that wrote the target */
    set(name: string, handle: FrameGraphHandle): void {
        let i = this.#index(name);
        if (i < 0) {
            i = this.#count++;
            this.#names[i] = name;
        }
        this.#handles[i] = this.publish(handle, name);
    }

    #index(name: string): number {
        for (let i = 0; i < this.#count; i++) if (this.#names[i] === name) return i;
        return -1;
    }

    override reset_for_reuse(): boolean {
        this.#count = 0;
        return true;
    }
}
