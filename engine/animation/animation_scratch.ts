/**
 * @internal The sample time and interpolation factor handed between the sampling functions. A double passed as an
 * argument to a call the JIT does not inline is boxed (a heap number per call, per channel, per frame); read from
 * a typed array it is not. Written just before each call that reads it; nothing is kept here between calls.
 */
export const ANIMATION_SCRATCH = new Float64Array(2);

/** @internal Index of the sample time (seconds) in ANIMATION_SCRATCH. */
export const SCRATCH_TIME = 0;
/** @internal Index of the interpolation factor (0..1) in ANIMATION_SCRATCH. */
export const SCRATCH_FACTOR = 1;
