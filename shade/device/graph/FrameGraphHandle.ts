/**
 * A versioned reference to a graph texture. A plain number so that records can hold `-1` for "unset";
 * the graph checks every handle it is given (frame, declaration, version) and names what is wrong.
 */
export type FrameGraphHandle = number;

/** The value records use for "no handle yet". */
export const NO_HANDLE: FrameGraphHandle = -1;

// handle = epoch << INDEX_BITS | node index; the epoch catches a handle carried over from an earlier frame
export const INDEX_BITS = 20;
export const INDEX_MASK = (1 << INDEX_BITS) - 1;
export const EPOCH_MASK = 0xff;
