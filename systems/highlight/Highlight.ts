import { MAX_ENTITIES } from "../../engine/EntityManager.js";

/**
 * Outlines its entity's mesh (the one named with `HighlightSystem.set_mesh`), drawn by `HighlightSystem`.
 * A bitecs component of typed arrays.
 */
export const Highlight = {
    /** RGBA at `eid * 4` (linear, straight alpha). */
    color: new Float32Array(MAX_ENTITIES * 4),
    /** Outline width in pixels of the internal resolution. */
    width: new Float32Array(MAX_ENTITIES),
};
