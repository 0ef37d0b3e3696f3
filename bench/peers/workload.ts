// The peers benchmark's workload (issue 14), shared by every variant so that all draw the same picture:
// a 640x360 canvas, a camera over a ground plane, 1,000 static boxes and 2,000 alpha-blended ribbons of 64
// segments whose vertices are rewritten every frame. Seeded and deterministic.

export const WIDTH = 640;
export const HEIGHT = 360;
export const BOX_COUNT = 1000;
export const RIBBON_COUNT = 2000;
export const RIBBON_SEGMENTS = 64;
/** Points per ribbon (segments + 1). */
export const RIBBON_POINTS = RIBBON_SEGMENTS + 1;
/** Ribbon half-width in world units (each point is widened sideways along +/- x by this much). */
export const RIBBON_HALF_WIDTH = 0.12;
export const GROUND_SIZE = 80;

/** Camera: perspective, vertical field of view in degrees, looking from `eye` at `target`, +y up. */
export const CAMERA = { eye: [0, 30, 45] as const, target: [0, 0, 0] as const, fov_y_deg: 50, near: 0.5, far: 200 };
export const GROUND_COLOR = [0.35, 0.42, 0.3, 1] as const;
export const CLEAR_COLOR = [0.55, 0.65, 0.8, 1] as const;
/** One directional light (unit vector towards the light) plus ambient; variants light boxes with N.L * 0.8 + 0.2. */
export const LIGHT_DIRECTION = [0.4, 0.8, 0.45] as const;

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

/** Static boxes: 9 floats each (centre x, y, z; size x, y, z; colour r, g, b), resting on the ground. */
export function make_boxes(seed = 1): Float32Array {
    const random = mulberry32(seed);
    const out = new Float32Array(BOX_COUNT * 9);
    for (let i = 0; i < BOX_COUNT; i++) {
        const sx = 0.5 + random() * 1.0;
        const sy = 0.5 + random() * 2.0;
        const sz = 0.5 + random() * 1.0;
        const o = i * 9;
        out[o] = (random() - 0.5) * GROUND_SIZE * 0.9;
        out[o + 1] = sy / 2;
        out[o + 2] = (random() - 0.5) * GROUND_SIZE * 0.9;
        out[o + 3] = sx;
        out[o + 4] = sy;
        out[o + 5] = sz;
        out[o + 6] = 0.5 + random() * 0.5;
        out[o + 7] = 0.3 + random() * 0.4;
        out[o + 8] = 0.2 + random() * 0.3;
    }
    return out;
}

/** Per-ribbon constants: 8 floats each (start x, z; heading; speed; hue r, g, b; alpha). */
export function make_ribbons(seed = 2): Float32Array {
    const random = mulberry32(seed);
    const out = new Float32Array(RIBBON_COUNT * 8);
    for (let i = 0; i < RIBBON_COUNT; i++) {
        const o = i * 8;
        out[o] = (random() - 0.5) * GROUND_SIZE * 0.8;
        out[o + 1] = (random() - 0.5) * GROUND_SIZE * 0.8;
        out[o + 2] = random() * Math.PI * 2;
        out[o + 3] = 0.5 + random();
        out[o + 4] = 0.2 + random() * 0.8;
        out[o + 5] = 0.4 + random() * 0.6;
        out[o + 6] = 0.9;
        out[o + 7] = 0.6;
    }
    return out;
}

/**
 * This frame's ribbon centre points at time `t` (seconds): RIBBON_COUNT x RIBBON_POINTS x 3 floats into `out`
 * (a wavy path 1.5 units above the ground, trailing behind a moving head). Allocates nothing. Every variant calls
 * it once per frame inside its timed "update", then turns the centres into its own vertex format (two vertices
 * per point, +/- RIBBON_HALF_WIDTH along x; alpha fading from the head (point 0: ribbon alpha) to the tail (0)).
 */
