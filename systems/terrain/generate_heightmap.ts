/** A 32-bit integer hash of a lattice point and a seed (a few multiply-xorshift rounds). */
function hash(x: number, y: number, seed: number): number {
    let h = Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1) ^ Math.imul(seed + 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
    return (h ^ (h >>> 15)) >>> 0;
}

const GRADIENTS_X = new Float32Array(16);
const GRADIENTS_Y = new Float32Array(16);
for (let i = 0; i < 16; i++) {
    GRADIENTS_X[i] = Math.cos((i / 16) * Math.PI * 2);
    GRADIENTS_Y[i] = Math.sin((i / 16) * Math.PI * 2);
}

/** Gradient (Perlin-style) noise at (x, y), about -0.7..0.7, 0 at lattice points. */
export function gradient_noise(x: number, y: number, seed: number): number {
    const ix = Math.floor(x);
    const iy = Math.floor(y);
    const fx = x - ix;
    const fy = y - iy;
    const dot = (cx: number, cy: number): number => {
        const g = hash(ix + cx, iy + cy, seed) & 15;
        return GRADIENTS_X[g] * (fx - cx) + GRADIENTS_Y[g] * (fy - cy);
    };
    // quintic fade: continuous second derivative, so the normals have no lattice creases
    const ux = fx * fx * fx * (fx * (fx * 6 - 15) + 10);
    const uy = fy * fy * fy * (fy * (fy * 6 - 15) + 10);
    const a = dot(0, 0) + (dot(1, 0) - dot(0, 0)) * ux;
    const b = dot(0, 1) + (dot(1, 1) - dot(0, 1)) * ux;
    return a + (b - a) * uy;
}

/**
 * A seeded heightmap of `resolution * resolution` samples (row by row along +x, rows along +z) in 0..1:
 * fractal Brownian motion of gradient noise, `octaves` octaves from `frequency` features across the square,
 * each octave twice the frequency at half the amplitude, normalised to the full 0..1 range and shaped so that
 * valleys are broader than peaks. The same arguments give the same heights.
 */
export function generate_heightmap(resolution: number, seed: number, octaves: number, frequency: number): Float32Array {
    const out = new Float32Array(resolution * resolution);
    const step = 1 / (resolution - 1);
    let min = Infinity;
    let max = -Infinity;
    for (let j = 0; j < resolution; j++) {
        for (let i = 0; i < resolution; i++) {
            let value = 0;
            let amplitude = 1;
            let f = frequency;
            for (let o = 0; o < octaves; o++) {
                // each octave its own seed and an offset, so octaves do not share lattice points
                value += amplitude * gradient_noise(i * step * f + o * 17.31, j * step * f + o * 9.17, (seed + o * 1013) >>> 0);
                amplitude *= 0.5;
                f *= 2;
            }
            out[j * resolution + i] = value;
            // the range of the stored (float32) values: a double's min could lie above its own rounded sample,
            // and a t below 0 would make pow(t, 1.5) NaN (a hole in the ground)
            const stored = out[j * resolution + i];
            if (stored < min) min = stored;
            if (stored > max) max = stored;
        }
    }
    const range = max - min;
    for (let k = 0; k < out.length; k++) {
        const t = range > 0 ? Math.min(Math.max((out[k] - min) / range, 0), 1) : 0;
        out[k] = Math.pow(t, 1.5);
    }
    return out;
}
