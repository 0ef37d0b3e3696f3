/** Bytes per line instance: a (3 x f32), b (3 x f32), RGBA8 colour. */
export const LINE_BYTES = 28;
export const LINE_WORDS = LINE_BYTES / 4;

/**
 * A growable array of line instances in the GPU's vertex layout (`LINE_BYTES` each), written in place: the
 * CPU mirror of what `DebugDrawExtension` uploads. Timed lines also keep when they expire.
 */
export class DebugLines {
    count = 0;
    f32: Float32Array<ArrayBuffer>;
    u32: Uint32Array<ArrayBuffer>;
    /** Expiry time per line (timed lines only). */
    expiry: Float64Array<ArrayBuffer>;
    /** Changes when the contents change (timed lines are uploaded only then). */
    version = 0;
    readonly #timed: boolean;

    constructor(capacity: number, timed: boolean) {
        this.#timed = timed;
        const buffer = new ArrayBuffer(capacity * LINE_BYTES);
        this.f32 = new Float32Array(buffer);
        this.u32 = new Uint32Array(buffer);
        this.expiry = new Float64Array(timed ? capacity : 0);
    }

    get capacity(): number {
        return this.f32.length / LINE_WORDS;
    }

    get bytes(): ArrayBuffer {
        return this.f32.buffer;
    }

    /**
     * Appends the line from `a[ai..ai+2]` to `b[bi..bi+2]` with colour `color[c..c+3]` (0..1, clamped, straight
     * alpha). Returns its index. Arrays and offsets rather than numbers: a double passed to a call that is
     * not inlined is boxed, which would allocate per line.
     */
    push(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, color: ArrayLike<number>, c: number): number {
        const i = this.count;
        if (i === this.capacity) this.#grow();
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
        while (this.count + n > this.capacity) this.#grow();
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

    /** Drops the timed lines whose expiry is at or before `now`, keeping the order of the rest. */
    expire(now: number): void {
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
        const count = this.count;
        this.f32 = other.f32;
        this.u32 = other.u32;
        this.count = other.count;
        other.f32 = f32;
        other.u32 = u32;
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
        const capacity = this.capacity * 2;
        const buffer = new ArrayBuffer(capacity * LINE_BYTES);
        const f32 = new Float32Array(buffer);
        f32.set(this.f32);
        this.f32 = f32;
        this.u32 = new Uint32Array(buffer);
        if (this.#timed) {
            const expiry = new Float64Array(capacity);
            expiry.set(this.expiry);
            this.expiry = expiry;
        }
    }
}

/** 0..1 to 0..255, rounded, clamped (NaN to 0). */
function unorm8(v: number): number {
    return v >= 1 ? 255 : v > 0 ? (v * 255 + 0.5) | 0 : 0;
}