export function ribbon_centres(ribbons: Float32Array, t: number, out: Float32Array): void {
    let w = 0;
    for (let i = 0; i < RIBBON_COUNT; i++) {
        const o = i * 8;
        const x0 = ribbons[o];
        const z0 = ribbons[o + 1];
        const heading = ribbons[o + 2];
        const speed = ribbons[o + 3];
        const dx = Math.cos(heading);
        const dz = Math.sin(heading);
        for (let p = 0; p < RIBBON_POINTS; p++) {
            const s = t * speed - p * 0.08;
            const wave = Math.sin(s * 3 + i) * 0.6;
            out[w++] = x0 + dx * Math.sin(s) * 4 - dz * wave;
            out[w++] = 1.5 + Math.sin(s * 2 + i * 0.37) * 0.4;
            out[w++] = z0 + dz * Math.sin(s) * 4 + dx * wave;
        }
    }
}

/**
 * Ribbon `i`'s vertex colours into `out` at float `offset`: its hue (through `rgb` when given, e.g. to linear)
 * and an alpha fading from the ribbon's alpha at the head to 0 at the tail, RGBA per vertex, two vertices a point.
 */
export function ribbon_colors(ribbons: Float32Array, i: number, out: Float32Array, offset: number, rgb?: (c: number) => number): void {
    const r = rgb === undefined ? ribbons[i * 8 + 4] : rgb(ribbons[i * 8 + 4]);
    const g = rgb === undefined ? ribbons[i * 8 + 5] : rgb(ribbons[i * 8 + 5]);
    const b = rgb === undefined ? ribbons[i * 8 + 6] : rgb(ribbons[i * 8 + 6]);
    const a = ribbons[i * 8 + 7];
    for (let p = 0; p < RIBBON_POINTS; p++) {
        const alpha = a * (1 - p / RIBBON_SEGMENTS);
        for (let side = 0; side < 2; side++) {
            const o = offset + (p * 2 + side) * 4;
            out[o] = r;
            out[o + 1] = g;
            out[o + 2] = b;
            out[o + 3] = alpha;
        }
    }
}

/** One ribbon's triangle-list indices (two triangles a segment) into `out` at `offset`, from vertex `base_vertex`. */
export function ribbon_indices(out: Uint32Array | Uint16Array, offset: number, base_vertex: number): void {
    for (let s = 0; s < RIBBON_SEGMENTS; s++) {
        const v = base_vertex + s * 2;
        const o = offset + s * 6;
        out[o] = v;
        out[o + 1] = v + 1;
        out[o + 2] = v + 2;
        out[o + 3] = v + 1;
        out[o + 4] = v + 3;
        out[o + 5] = v + 2;
    }
}

/** Two xyz vertices per centre point (x -/+ RIBBON_HALF_WIDTH), `points` of them from `from_point`, into `out` at `offset`. Allocates nothing. */
export function widen(centres: Float32Array, from_point: number, points: number, out: Float32Array, offset: number): void {
    for (let p = 0; p < points; p++) {
        const c = (from_point + p) * 3;
        const o = offset + p * 6;
        const x = centres[c];
        const y = centres[c + 1];
        const z = centres[c + 2];
        out[o] = x - RIBBON_HALF_WIDTH;
        out[o + 1] = y;
        out[o + 2] = z;
        out[o + 3] = x + RIBBON_HALF_WIDTH;
        out[o + 4] = y;
        out[o + 5] = z;
    }
}

/** A variant of the workload, made by a module's default export `create(canvas, workload)`. */
export interface PeerVariant {
    /** Rewrite the ribbons for time `t` (the timed "update": from ribbon_centres to the engine's geometry objects). */
    update(t: number): void;
    /** Render one frame and return once its submit has returned (the timed "render/submit"). */
    render(): void;
    /** The device, for the runner to drain the GPU between frames (onSubmittedWorkDone). */
    readonly device: GPUDevice;
}

export interface Workload {
    boxes: Float32Array;
    ribbons: Float32Array;
}

export function make_workload(): Workload {
    return { boxes: make_boxes(), ribbons: make_ribbons() };
}
