/**
 * The steps a resolution scale is rounded to: 1/64 (about 1.6%, the size of change a dynamic-resolution
 * controller acts on; Unreal's default threshold is 2%). The internal textures are exactly the internal size,
 * so every pass and extension samples them edge to edge; rounding the scale, rather than rendering into a
 * viewport of a larger texture, keeps that true, and still bounds the sizes a scale moving every frame makes:
 * at most 64 per unit of scale, of which a controller settling between 0.5 and 1 visits 33.
 */
export const RESOLUTION_SCALE_STEP = 1 / 64;

/** `scale` in whole steps of `RESOLUTION_SCALE_STEP`, at least 1. */
export function resolution_steps(scale: number): number {
    return Math.max(1, Math.round(scale * 64)) | 0;
}

/**
 * The internal size of one output dimension at `steps` 64ths of the output (see `resolution_steps`), at least 1.
 * Integers in and out: the renderer calls it every frame, and a double crossing a call that is not inlined is boxed.
 */
export function internal_extent_of_steps(output: number, steps: number): number {
    return Math.max(1, Math.round((output * steps) / 64)) | 0;
}

/** The internal size of one output dimension at `scale` (rounded to `RESOLUTION_SCALE_STEP`), at least 1. */
export function internal_extent(output: number, scale: number): number {
    return internal_extent_of_steps(output, resolution_steps(scale));
}
