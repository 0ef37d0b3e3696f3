import { next_geometry_stamp } from "./geometry_stamp.js";

/**
 * One per-vertex attribute of a `Geometry`: `item_size` floats per vertex, packed in `array`.
 * The array is yours to rewrite in place or to replace; the renderer reads it only when it is flagged
 * `needsUpdate` (this attribute alone, three.js-style), when its geometry is, or the first time it sees the
 * geometry. Flagging one attribute moves the geometry's `version` too, so every renderer notices; the dynamic
 * mesh path then uploads only the flagged attributes, where the vertex count and the index are unchanged.
 */
export class GeometryAttribute {
    array: Float32Array;
    readonly item_size: number;
    #needs_update = false;
    // stamps are unique and increasing across all geometries and attributes (see geometry_stamp.ts)
    #version = next_geometry_stamp();

    constructor(array: Float32Array, item_size: number) {
        if (!(item_size >= 1 && item_size <= 4) || (item_size | 0) !== item_size) {
            throw new RangeError(`GeometryAttribute: item_size must be 1..4, got ${item_size}`);
        }
        if (array.length % item_size !== 0) {
            throw new RangeError(`GeometryAttribute: ${array.length} floats is not a whole number of ${item_size}-float items`);
        }
        this.array = array;
        this.item_size = item_size;
    }

    /** Vertices the attribute holds now. */
    get count(): number {
        return (this.array.length / this.item_size) | 0;
    }

    /** True from `needsUpdate = true` until a renderer uploads the attribute (or its geometry). */
    get needsUpdate(): boolean {
        return this.#needs_update;
    }

    /** `true`: this attribute's array changed (same length); renderers upload it before their next draw. */
    set needsUpdate(value: boolean) {
        if (value) this.#version = next_geometry_stamp();
        this.#needs_update = value;
    }

    /** Moved by every `needsUpdate = true`; never repeats. */
    get version(): number {
        return this.#version;
    }
}
