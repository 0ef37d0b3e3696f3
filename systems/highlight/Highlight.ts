import { PerEntity } from "../../engine/PerEntity.js";

/**
 * Outlines its entity's mesh (the one named with `HighlightSystem.set_mesh`), drawn by `HighlightSystem`.
 * A bitecs component of typed arrays.
 */
export const Highlight = PerEntity.define({
    /** RGBA at `eid * 4` (linear, straight alpha). */
    color: PerEntity.f32(4),
    /** Outline width in pixels of the internal resolution. */
    width: PerEntity.f32(),
});
