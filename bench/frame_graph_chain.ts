// The frame graph benchmarks' shared scene: 64 passes over 32 transient textures, recorded the same way by
// the Dawn benchmark (frame_graph.bench.ts) and the fake-executor GC benchmark (frame_graph_gc.bench.ts).
//
// Shape (every pass survives culling):
//   pass i, 0 <= i < 63: samples the previous pass's output (pass 0 samples the imported 'source') and renders
//                        into transient T[i % 32], created by passes 0..31 and written again ("clear") by
//                        passes 32..62;
//   pass 63:             samples pass 62's output and renders into the imported 'output'.
// T[j] is written by pass j, read by pass j + 1, rewritten by pass j + 32 and read by pass j + 33, so all 32
// lifetimes overlap and the pool holds 32 physical textures, the same count the hand-encoded baseline creates.
import type { FrameGraph } from "../shade/device/graph/FrameGraph.js";
import type { FrameGraphHandle } from "../shade/device/graph/FrameGraphHandle.js";
import type { FramePassExecute } from "../shade/device/graph/PassNode.js";
import type { TextureResourceDescriptor } from "../shade/device/graph/TextureResourceDescriptor.js";

export const PASS_COUNT = 64;
export const TRANSIENT_COUNT = 32;
export const SIZE = 64;
export const FORMAT: GPUTextureFormat = "rgba8unorm";

// WebGPU's numeric constants, spelled out so that the fake benchmark needs no WebGPU globals.
export const USAGE_COPY_SRC = 0x01;
export const USAGE_COPY_DST = 0x02;
export const USAGE_TEXTURE_BINDING = 0x04;
export const USAGE_RENDER_ATTACHMENT = 0x10;

/** Transient textures: rendered to, then sampled. */
export const TRANSIENT_USAGE = USAGE_RENDER_ATTACHMENT | USAGE_TEXTURE_BINDING;

/** What every pass of the chain carries; the handles are patched in place each frame (no allocation). */
export interface ChainPassData {
    readonly index: number;
    /** The texture this pass samples, this frame. */
    source: FrameGraphHandle;
    /** The version this pass renders, this frame. */
    target: FrameGraphHandle;
}

/** Index of the texture (0..31) pass `i` (< 63) renders into; -1 for the last pass (the imported output). */
export function target_of(i: number): number {
    return i === PASS_COUNT - 1 ? -1 : i % TRANSIENT_COUNT;
}

/** Index of the texture pass `i` samples: -1 for the imported source, else the previous pass's target. */
export function source_of(i: number): number {
    return i === 0 ? -1 : target_of(i - 1);
}

/**
 * Records the 64-pass chain on a graph. Names, per-pass data and the latest-version table are built once;
 * recording a frame allocates nothing on this side.
 */
export class ChainRecorder<D extends ChainPassData> {
    readonly pass_names: readonly string[];
    readonly texture_names: readonly string[];
    readonly data: readonly D[];
    readonly #execute: FramePassExecute<D>;
    readonly #latest: FrameGraphHandle[];

    constructor(data: readonly D[], execute: FramePassExecute<D>) {
        if (data.length !== PASS_COUNT) throw new RangeError(`ChainRecorder: ${PASS_COUNT} pass records expected, got ${data.length}`);
        this.data = data;
        this.#execute = execute;
        this.pass_names = Array.from({ length: PASS_COUNT }, (_, i) => `pass ${i}`);
        this.texture_names = Array.from({ length: TRANSIENT_COUNT }, (_, i) => `T${i}`);
        this.#latest = new Array<FrameGraphHandle>(TRANSIENT_COUNT).fill(-1);
    }

    /** Declares the frame's passes on `graph` (which must be freshly reset). */
    record<T, V>(
        graph: FrameGraph<T, V>,
        source: T,
        output: T,
        transient: TextureResourceDescriptor,
        imported: TextureResourceDescriptor,
    ): void {
        const latest = this.#latest;
        let previous = graph.import_texture("source", source, imported);
        const out = graph.import_texture("output", output, imported);
        for (let i = 0; i < PASS_COUNT; i++) {
            const d = this.data[i];
            const b = graph.add(this.pass_names[i], d, this.#execute);
            d.source = b.read(previous);
            const t = target_of(i);
            if (t === -1) {
                d.target = b.write(out, "clear");
            } else {
                const h = i < TRANSIENT_COUNT ? b.create(this.texture_names[t], transient) : latest[t];
                d.target = b.write(h, "clear");
                latest[t] = d.target;
            }
            previous = d.target;
        }
    }
}

/** Median of the first `n` values (sorts a copy). */
export function median(values: ArrayLike<number>, n: number = values.length): number {
    if (n === 0) return Number.NaN;
    const sorted = Float64Array.from({ length: n }, (_, i) => values[i]).sort();
    const mid = n >> 1;
    return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Value at quantile `q` (0..1) of the first `n` values. */
export function quantile(values: ArrayLike<number>, q: number, n: number = values.length): number {
    const sorted = Float64Array.from({ length: n }, (_, i) => values[i]).sort();
    return sorted[Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))))];
}

/** A plain fixed-width table for the console. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
    const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
    const line = (cells: readonly string[]) => cells.map((s, c) => (c === 0 ? s.padEnd(widths[c]) : s.padStart(widths[c]))).join("  ");
    return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
