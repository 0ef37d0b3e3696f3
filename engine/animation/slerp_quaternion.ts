import { ANIMATION_SCRATCH, SCRATCH_FACTOR } from "./animation_scratch.js";

/**
 * Spherical interpolation of the unit quaternions (xyzw) at `a[ai..]` and `b[bi..]` into `out[oi..]`, the shorter way
 * round (b's sign flipped when the two are more than 180 degrees apart). Nearly equal ones are blended linearly and
 * renormalised, where slerp's division would lose precision. Allocates nothing; `out` may alias an input.
 */
export function slerp_quaternion(out: Float32Array, oi: number, a: Float32Array, ai: number, b: Float32Array, bi: number, t: number): void {
    ANIMATION_SCRATCH[SCRATCH_FACTOR] = t;
    slerp_quaternion_scratch(out, oi, a, ai, b, bi);
}

/** @internal `slerp_quaternion` with the factor in ANIMATION_SCRATCH[SCRATCH_FACTOR] (see animation_scratch.ts). */
export function slerp_quaternion_scratch(out: Float32Array, oi: number, a: Float32Array, ai: number, b: Float32Array, bi: number): void {
    const t = ANIMATION_SCRATCH[SCRATCH_FACTOR];
    const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
    let bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
    let cos = ax * bx + ay * by + az * bz + aw * bw;
    if (cos < 0) {
        cos = -cos;
        bx = -bx;
        by = -by;
        bz = -bz;
        bw = -bw;
    }
    let wa: number;
    let wb: number;
    if (cos > 0.9995) {
        wa = 1 - t;
        wb = t;
    } else {
        const angle = Math.acos(cos);
        const sin = Math.sin(angle);
        wa = Math.sin((1 - t) * angle) / sin;
        wb = Math.sin(t * angle) / sin;
    }
    const x = wa * ax + wb * bx, y = wa * ay + wb * by, z = wa * az + wb * bz, w = wa * aw + wb * bw;
    const length = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
    out[oi] = x / length;
    out[oi + 1] = y / length;
    out[oi + 2] = z / length;
    out[oi + 3] = w / length;
}
