import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "../extension/FramePhase.js";
import { FrameRecord } from "../extension/FrameRecord.js";

/**
 * The frame's cascaded shadow map of the sun, published at FrameStart by `ShadowExtension` and read by the
 * lighting step (and any later extension; `frame.has(ShadowMap)` first). `map` is the handle of a
 * `depth32float` atlas, the cascades side by side (cascade i in the i-th square from the left); `cascades`
 * is the uniform buffer laid out as `SHADOW_WGSL`'s `ShadowCascades` (matrices, split depths, bias).
 * Frames without a shadow extension carry no ShadowMap, and the lighting runs its shadowless shader.
 */
export class ShadowMap extends FrameRecord {
    #map: FrameGraphHandle = -1;
    #cascades: GPUBuffer | null = null;

    static override is_present_at(phase: FramePhase): boolean {
        void phase;
        return true;
    }

    static override is_writable_at(phase: FramePhase): boolean {
        return phase === FramePhase.FrameStart;
    }

    get map(): FrameGraphHandle {
        return this.read(this.#map, "map");
    }

    set map(handle: FrameGraphHandle) {
        this.#map = this.publish(handle, "map");
    }

    get cascades(): GPUBuffer {
        return this.read(this.#cascades, "cascades")!;
    }

    set cascades(buffer: GPUBuffer) {
        this.#cascades = this.publish(buffer, "cascades");
    }

    override reset_for_reuse(): boolean {
        this.#map = -1;
        this.#cascades = null;
        return true;
    }
}
