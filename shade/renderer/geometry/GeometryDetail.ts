/** Levels a mesh draw can pick from: the geometry's full index and up to three coarser ones. */
export const MAX_DETAIL_LEVELS = 4;

/**
 * A coarser level of detail of a geometry: a triangle list over the geometry's own vertices (fewer triangles,
 * the same vertex numbering, so every vertex buffer and skin serves it), drawn for a mesh whose bounding sphere
 * covers less than `screen_size` of the view's height: its diameter on screen over the view's height
 * (`radius * projection[1][1] / distance`). `simplify_detail_levels` makes them; hand-made ones are as good.
 */
export interface GeometryDetailLevel {
    /** Triangle list, three indices per triangle, each below the geometry's vertex count. */
    readonly index: Uint16Array | Uint32Array;
    /** Drawn below this screen size, in (0, 1]; each level's below the one before it. */
    readonly screen_size: number;
}

/** Throws, naming the level and what is wrong, unless `levels` are a valid set of detail levels. */
export function check_detail_levels(levels: readonly GeometryDetailLevel[]): void {
    if (levels.length > MAX_DETAIL_LEVELS - 1) {
        throw new RangeError(`Geometry.detail_levels: at most ${MAX_DETAIL_LEVELS - 1} coarser levels, got ${levels.length}`);
    }
    let previous = Number.POSITIVE_INFINITY;
    for (let l = 0; l < levels.length; l++) {
        const level = levels[l];
        if (!(level.index instanceof Uint16Array || level.index instanceof Uint32Array)) {
            throw new TypeError(`Geometry.detail_levels[${l}]: index must be a Uint16Array or Uint32Array`);
        }
        if (level.index.length === 0 || level.index.length % 3 !== 0) {
            throw new RangeError(`Geometry.detail_levels[${l}]: the index is a triangle list; ${level.index.length} indices is not a positive multiple of 3`);
        }
        const s = level.screen_size;
        if (!(typeof s === "number" && s > 0 && s <= 1)) {
            throw new RangeError(`Geometry.detail_levels[${l}]: screen_size must be in (0, 1], got ${String(s)}`);
        }
        if (!(s < previous)) {
            throw new RangeError(`Geometry.detail_levels[${l}]: screen_size ${s} must be below the level before it (${previous}): coarser levels are drawn smaller`);
        }
        previous = s;
    }
}
