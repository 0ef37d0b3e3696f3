/** One pass's GPU time as last measured. */
export interface PassTiming {
    name: string;
    /** The outermost graph scope the pass ran in (the extension that recorded it), or null for built-in steps. */
    scope: string | null;
    /** Milliseconds between the pass's begin and end timestamps. */
    ms: number;
}

/** GPU time of one graph scope (an extension): the sum of its passes' times. */
export interface ScopeTiming {
    name: string;
    ms: number;
    /** How many of its passes were timed. */
    passes: number;
}

export interface GPUPassTimerOptions {
    /**
     * Frames resolved into one read-back buffer before it is mapped: one `mapAsync` (and its promise) per this
     * many frames. Larger: less garbage, later numbers. Default `GPUPassTimer.FRAMES_PER_READ`.
     */
    readonly frames_per_read?: number;
}

const MAX_PASSES = 128;
/** Bytes of one frame's resolved timestamps (two u64 per pass); a multiple of 256, as resolveQuerySet wants. */
const FRAME_BYTES = MAX_PASSES * 16;
/** Read-back buffers: one filling, one or two being mapped. */
const RING = 3;

/** One read-back buffer: `frames_per_read` frames of timestamps, with their pass names, mapped once when full. */
class Readback {
    readonly buffer: GPUBuffer;
    /** Mapping, or mapped and not yet read: no frame may be copied into it. */
    busy = false;
    /** Frames copied in so far. */
    frames = 0;
    /** Passes per frame. */
    readonly counts: Int32Array;
    readonly names: string[] = [];
    readonly scopes: (string | null)[] = [];
    // built once: mapAsync(...).then(on_mapped, on_failed) makes no closure per read
    readonly on_mapped: () => void;
    readonly on_failed: () => void;

    constructor(device: GPUDevice, index: number, frames: number, land: (slot: Readback) => void) {
        this.buffer = device.createBuffer({
            label: `pass timestamps readback ${index}`,
            size: frames * FRAME_BYTES,
            usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
        });
        this.counts = new Int32Array(frames);
        this.on_mapped = () => land(this);
        this.on_failed = () => {
            this.busy = false; // a lost or destroyed device: nothing to read
            this.frames = 0;
        };
    }
}

/**
 * GPU time per graph pass through `timestamp-query`: the graph hands each executed pass a `timestampWrites`
 * for its render or compute pass (`execution.timestamp_writes`); at the end of the frame the queries are
 * resolved and copied into a read-back buffer that holds `frames_per_read` frames, which is mapped once full:
 * one `mapAsync` per that many frames, its callbacks built once, the numbers read as 32-bit halves (no BigInt),
 * so a steady frame allocates nothing in this class. Never stalls: with every buffer still mapping, a frame
 * goes untimed. `timings` holds the latest frame read back; `on_frame`, when set, sees every frame of a batch
 * in order. Needs a device created with the `timestamp-query` feature.
 */
export class GPUPassTimer {
    /** Frames per read-back by default (see `GPUPassTimerOptions.frames_per_read`). */
    static readonly FRAMES_PER_READ = 8;

    readonly device: GPUDevice;
    readonly frames_per_read: number;
    /** The latest frame's timings, in execution order; entries are reused. */
    readonly timings: PassTiming[] = [];
    timing_count = 0;
    /** The latest frame's time per outermost scope (per extension), in order of first appearance; entries are reused. */
    readonly scope_timings: ScopeTiming[] = [];
    scope_timing_count = 0;
    /** Frames read back so far. */
    frames_read = 0;
    /** `mapAsync` calls so far (one per `frames_per_read` timed frames). */
    maps = 0;
    /**
     * Called once per frame read back, in frame order, with `timings` and `scope_timings` holding that frame:
     * how a benchmark sees every frame although the numbers arrive in batches.
     */
    on_frame: ((timer: GPUPassTimer) => void) | null = null;

    readonly #query_set: GPUQuerySet;
    readonly #resolve: GPUBuffer;
    readonly #ring: Readback[] = [];
    readonly #writes: GPURenderPassTimestampWrites[] = [];
    readonly #names: string[] = [];
    readonly #scopes: (string | null)[] = [];
    #count = 0;
    /** The ring buffer frames are copied into now, or -1 when all are busy. */
    #filling = 0;
    #destroyed = false;

