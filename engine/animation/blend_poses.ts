import { ANIMATION_SCRATCH, SCRATCH_FACTOR } from "./animation_scratch.js";
import type { AnimationPose } from "./AnimationPose.js";
import { slerp_quaternion_scratch } from "./slerp_quaternion.js";

/**
 * `out` = `a` blended towards `b` by `t` (0: a, 1: b): translations, scales and weights linearly, rotations by
 * slerp the short way. The three poses are of the same nodes; `out` may be `a` or `b`. Allocates nothing.
 */
export function blend_poses(a: AnimationPose, b: AnimationPose, t: number, out: AnimationPose): void {
    ANIMATION_SCRATCH[SCRATCH_FACTOR] = t;
    blend_poses_scratch(a, b, out);
}

/** @internal `blend_poses` by the factor in ANIMATION_SCRATCH[SCRATCH_FACTOR] (see animation_scratch.ts). */
export function blend_poses_scratch(a: AnimationPose, b: AnimationPose, out: AnimationPose): void {
    lerp(a.translation, b.translation, out.translation);
    lerp(a.scale, b.scale, out.scale);
    lerp(a.weights, b.weights, out.weights);
    // the factor stays in the scratch for every node's slerp (slerp only reads it)
    for (let i = 0; i < out.node_count; i++) slerp_quaternion_scratch(out.rotation, i * 4, a.rotation, i * 4, b.rotation, i * 4);
}

function lerp(a: Float32Array, b: Float32Array, out: Float32Array): void {
    const t = ANIMATION_SCRATCH[SCRATCH_FACTOR];
    for (let i = 0; i < out.length; i++) out[i] = a[i] + (b[i] - a[i]) * t;
}
