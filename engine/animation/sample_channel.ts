import type { AnimationChannel } from "./AnimationChannel.js";
import { ANIMATION_SCRATCH, SCRATCH_FACTOR, SCRATCH_TIME } from "./animation_scratch.js";
import { slerp_quaternion_scratch } from "./slerp_quaternion.js";

/**
 * The keyframe whose interval holds `time`: the last k with times[k] <= time (0 before the first key). Binary
 * search; allocates nothing.
 */
export function find_keyframe(times: Float32Array, time: number): number {
    let lo = 0;
    let hi = times.length - 1;
    if (hi <= 0 || time < times[1]) return 0;
    if (time >= times[hi]) return hi;
    while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (times[mid] <= time) lo = mid;
        else hi = mid;
    }
    return lo;
}

/**
 * Writes the channel's value at `time` (seconds; held at the first and last keys outside them) to
 * `out[offset .. offset + components]`: STEP holds the key's value, LINEAR interpolates (rotations by slerp),
 * CUBICSPLINE follows glTF's Hermite spline through values and tangents (rotations renormalised). Allocates nothing.
 */
export function sample_channel(channel: AnimationChannel, time: number, out: Float32Array, offset: number): void {
    ANIMATION_SCRATCH[SCRATCH_TIME] = time;
    sample_channel_scratch(channel, out, offset);
}

/** @internal `sample_channel` at the time in ANIMATION_SCRATCH[SCRATCH_TIME] (see animation_scratch.ts). */
export function sample_channel_scratch(channel: AnimationChannel, out: Float32Array, offset: number): void {
    const time = ANIMATION_SCRATCH[SCRATCH_TIME];
    const { times, values, components: c, interpolation } = channel;
    const n = times.length;
    if (n === 0) return;
    const cubic = interpolation === "CUBICSPLINE";
    // CUBICSPLINE keys are [in-tangent, value, out-tangent]; the value is the middle one
    const stride = cubic ? 3 * c : c;
    const value_at = cubic ? c : 0;
    const k = find_keyframe(times, time);
    if (interpolation === "STEP" || k === n - 1 || time <= times[0]) {
        const from = k * stride + value_at;
        for (let i = 0; i < c; i++) out[offset + i] = values[from + i];
        return;
    }
    const t0 = times[k];
    const dt = times[k + 1] - t0;
    const t = dt > 0 ? (time - t0) / dt : 0;
    const rotation = channel.path === "rotation";
    if (!cubic) {
        if (rotation) {
            ANIMATION_SCRATCH[SCRATCH_FACTOR] = t;
            slerp_quaternion_scratch(out, offset, values, k * c, values, (k + 1) * c);
            return;
        }
        const a = k * c;
        const b = a + c;
        for (let i = 0; i < c; i++) out[offset + i] = values[a + i] + (values[b + i] - values[a + i]) * t;
        return;
    }
    const t2 = t * t;
    const t3 = t2 * t;
    const h00 = 2 * t3 - 3 * t2 + 1;
    const h10 = (t3 - 2 * t2 + t) * dt;
    const h01 = -2 * t3 + 3 * t2;
    const h11 = (t3 - t2) * dt;
    const v0 = k * stride + c; // value k
    const b0 = k * stride + 2 * c; // out-tangent k
    const a1 = (k + 1) * stride; // in-tangent k + 1
    const v1 = (k + 1) * stride + c; // value k + 1
    for (let i = 0; i < c; i++) out[offset + i] = h00 * values[v0 + i] + h10 * values[b0 + i] + h01 * values[v1 + i] + h11 * values[a1 + i];
    if (rotation) {
        const x = out[offset], y = out[offset + 1], z = out[offset + 2], w = out[offset + 3];
        const length = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
        for (let i = 0; i < 4; i++) out[offset + i] /= length;
    }
}
