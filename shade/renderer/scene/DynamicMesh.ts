import { mat4, quat, vec3 } from "gl-matrix";
import type { Geometry } from "../geometry/Geometry.js";

/**
 * A node drawn by `GPUDynamicMeshRenderer`: a `Geometry`, an RGBA colour (straight alpha, multiplied with
 * any per-vertex colour) and a transform. `position`, `rotation` (a quaternion) and `scale` are the local
 * transform; `world_matrix` is derived from them by `updateMatrices()` and is unset until that is first
 * called, so a mesh that was never placed fails loudly instead of drawing at a stale or identity transform.
 */
export class DynamicMesh {
    geometry: Geometry;
    /** RGBA, straight alpha. Write it in place; it is read every frame. */
    readonly color = new Float32Array(4);
    readonly position = vec3.create();
    readonly rotation = quat.create();
    readonly scale = vec3.fromValues(1, 1, 1);
    readonly #world_matrix = new Float32Array(16);
    #has_world_matrix = false;

    constructor(geometry: Geometry, color: ArrayLike<number> = WHITE) {
        this.geometry = geometry;
        this.set_color(color);
    }

    /** A mesh of `geometry` with `color` (RGBA, or RGB with alpha 1). */
    static from(geometry: Geometry, color: ArrayLike<number>): DynamicMesh {
        return new DynamicMesh(geometry, color);
    }

    /** Copies `color` (RGBA, or RGB with alpha 1) into `this.color`. */
    set_color(color: ArrayLike<number>): void {
        if (color.length !== 3 && color.length !== 4) {
            throw new RangeError(`DynamicMesh: a colour is RGBA (or RGB), got ${color.length} components`);
        }
        this.color[0] = color[0];
        this.color[1] = color[1];
        this.color[2] = color[2];
        this.color[3] = color.length === 4 ? color[3] : 1;
    }

    /** The world transform as of the last `updateMatrices()` (column-major). */
    get world_matrix(): Float32Array {
        if (!this.#has_world_matrix) {
            throw new Error(
                "DynamicMesh.world_matrix read before updateMatrices() was ever called; " +
                    "a mesh's world transform is derived: call mesh.updateMatrices() after placing it",
            );
        }
        return this.#world_matrix;
    }

    /** True once `updateMatrices()` has run. */
    get has_world_matrix(): boolean {
        return this.#has_world_matrix;
    }

    /** Derives `world_matrix` from `position`, `rotation` and `scale`. Call it after changing any of them. */
    updateMatrices(): void {
        mat4.fromRotationTranslationScale(this.#world_matrix, this.rotation, this.position, this.scale);
        this.#has_world_matrix = true;
    }
}

const WHITE = [1, 1, 1, 1] as const;
