import type { Geometry } from "./Geometry.js";
import { average_cache_miss_ratio, vertex_cache_order } from "./vertex_cache_order.js";

// the cache the comparison models: a small one, as a GPU's batches are
const CACHE_MODEL = 16;

/**
 * Triangles past which `position_draw_index` does not reorder: the ordering runs at a geometry's first upload,
 * about 1.5 us a triangle (50 ms at this many).
 */
export const ORDER_TRIANGLES_MAX = 1 << 15;

/**
 * The index that passes reading positions alone draw with: `position_index`, its triangles put in vertex cache
 * order (`vertex_cache_order`, up to `ORDER_TRIANGLES_MAX` triangles), or the geometry's own index reordered when
 * no vertices glue. Null when neither changes anything. The triangles (and their windings) are the geometry's:
 * depth and coverage are the same, whatever the order.
 */
export function position_draw_index(geometry: Geometry): Uint16Array | Uint32Array | null {
    const glued = position_index(geometry);
    const index = glued ?? geometry.index;
    if (index.length / 3 > ORDER_TRIANGLES_MAX) return glued;
    const ordered = vertex_cache_order(index, geometry.vertex_count);
    // an index already in a good order (or too small to gain) is not kept twice
    if (glued === null && average_cache_miss_ratio(ordered, CACHE_MODEL) > 0.9 * average_cache_miss_ratio(index, CACHE_MODEL)) return null;
    return ordered;
}

/**
 * A geometry's index with every vertex replaced by the first vertex of the same position (and, for a skinned
 * geometry, the same joints and weights, so both skin to the same place), for passes that read positions alone
 * (shadow casters, motion). Glued this way, a mesh whose vertices are split only for normals or uvs (flat
 * shading, uv seams: the glTF Fox's 1,728 vertices are 290 positions) shares its vertex shader runs between its
 * triangles, which matters where the vertex work is what a raster pass pays for. Equal means bit for bit, so the
 * glued draw lands on exactly the pixels and depths of the original. Null when no two vertices are equal (draw
 * with the index itself).
 */
export function position_index(geometry: Geometry): Uint16Array | Uint32Array | null {
    const a = geometry.attributes;
    const position = a.position.array;
    const joints = a.joints?.array;
    const weights = a.weights?.array;
    const n = geometry.vertex_count;
    const words = joints !== undefined && weights !== undefined ? 11 : 3;
    const key = new Uint32Array(n * words);
    const p = new Uint32Array(position.buffer, position.byteOffset, n * 3);
    // +0 and -0 differ in bits and not in where they land: compared as bits they stay apart, which only costs a glue
    for (let v = 0; v < n; v++) {
        const o = v * words;
        key[o] = p[v * 3];
        key[o + 1] = p[v * 3 + 1];
        key[o + 2] = p[v * 3 + 2];
    }
    if (words === 11) {
        const j = new Uint32Array(joints!.buffer, joints!.byteOffset, n * 4);
        const w = new Uint32Array(weights!.buffer, weights!.byteOffset, n * 4);
        for (let v = 0; v < n; v++) {
            const o = v * words + 3;
            for (let k = 0; k < 4; k++) {
                key[o + k] = j[v * 4 + k];
                key[o + 4 + k] = w[v * 4 + k];
            }
        }
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

function same(key: Uint32Array, a: number, b: number, words: number): boolean {
    for (let k = 0; k < words; k++) if (key[a + k] !== key[b + k]) return false;
    return true;
}
