import type { Geometry, GeometryAttributes } from "./Geometry.js";
import { average_cache_miss_ratio, vertex_cache_order } from "./vertex_cache_order.js";

/**
 * Triangles past which the draw indices are not reordered: the ordering runs at a geometry's first upload,
 * about 1.5 us a triangle (50 ms at this many).
 */
export const ORDER_TRIANGLES_MAX = 1 << 15;

// the cache the comparison models: a small one, as a GPU's batches are
const CACHE_MODEL = 16;
// a vertex normal this close to its face's (cosine) counts as the face's
const FLAT_COSINE = 0.9999;

/** The name of one of a geometry's attributes. */
export type GeometryAttributeName = keyof GeometryAttributes;
const SKIN: readonly GeometryAttributeName[] = ["position", "joints", "weights"];
const ALL: readonly GeometryAttributeName[] = ["position", "normal", "uv", "uv1", "tangent", "color", "joints", "weights"];
const ALL_BUT_NORMAL: readonly GeometryAttributeName[] = ALL.filter((a) => a !== "normal");

/**
 * A geometry's index with every vertex replaced by the first vertex equal to it in `attributes` (those the
 * geometry has), bit for bit. Null when no two vertices are equal.
 */
export function glued_index(geometry: Geometry, attributes: readonly GeometryAttributeName[]): Uint16Array | Uint32Array | null {
    const arrays: Uint32Array[] = [];
    const sizes: number[] = [];
    for (const name of attributes) {
        const attribute = geometry.attributes[name];
        if (attribute === undefined) continue;
        const array = attribute.array;
        arrays.push(new Uint32Array(array.buffer, array.byteOffset, array.length));
        sizes.push(attribute.item_size);
    }
    const n = geometry.vertex_count;
    let words = 0;
    for (const size of sizes) words += size;
    const key = new Uint32Array(n * words);
    let at = 0;
    for (let a = 0; a < arrays.length; a++) {
        const source = arrays[a];
        const size = sizes[a];
        for (let v = 0; v < n; v++) for (let k = 0; k < size; k++) key[v * words + at + k] = source[v * size + k];
        at += size;
    }
    // open addressing over the keys: each vertex maps to the first vertex with its key
    let size = 16;
    while (size < n * 2) size *= 2;
    const table = new Int32Array(size).fill(-1);
    const first = new Uint32Array(n);
    let glued = 0;
    for (let v = 0; v < n; v++) {
        const o = v * words;
        let h = 0x811c9dc5;
        for (let k = 0; k < words; k++) h = Math.imul(h ^ key[o + k], 0x01000193);
        let slot = (h ^ (h >>> 15)) & (size - 1);
        for (;;) {
            const other = table[slot];
            if (other === -1) {
                table[slot] = v;
                first[v] = v;
                break;
            }
            if (same(key, other * words, o, words)) {
                first[v] = other;
                glued++;
                break;
            }
            slot = (slot + 1) & (size - 1);
        }
    }
    if (glued === 0) return null;
    const index = geometry.index;
    const out = index instanceof Uint16Array ? new Uint16Array(index.length) : new Uint32Array(index.length);
    for (let i = 0; i < index.length; i++) out[i] = first[index[i]];
    return out;
}

/**
 * The index with every vertex replaced by the first vertex of the same position (and, for a skinned geometry,
 * the same joints and weights, so both skin to the same place), for passes that read positions alone (shadow
 * casters, motion). Glued this way, a mesh whose vertices are split only for normals or uvs (flat shading, uv
 * seams: the glTF Fox's 1,728 vertices are 290 positions) shares its vertex shader runs between its triangles,
 * which matters where the vertex work is what a raster pass pays for. Equal means bit for bit, so the glued draw
 * lands on exactly the pixels and depths of the original. Null when no two vertices are equal.
 */
export function position_index(geometry: Geometry): Uint16Array | Uint32Array | null {
    return glued_index(geometry, geometry.attributes.joints !== undefined ? SKIN : SKIN.slice(0, 1));
}

/**
 * Whether every triangle's vertex normals are its face's normal (as glTF asks of a model without normals, and
 * `read_primitive` computes): such a geometry may be shaded with the face normal the fragment's screen
 * derivatives give, and its vertices then glued across the normals that alone split them. False without normals.
 */
export function is_flat_shaded(geometry: Geometry): boolean {
    const normal = geometry.attributes.normal?.array;
    if (normal === undefined) return false;
    const p = geometry.attributes.position.array;
    const index = geometry.index;
    for (let t = 0; t + 2 < index.length; t += 3) {
        const a = index[t] * 3;
        const b = index[t + 1] * 3;
        const c = index[t + 2] * 3;
        const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
        const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
        const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        // a degenerate triangle covers no pixels: any normal will do
        if (!(length > 1e-20)) continue;
        for (const v of [a, b, c]) {
            const m = Math.sqrt(normal[v] * normal[v] + normal[v + 1] * normal[v + 1] + normal[v + 2] * normal[v + 2]);
            if (!((normal[v] * nx + normal[v + 1] * ny + normal[v + 2] * nz) / (m * length) >= FLAT_COSINE)) return false;
        }
    }
    return true;
}

/** The indices a geometry draws with beyond its own (`draw_indices`): each null where it would be the geometry's index. */
export interface DrawIndices {
    /** For passes that read positions alone: `position_index`, in vertex cache order. */
    readonly position: Uint16Array | Uint32Array | null;
    /**
     * For the passes that shade surfaces into the G-buffer (and its depth prepass): equal vertices glued (all
     * attributes; all but the normal when `flat`), in vertex cache order.
     */
    readonly surface: Uint16Array | Uint32Array | null;
    /** `is_flat_shaded`: the surface index glues across normals, and is drawn with normals from screen derivatives. */
    readonly flat: boolean;
}

/**
 * The indices the passes of a lit mesh draw `geometry` with: glued (equal vertices share vertex shader runs) and
 * put in vertex cache order (`vertex_cache_order`, up to `ORDER_TRIANGLES_MAX` triangles). The triangles and their
 * windings are the geometry's: depth and coverage are the same whatever the order, so passes drawing the same
 * surfaces with different ones still meet exactly (a depth test "equal" or "less-equal" against another's depth).
 */
export function draw_indices(geometry: Geometry): DrawIndices {
    const flat = is_flat_shaded(geometry);
    return {
        position: ordered(geometry, position_index(geometry)),
        surface: ordered(geometry, glued_index(geometry, flat ? ALL_BUT_NORMAL : ALL)),
        flat,
    };
}

// `glued` (or the geometry's own index) in vertex cache order; null where that is the geometry's index and the
// order gains little (an index already in a good order is not kept twice)
function ordered(geometry: Geometry, glued: Uint16Array | Uint32Array | null): Uint16Array | Uint32Array | null {
    const index = glued ?? geometry.index;
    if (index.length / 3 > ORDER_TRIANGLES_MAX) return glued;
    const out = vertex_cache_order(index, geometry.vertex_count);
    if (glued === null && average_cache_miss_ratio(out, CACHE_MODEL) > 0.9 * average_cache_miss_ratio(index, CACHE_MODEL)) return null;
    return out;
}

function same(key: Uint32Array, a: number, b: number, words: number): boolean {
    for (let k = 0; k < words; k++) if (key[a + k] !== key[b + k]) return false;
    return true;
}
