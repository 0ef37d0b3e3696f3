/** Bytes per line instance: a (3 x f32), b (3 x f32), RGBA8 colour. */
export const LINE_BYTES = 28;
export const LINE_WORDS = LINE_BYTES / 4;

/**
 * A growable array of line instances in the GPU's vertex layout (`LINE_BYTES` each), written in place: into its
 * own CPU arrays, or (one-frame lines) straight into a mapped staging buffer the extension attached (`stage`).
 * Timed lines also keep when they expire.
 */
export class DebugLines {
    count = 0;
    /** Where lines are written: the own CPU arrays, or a mapped staging range (`slot` >= 0). */
    f32: Float32Array<ArrayBuffer>;
    u32: Uint32Array<ArrayBuffer>;
    /** Expiry time per line (timed lines only). */
    expiry: Float64Array<ArrayBuffer>;
    /** Changes when the contents change (timed lines are uploaded only then). */
    version = 0;
    /**
     * The staging slot whose mapped range `f32`/`u32` view (the extension's `DebugLineStaging`), -1 while the
     * lines are in the CPU arrays.
     */
    slot = -1;
    readonly #timed: boolean;
    #cpu_f32: Float32Array<ArrayBuffer>;
    #cpu_u32: Uint32Array<ArrayBuffer>;
    // capacity of the current target in lines, a field: `f32.length / LINE_WORDS` per push is a division
    #limit: number;

    constructor(capacity: number, timed: boolean) {
        this.#timed = timed;
        const buffer = new ArrayBuffer(capacity * LINE_BYTES);
        this.f32 = this.#cpu_f32 = new Float32Array(buffer);
        this.u32 = this.#cpu_u32 = new Uint32Array(buffer);
        this.#limit = capacity;
        this.expiry = new Float64Array(timed ? capacity : 0);
    }

    get capacity(): number {
        return this.#limit;
    }

    /** The bytes the lines are in (the mapped range while staged). */
    get bytes(): ArrayBuffer {
        return this.f32.buffer;
    }

