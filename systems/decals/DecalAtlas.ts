/** The frames of `DecalAtlas.procedural()`, by name. */
export const DECAL_FRAMES = {
    scorch: 0,
    selection_circle: 1,
    target: 2,
    splat: 3,
    crater: 4,
    arrow: 5,
    selection_square: 6,
    blob_shadow: 7,
} as const;

/**
 * The texture decals draw from: `columns x rows` square frames of `frame_size` texels, RGBA8 (linear colour,
 * straight alpha = coverage), row 0 at the top. A decal's `frame` picks one, counted row by row. The GPU copy is
 * made per device by the extension.
 */
export class DecalAtlas {
    readonly columns: number;
    readonly rows: number;
    readonly frame_size: number;
    readonly pixels: Uint8Array;

    constructor(columns: number, rows: number, frame_size: number, pixels: Uint8Array) {
        if (!(Number.isInteger(columns) && columns > 0 && Number.isInteger(rows) && rows > 0)) throw new RangeError(`DecalAtlas: columns and rows must be positive integers, got ${columns} x ${rows}`);
        if (!(Number.isInteger(frame_size) && frame_size > 0)) throw new RangeError(`DecalAtlas: frame_size must be a positive integer, got ${frame_size}`);
        const expected = columns * rows * frame_size * frame_size * 4;
        if (pixels.length !== expected) throw new RangeError(`DecalAtlas: ${columns} x ${rows} frames of ${frame_size} px need ${expected} bytes (RGBA8), got ${pixels.length}`);
        this.columns = columns;
        this.rows = rows;
        this.frame_size = frame_size;
        this.pixels = pixels;
    }

    get frame_count(): number {
        return this.columns * this.rows;
    }

    get width(): number {
        return this.columns * this.frame_size;
    }

    get height(): number {
        return this.rows * this.frame_size;
    }

    /**
     * The built-in atlas (`DECAL_FRAMES`): a scorch mark, a selection circle, a target ring, a paint splat, a
     * crater, an arrow, a selection square and a soft blob shadow; 4 x 2 frames of `frame_size` texels, drawn
     * procedurally (anti-aliased by supersampling 2 x 2). Marks meant to be tinted (circle, target, arrow,
     * square) are white.
     */
    static procedural(frame_size = 64): DecalAtlas {
        const columns = 4;
        const rows = 2;
        const width = columns * frame_size;
        const pixels = new Uint8Array(width * rows * frame_size * 4);
        const shaders = [scorch, selection_circle, target, splat, crater, arrow, selection_square, blob_shadow];
        const out = [0, 0, 0, 0];
        const sum = [0, 0, 0, 0];
        for (let f = 0; f < shaders.length; f++) {
            const shade = shaders[f];
            const fx = (f % columns) * frame_size;
            const fy = Math.floor(f / columns) * frame_size;
            for (let y = 0; y < frame_size; y++) {
                for (let x = 0; x < frame_size; x++) {
                    sum.fill(0);
                    for (let s = 0; s < 4; s++) {
                        // -1..1 across the frame, +v toward the bottom row
                        const u = ((x + 0.25 + (s & 1) * 0.5) / frame_size) * 2 - 1;
                        const v = ((y + 0.25 + (s >> 1) * 0.5) / frame_size) * 2 - 1;
                        shade(u, v, out);
                        // premultiplied while averaging, so a transparent texel's colour does not bleed
                        sum[0] += out[0] * out[3];
                        sum[1] += out[1] * out[3];
                        sum[2] += out[2] * out[3];
                        sum[3] += out[3];
                    }
                    const a = sum[3] / 4;
                    const p = ((fy + y) * width + fx + x) * 4;
                    const inv = sum[3] > 0 ? 1 / sum[3] : 0;
                    pixels[p] = to_byte(sum[0] * inv);
                    pixels[p + 1] = to_byte(sum[1] * inv);
                    pixels[p + 2] = to_byte(sum[2] * inv);
                    pixels[p + 3] = to_byte(a);
                }
            }
        }
        return new DecalAtlas(columns, rows, frame_size, pixels);
    }
}

function to_byte(v: number): number {
    return Math.round(Math.min(Math.max(v, 0), 1) * 255);
}

function smoothstep(a: number, b: number, x: number): number {
    const t = Math.min(Math.max((x - a) / (b - a), 0), 1);
    return t * t * (3 - 2 * t);
}

function hash(x: number, y: number): number {
    let h = Math.imul(x | 0, 0x27d4eb2d) ^ Math.imul(y | 0, 0x165667b1);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    return ((h ^ (h >>> 13)) >>> 0) / 4294967295;
}

function value_noise(x: number, y: number): number {
    const ix = Math.floor(x);
    const iy = Math.floor(y);
    const fx = x - ix;
    const fy = y - iy;
    const ux = fx * fx * (3 - 2 * fx);
    const uy = fy * fy * (3 - 2 * fy);
    const a = hash(ix, iy);
    const b = hash(ix + 1, iy);
    const c = hash(ix, iy + 1);
    const d = hash(ix + 1, iy + 1);
    return a + (b - a) * ux + (c - a) * uy + (a - b - c + d) * ux * uy;
}

function fbm(x: number, y: number): number {
    return 0.5 * value_noise(x, y) + 0.3 * value_noise(x * 2.1 + 5.3, y * 2.1 + 1.7) + 0.2 * value_noise(x * 4.3 + 9.1, y * 4.3 + 3.3);
}

