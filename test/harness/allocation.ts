// Young-generation bytes per call of a frame function, for the allocation tests.
//
// Method: a full gc(), then the young generation's used size (new space + new large-object space) before and
// after a synchronous run of frames; nothing else runs on the JS thread inside a synchronous loop, so the growth
// is what the loop allocated, provided no scavenge ran inside it (such a window is discarded). The reading
// itself allocates its statistics array: an empty reading calibrates it. The smallest JS object is 12-16 bytes,
// so one per frame shows.
//
// Steady state. V8 optimises a hot function on a background thread and installs the code when the job is done;
// until then the function runs in a lower tier that boxes doubles (a HeapNumber per float read from a typed
// array). On a loaded 2-core machine the job can lag a warm-up of a few hundred milliseconds, so a single
// measurement right after warm-up can see the lower tier's boxing (CI once saw 1392 B/frame from debug draw,
// 0 everywhere else). `steady_bytes_per_frame` therefore measures in rounds, running more warm-up and yielding
// the CPU between rounds, until the figures are accepted or the rounds run out. An allocation in our code is
// there in every round, so it still fails.
import { Session } from "node:inspector/promises";
import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";

v8.setFlagsFromString("--expose-gc");
/** A full garbage collection (gc exposed at run time). */
export const gc = runInNewContext("gc") as () => void;

/** Bytes in the young generation now. */
export function young_bytes(): number {
    const spaces = v8.getHeapSpaceStatistics();
    let bytes = 0;
    for (let i = 0; i < spaces.length; i++) {
        const name = spaces[i].space_name;
        if (name === "new_space" || name === "new_large_object_space") bytes += spaces[i].space_used_size;
    }
    return bytes;
}

/** Bytes per call of `frame` over `n` calls right after a full GC; null when a scavenge ran inside the window. */
export function window_bytes(frame: () => void, n: number): number | null {
    gc();
    const c0 = young_bytes();
    const c1 = young_bytes();
    const b0 = young_bytes();
    for (let i = 0; i < n; i++) frame();
    const b1 = young_bytes();
    if (b1 < b0) return null;
    return Math.max(0, b1 - b0 - (c1 - c0)) / n;
}

/**
 * Bytes per call of `frame` over a window of up to `frames` calls right after a full GC (and the window's length),
 * told by a PerformanceObserver of GC entries instead of the young generation shrinking: a window any GC landed in
 * is discarded and the next one halved (down to 8 calls). Throws when a GC landed in every window.
 */
export async function observed_bytes_per_frame(frame: () => void, frames: number): Promise<{ bytes: number; frames: number }> {
    let gcs = 0;
    const observer = new PerformanceObserver((list) => {
        gcs += list.getEntries().length;
    });
    observer.observe({ entryTypes: ["gc"] });
    const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));
    try {
        for (let n = frames; n >= 8; n >>= 1) {
            gc();
            await settle();
            const before = gcs;
            const c0 = young_bytes();
            const c1 = young_bytes();
            const b0 = young_bytes();
            for (let i = 0; i < n; i++) frame();
            const b1 = young_bytes();
            // the observer's entries arrive after the loop yields
            await settle();
            if (gcs === before) return { bytes: Math.max(0, b1 - b0 - (c1 - c0)) / n, frames: n };
        }
    } finally {
        observer.disconnect();
    }
    throw new Error("observed_bytes_per_frame: a GC landed in every window");
}

function median(values: number[]): number {
    values.sort((a, b) => a - b);
    return values[values.length >> 1];
}

/**
 * For each frame function, the median over `windows` windows of `n` calls of the bytes per call, the functions'
 * windows interleaved (so that a reference and the code under test see the same conditions). Throws when a
 * scavenge landed in too many windows to have `windows` of them.
 */
export function window_medians(frames: readonly (() => void)[], n: number, windows = 5): number[] {
    const readings = frames.map((): number[] => []);
    for (let attempt = 0; attempt < 3 * windows && readings.some((r) => r.length < windows); attempt++) {
        for (let f = 0; f < frames.length; f++) {
            if (readings[f].length >= windows) continue;
            const bytes = window_bytes(frames[f], n);
            if (bytes !== null) readings[f].push(bytes);
        }
    }
    if (readings.some((r) => r.length < windows)) throw new Error(`window_medians: a scavenge landed in most windows of ${n} frames; use shorter windows`);
    return readings.map(median);
}

/** How `steady_bytes_per_frame` measures. */
export interface SteadyOptions {
    /** Calls per window. */
    window: number;
    /** Windows per reading (median). Default 5. */
    windows?: number;
    /** Whether a reading (one median per frame function) is the steady state the test expects. */
    accept: (medians: readonly number[]) => boolean;
    /** Extra warm-up calls of each function between rounds. Default 4 windows. */
    warm?: number;
    /** Readings at most. Default 6. */
    rounds?: number;
}