    /**
     * Writes from now on into a mapped staging range (`f32`/`u32` over the same bytes); only while empty. The
     * lines go back to the CPU arrays, kept, when they outgrow it (`slot` is -1 again).
     */
    stage(f32: Float32Array<ArrayBuffer>, u32: Uint32Array<ArrayBuffer>, slot: number): void {
        if (this.count !== 0 || this.#timed) throw new Error("DebugLines.stage: only an empty one-frame store writes into a staging range");
        this.f32 = f32;
        this.u32 = u32;
        this.#limit = Math.floor(f32.length / LINE_WORDS);
        this.slot = slot;
    }

    /** Back to the CPU arrays; with `keep`, the staged lines are copied there first (else they went to the GPU). */
    unstage(keep: boolean): void {
        if (this.slot < 0) return;
        if (keep) this.#to_cpu(this.#limit);
        this.f32 = this.#cpu_f32;
        this.u32 = this.#cpu_u32;
        this.#limit = this.#cpu_f32.length / LINE_WORDS;
        this.slot = -1;
    }

    /**
     * Appends the line from `a[ai..ai+2]` to `b[bi..bi+2]` with colour `color[c..c+3]` (0..1, clamped, straight
     * alpha). Returns its index. Arrays and offsets rather than numbers: a double passed to a call that is
     * not inlined is boxed, which would allocate per line.
     */
    push(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, color: ArrayLike<number>, c: number): number {
        const i = this.count;
        if (i >= this.#limit) this.#grow();
        this.count = i + 1;
        const at = i * LINE_WORDS;
        const f = this.f32;
        f[at] = a[ai];
        f[at + 1] = a[ai + 1];
        f[at + 2] = a[ai + 2];
        f[at + 3] = b[bi];
        f[at + 4] = b[bi + 1];
        f[at + 5] = b[bi + 2];
        // RGBA8, little-endian: r in the low byte (the unorm8x4 attribute's x)
        this.u32[at + 6] = unorm8(color[c]) | (unorm8(color[c + 1]) << 8) | (unorm8(color[c + 2]) << 16) | (unorm8(color[c + 3]) << 24);
        return i;
    }

    /** Appends `n` lines of one colour from `points` (a xyz, b xyz per line). */
    push_many(points: ArrayLike<number>, n: number, color: ArrayLike<number>): void {
        while (this.count + n > this.#limit) this.#grow();
        const f = this.f32;
        const u = this.u32;
        const rgba = unorm8(color[0]) | (unorm8(color[1]) << 8) | (unorm8(color[2]) << 16) | (unorm8(color[3]) << 24);
        let at = this.count * LINE_WORDS;
        for (let i = 0; i < n; i++) {
            const from = i * 6;
            f[at] = points[from];
            f[at + 1] = points[from + 1];
            f[at + 2] = points[from + 2];
            f[at + 3] = points[from + 3];
            f[at + 4] = points[from + 4];
            f[at + 5] = points[from + 5];
            u[at + 6] = rgba;
            at += LINE_WORDS;
        }
        this.count += n;
    }

    /** Drops the first `n` lines, keeping the rest in order. */
    drop_front(n: number): void {
        if (n <= 0) return;
        if (n >= this.count) {
            this.count = 0;
        } else {
            this.f32.copyWithin(0, n * LINE_WORDS, this.count * LINE_WORDS);
            if (this.#timed) this.expiry.copyWithin(0, n, this.count);
            this.count -= n;
        }
        this.version++;
    }

    /**
     * Drops the timed lines whose expiry is at or before `clock[0]` (seconds), keeping the order of the rest. The
     * time comes in a typed array: a double passed to a call the JIT does not inline is boxed, a heap object
     * per frame.
     */
    expire(clock: Float64Array): void {
        const now = clock[0];
        const expiry = this.expiry;
        const f = this.f32;
        let kept = 0;
        for (let i = 0; i < this.count; i++) {
            if (expiry[i] <= now) continue;
            if (kept !== i) {
                f.copyWithin(kept * LINE_WORDS, i * LINE_WORDS, (i + 1) * LINE_WORDS);
                expiry[kept] = expiry[i];
            }
            kept++;
        }
        if (kept !== this.count) {
            this.count = kept;
            this.version++;
        }
    }

    /** Swaps contents with `other` (no copy): how a frame takes the lines written for it. */
    swap(other: DebugLines): void {
        const f32 = this.f32;
        const u32 = this.u32;
        const cpu_f32 = this.#cpu_f32;
        const cpu_u32 = this.#cpu_u32;
        const limit = this.#limit;
        const slot = this.slot;
        const count = this.count;
        this.f32 = other.f32;
        this.u32 = other.u32;
        this.#cpu_f32 = other.#cpu_f32;
        this.#cpu_u32 = other.#cpu_u32;
        this.#limit = other.#limit;
        this.slot = other.slot;
        this.count = other.count;
        other.f32 = f32;
        other.u32 = u32;
        other.#cpu_f32 = cpu_f32;
        other.#cpu_u32 = cpu_u32;
        other.#limit = limit;
        other.slot = slot;
        other.count = count;
        this.version++;
        other.version++;
    }

    clear(): void {
        if (this.count === 0) return;
        this.count = 0;
        this.version++;
    }

    #grow(): void {
        if (this.slot >= 0) {
            // outgrew the staging range: on in the CPU arrays, lines kept (the extension grows the ring)
            this.unstage(true);
            if (this.count < this.#limit) return;
        }
        const capacity = this.#limit * 2;
        const buffer = new ArrayBuffer(capacity * LINE_BYTES);
        const f32 = new Float32Array(buffer);
        f32.set(this.f32);
        this.f32 = this.#cpu_f32 = f32;
        this.u32 = this.#cpu_u32 = new Uint32Array(buffer);
        this.#limit = capacity;
        if (this.#timed) {
            const expiry = new Float64Array(capacity);
            expiry.set(this.expiry);
            this.expiry = expiry;
        }
    }

    /** Copies the staged lines into CPU arrays of at least `capacity` lines. */
    #to_cpu(capacity: number): void {
        const words = this.count * LINE_WORDS;
        if (this.#cpu_f32.length < capacity * LINE_WORDS) {
            const buffer = new ArrayBuffer(capacity * LINE_BYTES);
            this.#cpu_f32 = new Float32Array(buffer);
            this.#cpu_u32 = new Uint32Array(buffer);
        }
        const from = this.f32;
        const to = this.#cpu_f32;
        // a loop, not set(subarray): no view allocated
        for (let w = 0; w < words; w++) to[w] = from[w];
    }
}

/** 0..1 to 0..255, rounded, clamped (NaN to 0). */
function unorm8(v: number): number {
    return v >= 1 ? 255 : v > 0 ? (v * 255 + 0.5) | 0 : 0;
}