type FrameShader = (u: number, v: number, out: number[]) => void;

function set(out: number[], r: number, g: number, b: number, a: number): void {
    out[0] = r;
    out[1] = g;
    out[2] = b;
    out[3] = a;
}

/** A burnt blot: soot black toward the middle, brown at the ragged rim. */
const scorch: FrameShader = (u, v, out) => {
    const r = Math.hypot(u, v);
    const angle = Math.atan2(v, u);
    const rim = 0.72 + 0.16 * (fbm(Math.cos(angle) * 2 + 3, Math.sin(angle) * 2 + 3) - 0.5) * 2;
    const n = fbm(u * 5 + 11, v * 5 + 7);
    const a = (1 - smoothstep(rim - 0.25, rim, r)) * (0.75 + 0.25 * n);
    const t = smoothstep(0, rim, r);
    set(out, 0.02 + 0.05 * t, 0.015 + 0.03 * t, 0.01 + 0.01 * t, a * (0.97 - 0.1 * t));
};

/** A ring with a faint fill (tinted by the decal's colour). */
const selection_circle: FrameShader = (u, v, out) => {
    const r = Math.hypot(u, v);
    const ring = smoothstep(0.74, 0.78, r) * (1 - smoothstep(0.88, 0.92, r));
    const fill = (1 - smoothstep(0.74, 0.78, r)) * 0.12;
    set(out, 1, 1, 1, Math.max(ring, fill));
};

/** A thin ring with four ticks pointing in and a centre dot. */
const target: FrameShader = (u, v, out) => {
    const r = Math.hypot(u, v);
    const ring = smoothstep(0.8, 0.83, r) * (1 - smoothstep(0.88, 0.91, r));
    const on_axis = Math.min(Math.abs(u), Math.abs(v));
    const ticks = (1 - smoothstep(0.035, 0.06, on_axis)) * smoothstep(0.5, 0.53, r) * (1 - smoothstep(0.82, 0.85, r));
    const dot = 1 - smoothstep(0.07, 0.1, r);
    set(out, 1, 1, 1, Math.max(ring, ticks, dot));
};

/** A paint splat: lobed blob with droplets. */
const splat: FrameShader = (u, v, out) => {
    const r = Math.hypot(u, v);
    const angle = Math.atan2(v, u);
    const lobes = 0.5 + 0.12 * Math.sin(angle * 7) + 0.08 * Math.sin(angle * 13 + 1) + 0.1 * (fbm(u * 3 + 2, v * 3 + 5) - 0.5);
    let a = 1 - smoothstep(lobes - 0.03, lobes + 0.03, r);
    for (let k = 0; k < 6; k++) {
        const da = k * 1.1 + 0.4;
        const dr = 0.68 + 0.08 * (k % 3);
        const d = Math.hypot(u - Math.cos(da) * dr, v - Math.sin(da) * dr);
        a = Math.max(a, 1 - smoothstep(0.05 + 0.015 * (k % 2), 0.08 + 0.015 * (k % 2), d));
    }
    const shade = 0.85 + 0.15 * fbm(u * 6, v * 6);
    set(out, 0.5 * shade, 0.03 * shade, 0.02 * shade, a * 0.92);
};

/** A crater: dark centre, a pale ejecta rim, rays fading out. */
const crater: FrameShader = (u, v, out) => {
    const r = Math.hypot(u, v);
    const angle = Math.atan2(v, u);
    const n = fbm(u * 6 + 1, v * 6 + 2);
    const pit = 1 - smoothstep(0.3, 0.42, r);
    const rim = smoothstep(0.3, 0.42, r) * (1 - smoothstep(0.5, 0.62, r));
    const rays = (0.5 + 0.5 * Math.sin(angle * 11 + n * 3)) * smoothstep(0.5, 0.6, r) * (1 - smoothstep(0.65, 0.95, r)) * 0.5;
    const a = Math.max(pit * 0.95, rim * 0.85, rays) * (0.8 + 0.2 * n);
    const light = pit * 0.02 + rim * 0.2 + rays * 0.12;
    const c = pit > 0.5 ? 0.025 : light / Math.max(pit + rim + rays, 1e-3);
    set(out, c * 1.1, c, c * 0.85, a);
};

/** An arrow pointing toward -v (the top of the frame). */
const arrow: FrameShader = (u, v, out) => {
    const head = v < -0.05 && Math.abs(u) < (v + 0.85) * 0.75 && v > -0.85 ? 1 : 0;
    const shaft = v >= -0.06 && v < 0.75 && Math.abs(u) < 0.18 ? 1 : 0;
    set(out, 1, 1, 1, Math.max(head, shaft) * 0.95);
};

/** A square outline with corner brackets emphasised. */
const selection_square: FrameShader = (u, v, out) => {
    const d = Math.max(Math.abs(u), Math.abs(v));
    const line = smoothstep(0.76, 0.79, d) * (1 - smoothstep(0.86, 0.89, d));
    const corner = Math.min(Math.abs(u), Math.abs(v)) > 0.45 ? 1 : 0.35;
    set(out, 1, 1, 1, line * corner);
};

/** A soft round shadow under a unit. */
const blob_shadow: FrameShader = (u, v, out) => {
    const r = Math.hypot(u, v);
    const a = (1 - smoothstep(0.2, 0.95, r)) * 0.7;
    set(out, 0, 0, 0, a);
};
