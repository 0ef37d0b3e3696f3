/**
 * One per-vertex attribute of a `Geometry`: `item_size` floats per vertex, packed in `array`.
 * The array is yours to rewrite in place or to replace; the renderer reads it only when the geometry is
 * flagged `needsUpdate` (or the first time it sees the geometry).
 */
export class GeometryAttribute {
    array: Float32Array;
    readonly item_size: number;

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
}