/** The accepted reading, or the last one when no reading was accepted, and how many readings it took. */
export interface SteadyReading {
    medians: number[];
    rounds: number;
    accepted: boolean;
    /** When no reading was accepted: where the frames allocate (`allocation_sites`), heaviest first. */
    sites: string[];
}

interface SamplingNode {
    callFrame: { functionName: string; url: string; lineNumber: number };
    selfSize: number;
    children: SamplingNode[];
}

/**
 * Where `frame` allocates: V8's sampling heap profiler over `n` calls, as "<bytes per call> B/call: f <- g <- h"
 * (the allocating function first, then its callers), heaviest first; the profiler's own bookkeeping is left out.
 * A function the JIT inlined is counted in the function it was inlined into. For the log of a failing allocation
 * test: it names where to look instead of a byte count alone.
 */
export async function allocation_sites(frame: () => void, n: number, top = 5): Promise<string[]> {
    const session = new Session();
    session.connect();
    try {
        await session.post("HeapProfiler.startSampling", { samplingInterval: 32 });
        // the awaits keep this loop from being compiled on the stack (V8 does not OSR resumable functions), so
        // `frame` is not inlined here and its callees keep their own names in the profile
        for (let i = 0; i < n; i++) {
            frame();
            if ((i & 7) === 7) await null;
        }
        const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: { head: SamplingNode } };
        const rows: { bytes: number; stack: string }[] = [];
        const walk = (node: SamplingNode, callers: string[]): void => {
            const name = `${node.callFrame.functionName || "(anonymous)"} (${node.callFrame.url.split("/").pop()}:${node.callFrame.lineNumber + 1})`;
            const stack = [name, ...callers];
            // the profiler's own promises and messages come from node internals (node:*, util) or no script at all
            const url = node.callFrame.url;
            const ours = url !== "" && !url.startsWith("node:") && !/^[a-z_]+$/.test(url);
            if (node.selfSize > 0 && ours) rows.push({ bytes: node.selfSize, stack: stack.slice(0, 4).join(" <- ") });
            for (const child of node.children) walk(child, stack);
        };
        walk(profile.head, []);
        rows.sort((a, b) => b.bytes - a.bytes);
        return rows.slice(0, top).map((r) => `${(r.bytes / n).toFixed(1)} B/call: ${r.stack}`);
    } finally {
        session.disconnect();
    }
}

/** Reads `window_medians` in rounds (more warm-up and a pause between them) until `accept` takes a reading. */
export async function steady_bytes_per_frame(frames: readonly (() => void)[], options: SteadyOptions): Promise<SteadyReading> {
    const rounds = options.rounds ?? 6;
    const warm = options.warm ?? 4 * options.window;
    let medians: number[] = [];
    for (let round = 1; round <= rounds; round++) {
        medians = window_medians(frames, options.window, options.windows ?? 5);
        if (options.accept(medians)) return { medians, rounds: round, accepted: true, sites: [] };
        if (round === rounds) break;
        for (const frame of frames) for (let i = 0; i < warm; i++) frame();
        // give the background compiler the CPU, then let it install its code
        await new Promise((resolve) => setTimeout(resolve, 100 * round));
    }
    const sites: string[] = [];
    for (let f = 0; f < frames.length; f++) {
        for (const site of await allocation_sites(frames[f], options.window)) sites.push(`frame function ${f}: ${site}`);
    }
    console.warn(`steady_bytes_per_frame: no steady reading after ${rounds} rounds (${medians.map((m) => m.toFixed(1)).join(", ")} B/frame); where it allocates:\n  ${sites.join("\n  ")}`);
    return { medians, rounds, accepted: false, sites };
}

function estimate(frame: () => void, short: number): number {
    const runs: number[] = [];
    for (const n of [short, 2 * short]) {
        gc();
        const before = young_bytes();
        for (let i = 0; i < n; i++) frame();
        runs.push(young_bytes() - before);
    }
    return runs[0] < 0 || runs[1] < runs[0] ? Number.POSITIVE_INFINITY : (runs[1] - runs[0]) / short;
}

/**
 * The median over `trials` of the bytes one call of `frame` leaves in the young generation, from runs of `short`
 * and `2 * short` calls (their difference cancels what the measurement itself costs).
 */
export function bytes_per_frame(frame: () => void, short: number, trials: number): number {
    const estimates: number[] = [];
    for (let t = 0; t < trials; t++) estimates.push(estimate(frame, short));
    return median(estimates);
}
