// The peers workload (issue 14), shared by every variant: a 640x360 view of a ground plane, 1,000 static boxes
// and 2,000 alpha-blended ribbons of 64 segments whose vertices are rewritten every frame. Everything comes from
// one seeded generator, so each variant builds exactly the same layout and writes exactly the same vertices.

export const WIDTH = 640;
export const HEIGHT = 360;
export const BOX_COUNT = 1000;
export const RIBBON_COUNT = 2000;
export const SEGMENTS = 64;
/** Two vertices per cross-section, SEGMENTS + 1 cross-sections. */
export const RIBBON_VERTICES = (SEGMENTS + 1) * 2;
export const RIBBON_INDICES = SEGMENTS * 6;
export const RIBBON_ALPHA = 0.5;
export const GROUND_SIZE = 240;
export const GROUND_COLOR = [0.35, 0.37, 0.4] as const;
export const CLEAR_COLOR = [0.5, 0.62, 0.8] as const;

/** The camera: above the plane, looking down at its middle. Vertical field of view in radians. */
export const CAMERA = { position: [0, 45, 75] as const, target: [0, 0, -5] as const, fov_y: Math.PI / 3, near: 0.5, far: 400 };
/** The sun: direction from the light into the scene (normalised by each variant as it needs). */
export const SUN_DIRECTION = [-0.4, -1, -0.3] as const;

/** Linear RGB, eight colours: boxes and ribbons pick from them. */
export const PALETTE: readonly (readonly [number, number, number])[] = [
    [0.9, 0.25, 0.2],
    [0.95, 0.6, 0.15],
    [0.9, 0.85, 0.2],
    [0.3, 0.8, 0.3],
    [0.2, 0.7, 0.85],
    [0.25, 0.35, 0.9],
    [0.6, 0.3, 0.85],
    [0.9, 0.4, 0.7],
];

function mulberry32(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

export interface Box {
    /** Centre. */
    readonly x: number;
    readonly y: number;
    readonly z: number;
    readonly sx: number;
    readonly sy: number;
    readonly sz: number;
    readonly color: number;
}

const random = mulberry32(14);

/** The boxes: sitting on the plane, in x, z within +-60. */
export const BOXES: readonly Box[] = Array.from({ length: BOX_COUNT }, () => {
    const sx = 0.8 + random() * 1.6;
    const sy = 0.8 + random() * 3.2;
    const sz = 0.8 + random() * 1.6;
    return { x: (random() - 0.5) * 120, y: sy / 2, z: (random() - 0.5) * 100 - 10, sx, sy, sz, color: Math.floor(random() * PALETTE.length) };
});

const TABLE = 1024;
const SIN = new Float32Array(TABLE);
for (let i = 0; i < TABLE; i++) SIN[i] = Math.sin((i / TABLE) * Math.PI * 2);

// per ribbon: the static centre line (x, y, z per cross-section), the wave's phase and speed, the colour
const base = new Float32Array(RIBBON_COUNT * (SEGMENTS + 1) * 3);
const phase = new Int32Array(RIBBON_COUNT);
const speed = new Int32Array(RIBBON_COUNT);
export const RIBBON_COLOR = new Uint8Array(RIBBON_COUNT);
for (let r = 0; r < RIBBON_COUNT; r++) {
    const cx = (random() - 0.5) * 130;
    const cz = (random() - 0.5) * 110 - 10;
    const cy = 5 + random() * 10;
    const heading = random() * Math.PI * 2;
    const curl = (random() - 0.5) * 0.12;
    const length = 8 + random() * 10;
    let x = cx;
    let z = cz;
    let a = heading;
    const step = length / SEGMENTS;
    for (let s = 0; s <= SEGMENTS; s++) {
        const o = (r * (SEGMENTS + 1) + s) * 3;
        base[o] = x;
        base[o + 1] = cy;
        base[o + 2] = z;
        x += Math.cos(a) * step;
        z += Math.sin(a) * step;
        a += curl;
    }
    phase[r] = Math.floor(random() * TABLE);
    speed[r] = 3 + Math.floor(random() * 6);
    RIBBON_COLOR[r] = Math.floor(random() * PALETTE.length);
}

const HALF_WIDTH = 0.35;

/**
 * Writes ribbon `r`'s vertices for frame `frame` into `out` from float `offset`, one vertex every `stride` floats
 * (xyz first): two vertices per cross-section, at the wavy centre line's height -+ half the ribbon's width.
 */
export function write_ribbon(out: Float32Array, offset: number, stride: number, r: number, frame: number): void {
    let o = offset;
    let b = r * (SEGMENTS + 1) * 3;
    const p = phase[r] + frame * speed[r];
    for (let s = 0; s <= SEGMENTS; s++) {
        const wave = SIN[(p + s * 24) & (TABLE - 1)];
        const sway = SIN[(p + s * 9 + 256) & (TABLE - 1)] * 0.4;
        const x = base[b] + sway;
        const y = base[b + 1] + wave * 1.5;
        const z = base[b + 2] - sway;
        out[o] = x;
        out[o + 1] = y - HALF_WIDTH;
        out[o + 2] = z;
        o += stride;
        out[o] = x;
        out[o + 1] = y + HALF_WIDTH;
        out[o + 2] = z;
        o += stride;
        b += 3;
    }
}

/** One ribbon's triangle list over its own vertices 0 .. RIBBON_VERTICES - 1, plus `first`. */
export function write_ribbon_indices(out: Uint16Array | Uint32Array, offset: number, first: number): void {
    let o = offset;
    for (let s = 0; s < SEGMENTS; s++) {
        const v = first + s * 2;
        out[o++] = v;
        out[o++] = v + 1;
        out[o++] = v + 2;
        out[o++] = v + 1;
        out[o++] = v + 3;
        out[o++] = v + 2;
    }
}

/** The indices of one ribbon (Uint16). */
export function ribbon_indices(): Uint16Array {
    const out = new Uint16Array(RIBBON_INDICES);
    write_ribbon_indices(out, 0, 0);
    return out;
}

/** The indices of all ribbons merged into one vertex array (Uint32). */
export function merged_ribbon_indices(): Uint32Array {
    const out = new Uint32Array(RIBBON_COUNT * RIBBON_INDICES);
    for (let r = 0; r < RIBBON_COUNT; r++) write_ribbon_indices(out, r * RIBBON_INDICES, r * RIBBON_VERTICES);
    return out;
}
