/**
 * The sub-pixel jitter sequence of the temporal upscale: Halton(2, 3), `phases` long, offsets in
 * [-0.5, 0.5) pixels of the internal resolution. Low-discrepancy, so any run of frames covers the pixel evenly
 * and a static image converges after one cycle.
 */
export class TemporalJitter {
    /** Frames before the sequence repeats. */
    readonly phases: number;
    /** Pixel offsets, x then y for each phase. */
    readonly offsets: Float32Array;

    constructor(phases = 16) {
        if (!(phases >= 1 && (phases | 0) === phases)) throw new RangeError(`TemporalJitter: phases must be a whole number >= 1, got ${phases}`);
        this.phases = phases;
        this.offsets = new Float32Array(phases * 2);
        for (let i = 0; i < phases; i++) {
            // index 0 of the sequence is (0, 0) in every base: start at 1
            this.offsets[i * 2] = halton(i + 1, 2) - 0.5;
            this.offsets[i * 2 + 1] = halton(i + 1, 3) - 0.5;
        }
    }

    /**
     * Writes frame `frame_number`'s offset into `out` as clip-space units for a `width` x `height` target
     * (`2 * pixels / size`: what `Camera.update` adds to the projection), and returns `out`.
     */
    write_clip(frame_number: number, width: number, height: number, out: Float32Array): Float32Array {
        const phase = ((frame_number % this.phases) + this.phases) % this.phases;
        out[0] = (2 * this.offsets[phase * 2]) / width;
        out[1] = (2 * this.offsets[phase * 2 + 1]) / height;
        return out;
    }
}

/** The radical inverse of `index` in `base`: element `index` of the Halton sequence, in [0, 1). */
function halton(index: number, base: number): number {
    let result = 0;
    let fraction = 1 / base;
    for (let i = index; i > 0; i = Math.floor(i / base)) {
        result += (i % base) * fraction;
        fraction /= base;
    }
    return result;
}
