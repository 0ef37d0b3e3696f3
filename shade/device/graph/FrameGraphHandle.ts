/**
 * A versioned reference to a graph texture. A plain number so that records can hold `-1` for "unset";
 * the graph checks every handle it is given (frame, declaration, version) and names what is wrong.
 */
export type FrameGraphHandle = number;

/** The value records use for "no handle yet". */
export const NO_HANDLE: FrameGraphHandle = -1;

// handle = epoch * 2^INDEX_BITS + node index; the epoch catches a handle carried over from an earlier frame.
// The epoch counts frames up to 2^32 (over two years at 60 frames a second) before it wraps, so a stale handle
// is caught however old it is; handles stay exact doubles (< 2^52) and `handle & INDEX_MASK` is the index.
export const INDEX_BITS = 20;
export const INDEX_MASK = (1 << INDEX_BITS) - 1;
export const EPOCH_STRIDE = 2 ** INDEX_BITS;
export const EPOCH_LIMIT = 2 ** 32;
