/**
 * @internal The particle sprite atlas on the CPU: a grid of square frames (RGBA8, straight alpha), generated
 * procedurally at construction and changed with `set_frame`; `version` counts changes so that the GPU copy
 * is uploaded only when it changed. Frames, left to right, top to bottom:
 *
 * 0 soft disc, 1 hard disc, 2 spark, 3 ring, 4-7 a smoke puff growing and thinning (an animation).
 */
export class ParticleAtlas {
    static readonly CELL = 32;
    static readonly COLUMNS = 4;
    static readonly ROWS = 2;
    static readonly FRAMES = ParticleAtlas.COLUMNS * ParticleAtlas.ROWS;
    static readonly WIDTH = ParticleAtlas.CELL * ParticleAtlas.COLUMNS;
    static readonly HEIGHT = ParticleAtlas.CELL * ParticleAtlas.ROWS;

    readonly pixels = new Uint8Array(ParticleAtlas.WIDTH * ParticleAtlas.HEIGHT * 4);
    /** Mean alpha of each frame over its square: how much of its area a sprite covers (the splat's coverage). */
    readonly frame_alpha = new Float32Array(ParticleAtlas.FRAMES);
    version = 1;

    constructor() {
        this.#paint(0, (r) => smooth(1 - r) ** 2);
        this.#paint(1, (r) => clamp01((1 - r) * 16));
        this.#paint(2, (r, x, y) => Math.max(clamp01(1 - Math.abs(y) * 10) * clamp01(1 - Math.abs(x)), clamp01(1 - Math.abs(x) * 10) * clamp01(1 - Math.abs(y)) * 0.6, smooth(1 - r * 3)));
        this.#paint(3, (r) => clamp01(1 - Math.abs(r - 0.7) * 8));
        for (let k = 0; k < 4; k++) {
            const radius = 0.55 + k * 0.15;
            const density = 1 - k * 0.2;
            this.#paint(4 + k, (r, x, y) => {
                const noise = 0.75 + 0.25 * Math.sin(x * 9.1 + k) * Math.cos(y * 7.3 - k * 0.7);
                return smooth(clamp01(1 - r / radius)) * noise * density;
            });
        }
        for (let f = 0; f < ParticleAtlas.FRAMES; f++) this.#measure(f);
    }

    #measure(frame: number): void {
        const cell = ParticleAtlas.CELL;
        const x0 = (frame % ParticleAtlas.COLUMNS) * cell;
        const y0 = Math.floor(frame / ParticleAtlas.COLUMNS) * cell;
        let sum = 0;
        for (let y = 0; y < cell; y++) for (let x = 0; x < cell; x++) sum += this.pixels[((y0 + y) * ParticleAtlas.WIDTH + x0 + x) * 4 + 3];
        this.frame_alpha[frame] = sum / (255 * cell * cell);
    }

    /** Replaces frame `frame` with `rgba` (CELL x CELL RGBA8, rows top-down, straight alpha). */
    set_frame(frame: number, rgba: Uint8Array): void {
        if (!(Number.isInteger(frame) && frame >= 0 && frame < ParticleAtlas.FRAMES)) {
            throw new RangeError(`GPUParticleEmitterSystem.set_sprite: frame must be a whole number in [0, ${ParticleAtlas.FRAMES}), got ${String(frame)}`);
        }
        const cell = ParticleAtlas.CELL;
        if (rgba.length !== cell * cell * 4) {
            throw new RangeError(`GPUParticleEmitterSystem.set_sprite: frame ${frame} needs ${cell}x${cell} RGBA8 = ${cell * cell * 4} bytes, got ${rgba.length}`);
        }
        const x0 = (frame % ParticleAtlas.COLUMNS) * cell;
        const y0 = Math.floor(frame / ParticleAtlas.COLUMNS) * cell;
        for (let y = 0; y < cell; y++) {
            this.pixels.set(rgba.subarray(y * cell * 4, (y + 1) * cell * 4), ((y0 + y) * ParticleAtlas.WIDTH + x0) * 4);
        }
        this.#measure(frame);
        this.version++;
    }

    // white, with alpha = shape(r, x, y) over the cell's [-1, 1]^2 (r: distance from the centre)
    #paint(frame: number, shape: (r: number, x: number, y: number) => number): void {
        const cell = ParticleAtlas.CELL;
        const x0 = (frame % ParticleAtlas.COLUMNS) * cell;
        const y0 = Math.floor(frame / ParticleAtlas.COLUMNS) * cell;
        for (let py = 0; py < cell; py++) {
            for (let px = 0; px < cell; px++) {
                const x = ((px + 0.5) / cell) * 2 - 1;
                const y = ((py + 0.5) / cell) * 2 - 1;
                const r = Math.hypot(x, y);
                // one transparent texel at the border: bilinear filtering never bleeds into the next frame
                const edge = px === 0 || py === 0 || px === cell - 1 || py === cell - 1;
                const a = edge || r >= 1 ? 0 : clamp01(shape(r, x, y));
                const at = ((y0 + py) * ParticleAtlas.WIDTH + x0 + px) * 4;
                this.pixels[at] = 255;
                this.pixels[at + 1] = 255;
                this.pixels[at + 2] = 255;
                this.pixels[at + 3] = Math.round(a * 255);
            }
        }
    }
}

function clamp01(v: number): number {
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

function smooth(v: number): number {
    const t = clamp01(v);
    return t * t * (3 - 2 * t);
}
