import { mat4, vec3 } from "gl-matrix";
import type { Camera } from "../scene/Camera.js";

/** Most cascades a shadow map holds. */
export const MAX_SHADOW_CASCADES = 4;
/** Floats of the `ShadowCascades` uniform block (see `SHADOW_WGSL`). */
export const SHADOW_CASCADES_FLOATS = 80;

/**
 * The cascades of a directional light's shadow map, fitted to a camera's view frustum: the frustum up to
 * `distance` is split into `count` slices (between logarithmic and uniform by `split_lambda`), and each slice
 * is covered by an orthographic box around its bounding sphere, seen along the light. The sphere's radius
 * depends only on the slice and the projection, so the box keeps its size as the camera turns, and its
 * centre is snapped to whole shadow-map texels, so that the shadow edges do not crawl as the camera moves.
 * Device-independent; `fit` allocates nothing.
 */
export class ShadowCascades {
    /** `count` light view-projections, 16 floats each (clip z in [0, 1], as WebGPU wants). */
    readonly matrices = new Float32Array(16 * MAX_SHADOW_CASCADES);
    /** The far view depth of each cascade (the near one of cascade i is the far one of i - 1, or the camera's near). */
    readonly splits = new Float32Array(MAX_SHADOW_CASCADES);
    /** The world size of one shadow-map texel in each cascade. */
    readonly texel_world = new Float32Array(MAX_SHADOW_CASCADES);
    /** Each cascade's bounding-sphere centre after snapping (world space), 3 floats each. */
    readonly centers = new Float32Array(3 * MAX_SHADOW_CASCADES);
    count = 0;

    readonly #forward = vec3.create();
    readonly #center = vec3.create();
    readonly #light_view = mat4.create();
    readonly #projection = mat4.create();
    readonly #view_projection = mat4.create();
    readonly #origin = vec3.create();
    readonly #along = vec3.create();
    readonly #up = vec3.create();

    /**
     * Fits `count` cascades. `aspect` is the camera's width / height; `resolution` the texels along one side
     * of a cascade; `caster_distance` how far beyond a slice's sphere, towards the light, casters still count.
     */
    fit(
        camera: Camera,
        aspect: number,
        direction: ArrayLike<number>,
        count: number,
        distance: number,
        split_lambda: number,
        resolution: number,
        caster_distance: number,
    ): void {
        this.count = count;
        const near = camera.near;
        const far = Math.max(near * 1.001, Math.min(camera.far, distance));
        const forward = vec3.subtract(this.#forward, camera.target as vec3, camera.position as vec3);
        vec3.normalize(forward, forward);
        const tan = Math.tan(camera.fov_y / 2);
        // distance off the axis of a frustum corner per unit of view depth, squared
        const k2 = tan * tan * (1 + aspect * aspect);

        // the light's rotation: looking along `direction` from the origin
        const along = vec3.set(this.#along, direction[0], direction[1], direction[2]);
        vec3.normalize(along, along);
        const up = Math.abs(along[1]) > 0.99 ? vec3.set(this.#up, 0, 0, 1) : vec3.set(this.#up, 0, 1, 0);
        mat4.lookAt(this.#light_view, this.#origin, along, up);
        const view = this.#light_view;

        let a = near;
        for (let i = 0; i < count; i++) {
            const t = (i + 1) / count;
            const log = near * Math.pow(far / near, t);
            const uniform = near + (far - near) * t;
            const b = i === count - 1 ? far : split_lambda * log + (1 - split_lambda) * uniform;
            // the sphere through the slice's near and far corners, centred on the axis
            let z = ((a + b) * (1 + k2)) / 2;
            let radius: number;
            if (z >= b) {
                z = b;
                radius = b * Math.sqrt(k2);
            } else {
                radius = Math.sqrt((b - z) * (b - z) + b * b * k2);
            }
            // a hair larger, so that PCF taps at the sphere's edge stay inside the map
            radius *= 1 + 2 / resolution;
            const center = vec3.scaleAndAdd(this.#center, camera.position as vec3, forward, z);
            // the centre in light space, snapped to whole texels
            const texel = (2 * radius) / resolution;
            const lx = Math.floor((view[0] * center[0] + view[4] * center[1] + view[8] * center[2]) / texel) * texel;
            const ly = Math.floor((view[1] * center[0] + view[5] * center[1] + view[9] * center[2]) / texel) * texel;
            const lz = view[2] * center[0] + view[6] * center[1] + view[10] * center[2];
            // light space looks down -z: depth = -lz
            mat4.orthoZO(this.#projection, lx - radius, lx + radius, ly - radius, ly + radius, -lz - radius - caster_distance, -lz + radius);
            this.matrices.set(mat4.multiply(this.#view_projection, this.#projection, view), i * 16);
            this.splits[i] = b;
            this.texel_world[i] = texel;
            // the snapped centre back in world space (the rotation's transpose)
            const c = this.centers;
            c[i * 3] = view[0] * lx + view[1] * ly + view[2] * lz;
            c[i * 3 + 1] = view[4] * lx + view[5] * ly + view[6] * lz;
            c[i * 3 + 2] = view[8] * lx + view[9] * ly + view[10] * lz;
            a = b;
        }
    }

    /** Writes the `ShadowCascades` uniform block (see `SHADOW_WGSL`) into `out` (`SHADOW_CASCADES_FLOATS` floats). */
    write_uniforms(out: Float32Array, atlas_width: number, atlas_height: number, depth_bias: number): void {
        out.set(this.matrices, 0);
        for (let i = 0; i < MAX_SHADOW_CASCADES; i++) {
            out[64 + i] = i < this.count ? this.splits[i] : 0;
            out[68 + i] = i < this.count ? this.texel_world[i] : 0;
        }
        out[72] = this.count;
        out[73] = 1 / atlas_width;
        out[74] = 1 / atlas_height;
        out[75] = depth_bias;
    }
}
