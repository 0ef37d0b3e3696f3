import { vec3 } from "gl-matrix";

/** A light radiating from a point, falling off with the inverse square of distance, windowed to `range`. */
export class PointLight {
    readonly position: Float32Array = vec3.create() as Float32Array;
    /** Linear RGB. */
    readonly color: Float32Array = vec3.fromValues(1, 1, 1) as Float32Array;
    intensity = 10;
    /** Beyond this distance the light contributes nothing. */
    range = 10;
}
