// Young-generation bytes per call of a frame function, for the allocation tests.
//
// Method: a full gc(), then the new space's used size before and after synchronous runs of N and 2N frames; the
// difference over N is bytes per frame (a trial in which a scavenge ran is discarded); the median of several
// trials drops what the JIT allocates while it settles. The smallest JS object is 12-16 bytes, so one per frame
// shows.
import v8 from "node:v8";
import { runInNewContext } from "node:vm";

v8.setFlagsFromString("--expose-gc");
/** A full garbage collection (gc exposed at run time). */
export const gc = runInNewContext("gc") as () => void;

function new_space_used(): number {
    const spaces = v8.getHeapSpaceStatistics();
    for (let i = 0; i < spaces.length; i++) if (spaces[i].space_name === "new_space") return spaces[i].space_used_size;
    throw new Error("no new_space in v8.getHeapSpaceStatistics()");
}

function estimate(frame: () => void, short: number): number {
    const runs: number[] = [];
    for (const n of [short, 2 * short]) {
        gc();
        const before = new_space_used();
        for (let i = 0; i < n; i++) frame();
        runs.push(new_space_used() - before);
    }
    return runs[0] < 0 || runs[1] < runs[0] ? Number.POSITIVE_INFINITY : (runs[1] - runs[0]) / short;
}

/** The median over `trials` of the bytes one call of `frame` leaves in the young generation. */
export function bytes_per_frame(frame: () => void, short: number, trials: number): number {
    const estimates: number[] = [];
    for (let t = 0; t < trials; t++) estimates.push(estimate(frame, short));
    return estimates.sort((a, b) => a - b)[trials >> 1];
}
