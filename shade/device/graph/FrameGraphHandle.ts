/**
 * A versioned reference to a graph texture. A plain number so that records can hold `-1` for "unset";
 * the graph checks every handle it is given (frame, declaration, version) and names what is wrong.
 */
export type FrameGraphHandle = number;

/** The value records use for "no handle yet". */
export const NO_HANDLE: FrameGraphHandle = -1;

// handle = epoch * 2^INDEX_BITS + node index; the epoch catches a handle carried over from an earlier frame.
// Handles must stay small integers (V8 Smis, below 2^30): a larger number, or one computed through `**` (a
// double in V8), is boxed on the heap wherever it is returned or stored - garbage on every frame, in the graph
// and in every extension that keeps a handle in a field. So index and epoch share 30 bits: 2^16 resource
// versions a frame (far above what real frames declare; more throws), and a 14-bit epoch that wraps after
// 16,384 frames (over four minutes at 60 frames a second). A handle kept exactly a multiple of that long and
// still pointing at a live index is the one case it misses; records kept past their frame are caught apart.
export const INDEX_BITS = 16;
export const INDEX_MASK = (1 << INDEX_BITS) - 1;
export const EPOCH_STRIDE = 1 << INDEX_BITS;
export const EPOCH_LIMIT = 1 << (30 - INDEX_BITS);
