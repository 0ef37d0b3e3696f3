/**
 * The steps a resolution scale is rounded to: 1/64 (about 1.6%, the size of change a dynamic-resolution
 * controller acts on; Unreal's default threshold is 2%). The internal textures are exactly the internal size,
 * so every pass and extension samples them edge to edge; rounding the scale, rather than rendering into a
 * viewport of a larger texture, keeps that true, and still bounds the sizes a scale moving every frame makes:
 * at most 64 per unit of scale, of which a controller settling between 0.5 and 1 visits 33.
 */
export const RESOLUTION_SCALE_STEP = 1 / 64;

/** The internal size of one output dimension at `scale` (rounded to `RESOLUTION_SCALE_STEP`), at least 1. */
export function internal_extent(output: number, scale: number): number {
    const steps = Math.max(1, Math.round(scale / RESOLUTION_SCALE_STEP));
    // `| 0`: an int32 is returned as a small integer; a double result would be boxed on the heap every frame
    return Math.max(1, Math.round((output * steps) / 64)) | 0;
}
