/** @internal Lattice cells along each side of the terrain's noise texture (the noise repeats every this many cells). */
export const TERRAIN_NOISE_SIZE = 512;

/**
 * @internal The terrain's value-noise lattice: one random value in [0, 1] per cell corner of a `TERRAIN_NOISE_SIZE` square,
 * repeating, as r8unorm texels. The fragment shader reads a noise value with one bilinear fetch at the corner
 * plus the smoothstep of the fraction (the same function as four hashed corners blended, at an eighth of the
 * arithmetic: the G-buffer's fragment work is what a data-centre GPU's raster path is slowest at).
 */
export function terrain_noise_texels(size = TERRAIN_NOISE_SIZE): Uint8Array {
    const texels = new Uint8Array(size * size);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) texels[y * size + x] = Math.round(hash2(x, y) * 255);
    return texels;
}

// a 32-bit integer hash of a lattice point, in [0, 1]
function hash2(x: number, y: number): number {
    let h = (Math.imul(x + 4096, 0x27d4eb2d) ^ Math.imul(y + 4096, 0x165667b1)) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    h = Math.imul(h ^ (h >>> 12), 0x297a2d39) >>> 0;
    return ((h ^ (h >>> 15)) >>> 0) / 4294967295;
}