    constructor(device: GPUDevice, options: GPUPassTimerOptions = {}) {
        if (!device.features.has("timestamp-query")) {
            throw new Error("GPUPassTimer: the device was created without the 'timestamp-query' feature");
        }
        const frames = options.frames_per_read ?? GPUPassTimer.FRAMES_PER_READ;
        if (!(Number.isInteger(frames) && frames >= 1 && frames <= 64)) {
            throw new RangeError(`GPUPassTimer: frames_per_read must be a whole number in [1, 64], got ${String(frames)}`);
        }
        this.device = device;
        this.frames_per_read = frames;
        this.#query_set = device.createQuerySet({ label: "pass timestamps", type: "timestamp", count: MAX_PASSES * 2 });
        this.#resolve = device.createBuffer({
            label: "pass timestamps resolve",
            size: FRAME_BYTES,
            usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
        });
        const land = (slot: Readback) => this.#land(slot);
        for (let i = 0; i < RING; i++) this.#ring.push(new Readback(device, i, frames, land));
        for (let i = 0; i < MAX_PASSES; i++) {
            this.#writes.push({ querySet: this.#query_set, beginningOfPassWriteIndex: i * 2, endOfPassWriteIndex: i * 2 + 1 });
        }
    }

    /** Starts a frame's measurements. */
    begin_frame(): void {
        this.#count = 0;
    }

    /** The timestamp writes for the next pass (named `name`), or undefined past the capacity or while every read-back is busy. */
    next(name: string, scope: string | null = null): GPURenderPassTimestampWrites | undefined {
        if (this.#count >= MAX_PASSES || this.#free_slot() === null) return undefined;
        this.#names[this.#count] = name;
        this.#scopes[this.#count] = scope;
        return this.#writes[this.#count++];
    }

    /**
     * Resolves this frame's queries and copies them into the filling read-back buffer. Call after the last
     * pass, before `finish`; returns the buffer, to hand to `read` after submitting. Every pass handed a write
     * must have used it: an unused index reads as garbage.
     */
    end_frame(encoder: GPUCommandEncoder): Readback | null {
        if (this.#count === 0) return null;
        const slot = this.#free_slot();
        if (slot === null) return null;
        const frame = slot.frames;
        encoder.resolveQuerySet(this.#query_set, 0, this.#count * 2, this.#resolve, 0);
        encoder.copyBufferToBuffer(this.#resolve, 0, slot.buffer, frame * FRAME_BYTES, this.#count * 16);
        slot.counts[frame] = this.#count;
        const base = frame * MAX_PASSES;
        for (let i = 0; i < this.#count; i++) {
            slot.names[base + i] = this.#names[i];
            slot.scopes[base + i] = this.#scopes[i];
        }
        slot.frames = frame + 1;
        return slot;
    }

    /** After submit, with what `end_frame` returned: maps the read-back buffer once it holds `frames_per_read` frames. */
    read(slot: Readback | null): void {
        if (slot === null || slot.frames < this.frames_per_read) return;
        slot.busy = true;
        this.maps++;
        // the next frames fill the next buffer while this one maps
        this.#filling = (this.#ring.indexOf(slot) + 1) % RING;
        slot.buffer.mapAsync(GPUMapMode.READ).then(slot.on_mapped, slot.on_failed);
    }

    /** GPU milliseconds of scope `name` (an extension's passes summed) in the latest timed frame; 0 when it ran none. */
    scope_ms(name: string): number {
        for (let i = 0; i < this.scope_timing_count; i++) if (this.scope_timings[i].name === name) return this.scope_timings[i].ms;
        return 0;
    }

    destroy(): void {
        this.#destroyed = true;
        this.#query_set.destroy();
        this.#resolve.destroy();
        for (const slot of this.#ring) slot.buffer.destroy();
    }

    // The buffer this frame's timestamps go into: the filling one while it is free, else the next free one.
    #free_slot(): Readback | null {
        for (let k = 0; k < RING; k++) {
            const slot = this.#ring[(this.#filling + k) % RING];
            if (!slot.busy) return slot;
        }
        return null;
    }

    #land(slot: Readback): void {
        if (this.#destroyed) return;
        // one view per batch; timestamps are u64 nanoseconds, read as (low, high) u32 pairs
        const words = new Uint32Array(slot.buffer.getMappedRange(0, slot.frames * FRAME_BYTES));
        for (let f = 0; f < slot.frames; f++) {
            const count = slot.counts[f];
            const at = f * (FRAME_BYTES >> 2);
            const base = f * MAX_PASSES;
            for (let i = 0; i < count; i++) {
                let t = this.timings[i];
                if (t === undefined) {
                    t = { name: "", scope: null, ms: 0 };
                    this.timings.push(t);
                }
                const w = at + i * 4;
                t.name = slot.names[base + i];
                t.scope = slot.scopes[base + i];
                t.ms = ((words[w + 3] - words[w + 1]) * 4294967296 + (words[w + 2] - words[w])) / 1e6;
            }
            this.timing_count = count;
            this.#sum_scopes();
            this.frames_read++;
            this.on_frame?.(this);
        }
        slot.buffer.unmap();
        slot.frames = 0;
        slot.busy = false;
    }

    #sum_scopes(): void {
        const sums = this.scope_timings;
        let count = 0;
        for (let i = 0; i < this.timing_count; i++) {
            const scope = this.timings[i].scope;
            if (scope === null) continue;
            let k = 0;
            while (k < count && sums[k].name !== scope) k++;
            if (k === count) {
                if (sums[k] === undefined) sums.push({ name: scope, ms: 0, passes: 0 });
                sums[k].name = scope;
                sums[k].ms = 0;
                sums[k].passes = 0;
                count++;
            }
            sums[k].ms += this.timings[i].ms;
            sums[k].passes++;
        }
        this.scope_timing_count = count;
    }
}
