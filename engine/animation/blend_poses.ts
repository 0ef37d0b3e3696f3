import type { AnimationPose } from "./AnimationPose.js";
import { slerp_quaternion } from "./slerp_quaternion.js";

/**
 * `out` = `a` blended towards `b` by `t` (0: a, 1: b): translations, scales and weights linearly, rotations by
 * slerp the short way. The three poses are of the same nodes; `out` may be `a` or `b`. Allocates nothing.
 */
export function blend_poses(a: AnimationPose, b: AnimationPose, t: number, out: AnimationPose): void {
    lerp(a.translation, b.translation, t, out.translation);
    lerp(a.scale, b.scale, t, out.scale);
    lerp(a.weights, b.weights, t, out.weights);
    for (let i = 0; i < out.node_count; i++) slerp_quaternion(out.rotation, i * 4, a.rotation, i * 4, b.rotation, i * 4, t);
}

function lerp(a: Float32Array, b: Float32Array, t: number, out: Float32Array): void {
    for (let i = 0; i < out.length; i++) out[i] = a[i] + (b[i] - a[i]) * t;
}
