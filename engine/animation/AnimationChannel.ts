/** What a channel animates on its node. */
export type AnimationPath = "translation" | "rotation" | "scale" | "weights";

/** How values between keyframes are found (glTF's three). */
export type AnimationInterpolation = "LINEAR" | "STEP" | "CUBICSPLINE";

/**
 * One animated property of one node: keyframe times (seconds, increasing) and values, `components` floats per
 * value (3 translation/scale, 4 rotation xyzw, the morph target count for weights). CUBICSPLINE stores three values
 * per keyframe: in-tangent, value, out-tangent.
 */
export interface AnimationChannel {
    readonly node: number;
    readonly path: AnimationPath;
    readonly interpolation: AnimationInterpolation;
    readonly times: Float32Array;
    readonly values: Float32Array;
    readonly components: number;
}
