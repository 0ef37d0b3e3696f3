const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The IEEE 754 binary16 bits nearest to `value` (round to nearest even); values past the largest half (65504)
 * become 65504, so an HDR's sun stays the brightest texel rather than infinity. NaN becomes 0.
 */
export function float_to_half(value: number): number {
    if (Number.isNaN(value)) return 0;
    f32[0] = value;
    const bits = u32[0];
    const sign = (bits >>> 16) & 0x8000;
    const exponent = (bits >>> 23) & 0xff;
    const mantissa = bits & 0x7fffff;
    if (exponent >= 143) return sign | 0x7bff; // |value| >= 65536 (or infinite): the largest finite half
    if (exponent >= 113) {
        // normal half: round the 23-bit mantissa to 10 bits, ties to even; a carry may bump the exponent
        let half = ((exponent - 112) << 10) | (mantissa >>> 13);
        const rest = mantissa & 0x1fff;
        if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half++;
        return sign | Math.min(half, 0x7bff);
    }
    if (exponent >= 102) {
        // subnormal half
        const m = mantissa | 0x800000;
        const shift = 126 - exponent;
        let half = m >>> shift;
        const rest = m & ((1 << shift) - 1);
        const halfway = 1 << (shift - 1);
        if (rest > halfway || (rest === halfway && (half & 1) === 1)) half++;
        return sign | half;
    }
    return sign;
}

/** `values` as half floats (see `float_to_half`). */
export function to_half_floats(values: Float32Array): Uint16Array {
    const out = new Uint16Array(values.length);
    for (let i = 0; i < values.length; i++) out[i] = float_to_half(values[i]);
    return out;
}
