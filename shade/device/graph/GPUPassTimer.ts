/** One pass's GPU time as last measured. */
export interface PassTiming {
    name: string;
    /** The outermost graph scope the pass ran in (the extension that recorded it), or null for built-in steps. */
    scope: string | null;
    /** Milliseconds between the pass's begin and end timestamps. */
    ms: number;
}

const MAX_PASSES = 128;
const RING = 3;

interface Readback {
    buffer: GPUBuffer;
    busy: boolean;
    count: number;
    readonly names: string[];
    readonly scopes: (string | null)[];
}

/** GPU time of one graph scope (an extension): the sum of its passes' times. */
export interface ScopeTiming {
    name: string;
    ms: number;
    /** How many of its passes were timed. */
    passes: number;
}

/**
 * GPU time per graph pass through `timestamp-query`: the graph hands each executed pass a
 * `timestampWrites` for its render or compute pass (`execution.timestamp_writes`), resolves the queries at
 * the end of the frame and reads them back a few frames later, without stalling. `timings` holds the latest
 * complete frame. Needs a device created with the `timestamp-query` feature.
 */
export class GPUPassTimer {
    readonly device: GPUDevice;
    /** The latest frame's timings, in execution order; entries are reused. */
    readonly timings: PassTiming[] = [];
    timing_count = 0;
    /** The latest frame's time per outermost scope (per extension), in order of first appearance; entries are reused. */
    readonly scope_timings: ScopeTiming[] = [];
    scope_timing_count = 0;

    readonly #query_set: GPUQuerySet;
    readonly #resolve: GPUBuffer;
    readonly #ring: Readback[] = [];
    readonly #writes: GPURenderPassTimestampWrites[] = [];
    readonly #names: string[] = [];
    readonly #scopes: (string | null)[] = [];
    #count = 0;

    constructor(device: GPUDevice) {
        if (!device.features.has("timestamp-query")) {
            throw new Error("GPUPassTimer: the device was created without the 'timestamp-query' feature");
        }
        this.device = device;
        this.#query_set = device.createQuerySet({ label: "pass timestamps", type: "timestamp", count: MAX_PASSES * 2 });
        this.#resolve = device.createBuffer({
            label: "pass timestamps resolve",
            size: MAX_PASSES * 16,
            usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
        });
        for (let i = 0; i < RING; i++) {
            this.#ring.push({
                buffer: device.createBuffer({ label: `pass timestamps readback ${i}`, size: MAX_PASSES * 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
                busy: false,
                count: 0,
                names: [],
                scopes: [],
            });
        }
        for (let i = 0; i < MAX_PASSES; i++) {
            this.#writes.push({ querySet: this.#query_set, beginningOfPassWriteIndex: i * 2, endOfPassWriteIndex: i * 2 + 1 });
        }
    }

    /** Starts a frame's measurements. */
    begin_frame(): void {
        this.#count = 0;
    }

    /** The timestamp writes for the next pass (named `name`), or undefined past the capacity. */
    next(name: string, scope: string | null = null): GPURenderPassTimestampWrites | undefined {
        if (this.#count >= MAX_PASSES) return undefined;
        this.#names[this.#count] = name;
        this.#scopes[this.#count] = scope;
        return this.#writes[this.#count++];
    }

    /**
     * Resolves this frame's queries and copies them to a free read-back buffer (skipped when all are still
     * being read: a frame without numbers rather than a stall). Call after the last pass, before `finish`.
     * Every pass handed a write must have used it: an unused index reads as garbage.
     */
    end_frame(encoder: GPUCommandEncoder): Readback | null {
        if (this.#count === 0) return null;
        let slot: Readback | null = null;
        for (let i = 0; i < this.#ring.length; i++) {
            if (!this.#ring[i].busy) {
                slot = this.#ring[i];
                break;
            }
        }
        if (slot === null) return null;
        encoder.resolveQuerySet(this.#query_set, 0, this.#count * 2, this.#resolve, 0);
        encoder.copyBufferToBuffer(this.#resolve, 0, slot.buffer, 0, this.#count * 16);
        slot.busy = true;
        slot.count = this.#count;
        for (let i = 0; i < this.#count; i++) {
            slot.names[i] = this.#names[i];
            slot.scopes[i] = this.#scopes[i];
        }
        return slot;
    }

    /** Starts reading a resolved frame back (call after submit with what `end_frame` returned). */
    read(slot: Readback | null): void {
        if (slot === null) return;
        slot.buffer.mapAsync(GPUMapMode.READ).then(
            () => {
                const times = new BigUint64Array(slot.buffer.getMappedRange(0, slot.count * 16));
                for (let i = 0; i < slot.count; i++) {
                    let t = this.timings[i];
                    if (t === undefined) {
                        t = { name: "", scope: null, ms: 0 };
                        this.timings.push(t);
                    }
                    t.name = slot.names[i];
                    t.scope = slot.scopes[i];
                    t.ms = Number(times[i * 2 + 1] - times[i * 2]) / 1e6;
                }
                this.timing_count = slot.count;
                this.#sum_scopes();
                slot.buffer.unmap();
                slot.busy = false;
            },
            () => {
                slot.busy = false; // a lost device: nothing to read
            },
        );
    }

    /** GPU milliseconds of scope `name` (an extension's passes summed) in the latest timed frame; 0 when it ran none. */
    scope_ms(name: string): number {
        for (let i = 0; i < this.scope_timing_count; i++) if (this.scope_timings[i].name === name) return this.scope_timings[i].ms;
        return 0;
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

    destroy(): void {
        this.#query_set.destroy();
        this.#resolve.destroy();
        for (const slot of this.#ring) slot.buffer.destroy();
    }
}
