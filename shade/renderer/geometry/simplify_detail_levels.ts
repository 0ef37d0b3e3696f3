import { draw_indices, ORDER_TRIANGLES_MAX } from "./draw_indices.js";
import { vertex_cache_order } from "./vertex_cache_order.js";
import type { Geometry } from "./Geometry.js";
import type { GeometryDetailLevel } from "./GeometryDetail.js";
import { check_detail_levels, MAX_DETAIL_LEVELS } from "./GeometryDetail.js";

/** A coarser level to make: keep about `ratio` of the triangles, draw it below `screen_size` (see `GeometryDetailLevel`). */
export interface DetailLevelTarget {
    /** Fraction of the full triangle count to keep, in (0, 1); each level's below the one before it. */
    readonly ratio: number;
    /** Drawn below this screen size (the bounding sphere's diameter over the view's height), in (0, 1]. */
    readonly screen_size: number;
}

export interface SimplifyOptions {
    /**
     * The most a level may move the surface, relative to the geometry's extent (meshoptimizer's target error);
     * default 0.05. A level that cannot reach its ratio within it stops short (fewer triangles removed).
     */
    readonly max_error?: number;
    /** Geometries with fewer triangles are left without levels (returns []); default 64. */
    readonly min_triangles?: number;
}

// meshoptimizer's simplifier (WebAssembly) is loaded with the first geometry simplified, not with the engine
let simplifier: Promise<typeof import("meshoptimizer/simplifier").MeshoptSimplifier> | null = null;
function load_simplifier(): Promise<typeof import("meshoptimizer/simplifier").MeshoptSimplifier> {
    simplifier ??= import("meshoptimizer/simplifier").then(async ({ MeshoptSimplifier }) => {
        await MeshoptSimplifier.ready;
        return MeshoptSimplifier;
    });
    return simplifier;
}

/**
 * Makes a geometry's coarser levels of detail with meshoptimizer's simplifier (edge collapses that keep uv, skin
 * and normal seams and the mesh's borders) and sets them as `geometry.detail_levels`. Each level simplifies the
 * one before it, starting from the geometry's index with equal vertices glued (`draw_indices`), so the levels
 * index the geometry's own vertices (in vertex cache order). A level that removes less than a tenth of the
 * triangles left is dropped, and the ones after it. Throws for targets out of range, naming the level.
 */
export async function simplify_detail_levels(
    geometry: Geometry,
    targets: readonly DetailLevelTarget[],
    options: SimplifyOptions = {},
): Promise<readonly GeometryDetailLevel[]> {
    if (targets.length > MAX_DETAIL_LEVELS - 1) {
        throw new RangeError(`simplify_detail_levels: at most ${MAX_DETAIL_LEVELS - 1} coarser levels, got ${targets.length}`);
    }
    let previous = 1;
    targets.forEach((target, l) => {
        if (!(typeof target.ratio === "number" && target.ratio > 0 && target.ratio < previous)) {
            throw new RangeError(`simplify_detail_levels: targets[${l}].ratio must be in (0, ${previous}), got ${String(target.ratio)}`);
        }
        previous = target.ratio;
    });
    const max_error = options.max_error ?? 0.05;
    if (!(max_error > 0)) throw new RangeError(`simplify_detail_levels: max_error must be positive, got ${String(options.max_error)}`);
    // the screen sizes are checked as the levels they become are
    check_detail_levels(targets.map((t) => ({ index: new Uint16Array(3), screen_size: t.screen_size })));

    const triangles = geometry.index.length / 3;
    if (targets.length === 0 || triangles < (options.min_triangles ?? 64)) {
        geometry.detail_levels = [];
        return geometry.detail_levels;
    }
    const meshopt = await load_simplifier();
    const drawn = draw_indices(geometry);
    let index: Uint32Array = Uint32Array.from(drawn.surface ?? geometry.index);
    const positions = geometry.attributes.position.array as Float32Array;
    const levels: GeometryDetailLevel[] = [];
    const wide = geometry.index instanceof Uint32Array;
    for (const target of targets) {
        const wanted = Math.max(3, Math.floor(triangles * target.ratio) * 3);
        // Sparse: the glued index leaves vertices unreferenced, and meshoptimizer otherwise counts them in its seams
        // (a vertex of one position with an unreferenced twin reads as a seam it cannot collapse: the glTF Fox,
        // an unindexed soup glued, did not lose a triangle without it)
        const [simplified] = meshopt.simplify(index, positions, 3, wanted, max_error, ["Sparse"]);
        if (simplified.length === 0 || simplified.length > index.length * 0.9) break;
        // in vertex cache order, as the full index is
        const ordered = simplified.length / 3 <= ORDER_TRIANGLES_MAX ? vertex_cache_order(simplified, geometry.vertex_count) : simplified;
        levels.push({ index: wide ? ordered : Uint16Array.from(ordered), screen_size: target.screen_size });
        index = simplified;
    }
    geometry.detail_levels = levels;
    return levels;
}
