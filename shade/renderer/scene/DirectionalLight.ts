import { vec3 } from "gl-matrix";

/** A light from infinitely far away (the sun): `direction` points from the light into the scene. */
export class DirectionalLight {
    readonly direction: Float32Array = vec3.fromValues(-0.4, -1, -0.3) as Float32Array;
    /** Linear RGB. */
    readonly color: Float32Array = vec3.fromValues(1, 1, 1) as Float32Array;
    /** Illuminance multiplier. */
    intensity = 3;
}
