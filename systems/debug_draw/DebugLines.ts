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
    rgba: Uint8ClampedArray<ArrayBuffer>;
    /** Expiry time per line (timed lines only). */
    expiry: Float64Array<ArrayBuffer>;
    /** Changes when the contents change (timed lines are uploaded only then). */
    version = 0;
    readonly #timed: boolean;

    constructor(capacity: number, timed: boolean) {
        this.#timed = timed;
        const buffer = new ArrayBuffer(capacity * LINE_BYTES);
        this.f32 = new Float32Array(buffer);
        this.rgba = new Uint8ClampedArray(buffer);
        this.expiry = new Float64Array(timed ? capacity : 0);
    }

    get capacity(): number {
        return this.f32.length / LINE_WORDS;
    }

    get bytes(): ArrayBuffer {
        return this.f32.buffer;
    }

    /** Appends a line; colour components in 0..1 (clamped), straight alpha. Returns its index. */
    push(ax: number, ay: number, az: number, bx: number, by: number, bz: number, r: number, g: number, b: number, a: number): number {
        const i = this.count;
        if (i === this.capacity) this.#grow();
        this.count = i + 1;
        const at = i * LINE_WORDS;
        const f = this.f32;
        f[at] = ax;
        f[at + 1] = ay;
        f[at + 2] = az;
        f[at + 3] = bx;
        f[at + 4] = by;
        f[at + 5] = bz;
        const c = this.rgba;
        const byte = (at + 6) * 4;
        c[byte] = r * 255;
        c[byte + 1] = g * 255;
        c[byte + 2] = b * 255;
        c[byte + 3] = a * 255;
        return i;
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
        this.rgba = new Uint8ClampedArray(buffer);
        if (this.#timed) {
            const expiry = new Float64Array(capacity);
            expiry.set(this.expiry);
            this.expiry = expiry;
        }
    }
}
