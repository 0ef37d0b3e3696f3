import type { FramePhase } from "../extension/FramePhase.js";
import { FrameRecord, type FrameRecordClass } from "../extension/FrameRecord.js";

/** A frame product class, as `RenderExtension.requires` names it. */
export type FrameProductClass<P extends FrameProduct = FrameProduct> = FrameRecordClass<P> & { readonly is_frame_product: true };

/**
 * An optional product of the frame (Shade's `FrameProduct`): the renderer makes it only in frames where some
 * registered extension of the phase declares it in `requires`, and carries it as a read-only record there;
 * nobody declaring it costs nothing (no pass, no texture). Subclasses say where it can exist (`is_present_at`).
 */
export class FrameProduct extends FrameRecord {
    static readonly is_frame_product = true as const;

    /** Products are made by the renderer: extensions only read them. */
    static override is_writable_at(phase: FramePhase): boolean {
        void phase;
        return false;
    }
}

/** Whether `value` is a FrameProduct class (for checking `requires`). */
export function is_frame_product_class(value: unknown): value is FrameProductClass {
    return typeof value === "function" && value.prototype instanceof FrameProduct;
}

