/** Entries of the modelled post-transform cache (GPUs reuse within small batches: a small cache models them). */
const CACHE = 16;
const LAST_TRIANGLE_SCORE = 0.75;
const DECAY = 1.5;
const VALENCE_SCALE = 2;
const VALENCE_POWER = -0.5;

/**
 * The same triangles (each keeps its winding) in an order that reuses recently shaded vertices, by Tom Forsyth's
 * "Linear-speed vertex cache optimisation": greedily the triangle whose vertices score best, a vertex scoring by
 * how recently it was used and how few triangles still need it. GPUs shade a vertex once per small batch of
 * nearby triangles; an index in arbitrary order (as exported) shades shared vertices again and again.
 */
export function vertex_cache_order<T extends Uint16Array | Uint32Array>(index: T, vertex_count: number): T {
    const triangles = Math.floor(index.length / 3);
    const out = index.slice() as T;
    if (triangles < 2) return out;
    // triangles of each vertex (compressed rows), and how many are still to emit
    const remaining = new Uint32Array(vertex_count);
    for (let i = 0; i < triangles * 3; i++) remaining[index[i]]++;
    const start = new Uint32Array(vertex_count + 1);
    for (let v = 0; v < vertex_count; v++) start[v + 1] = start[v] + remaining[v];
    const fill = start.slice(0, vertex_count);
    const adjacent = new Uint32Array(triangles * 3);
    for (let t = 0; t < triangles; t++) for (let k = 0; k < 3; k++) adjacent[fill[index[t * 3 + k]]++] = t;
    // live triangles are kept at the front of each vertex's row: [start, start + remaining)
    const position = new Int32Array(vertex_count).fill(-1);
    const score = new Float32Array(vertex_count);
    for (let v = 0; v < vertex_count; v++) score[v] = vertex_score(-1, remaining[v]);
    const triangle_score = new Float32Array(triangles);
    const emitted = new Uint8Array(triangles);
    for (let t = 0; t < triangles; t++) triangle_score[t] = score[index[t * 3]] + score[index[t * 3 + 1]] + score[index[t * 3 + 2]];
    let cache = new Int32Array(CACHE + 3).fill(-1);
    let next_cache = new Int32Array(CACHE + 3).fill(-1);
    let best = -1;
    let scan = 0;
    for (let written = 0; written < triangles; written++) {
        if (best === -1) {
            // nothing in the cache scores: the best of all triangles left (a linear scan from where the last ended)
            let best_score = -1;
            for (let t = scan; t < triangles; t++) {
                if (emitted[t] === 0 && triangle_score[t] > best_score) {
                    best_score = triangle_score[t];
                    best = t;
                }
            }
            while (scan < triangles && emitted[scan] !== 0) scan++;
        }
        const t = best;
        emitted[t] = 1;
        out[written * 3] = index[t * 3];
        out[written * 3 + 1] = index[t * 3 + 1];
        out[written * 3 + 2] = index[t * 3 + 2];
        // its vertices to the cache's front, each losing this triangle from its row
        let n = 0;
        for (let k = 0; k < 3; k++) {
            const v = index[t * 3 + k];
            next_cache[n++] = v;
            const row = start[v];
            const live = remaining[v];
            for (let i = row; i < row + live; i++) {
                if (adjacent[i] === t) {
                    adjacent[i] = adjacent[row + live - 1];
                    adjacent[row + live - 1] = t;
                    break;
                }
            }
            remaining[v] = live - 1;
        }
        for (let i = 0; i < CACHE; i++) {
            const v = cache[i];
            if (v === -1) break;
            if (v !== next_cache[0] && v !== next_cache[1] && v !== next_cache[2]) next_cache[n++] = v;
        }
        const swap = cache;
        cache = next_cache;
        next_cache = swap;
        next_cache.fill(-1);
        // rescore the cached vertices (and those that fell out) and their live triangles; pick the best
        for (let i = 0; i < n; i++) {
            const v = cache[i];
            position[v] = i < CACHE ? i : -1;
            if (i >= CACHE) cache[i] = -1;
            const was = score[v];
            const now = vertex_score(position[v], remaining[v]);
            score[v] = now;
            const delta = now - was;
            for (let j = start[v]; j < start[v] + remaining[v]; j++) triangle_score[adjacent[j]] += delta;
        }
        best = -1;
        let best_score = 0;
        for (let i = 0; i < CACHE && cache[i] !== -1; i++) {
            const v = cache[i];
            for (let j = start[v]; j < start[v] + remaining[v]; j++) {
                const s = triangle_score[adjacent[j]];
                if (s > best_score) {
                    best_score = s;
                    best = adjacent[j];
                }
            }
        }
    }
    return out;
}

function vertex_score(position: number, remaining: number): number {
    if (remaining === 0) return -1;
    let score = 0;
    if (position >= 0) {
        score = position < 3 ? LAST_TRIANGLE_SCORE : Math.pow(1 - (position - 3) / (CACHE - 3), DECAY);
    }
    return score + VALENCE_SCALE * Math.pow(remaining, VALENCE_POWER);
}

/**
 * Vertex shader runs per triangle of `index` through a FIFO post-transform cache of `size` entries: 3 when
 * nothing is reused, 0.5 at best for a large regular mesh.
 */
export function average_cache_miss_ratio(index: ArrayLike<number>, size: number): number {
    let vertices = 0;
    for (let i = 0; i < index.length; i++) if (index[i] >= vertices) vertices = index[i] + 1;
    // a vertex is cached while fewer than `size` misses came after its own
    const missed_at = new Float64Array(vertices).fill(-Infinity);
    let misses = 0;
    for (let i = 0; i < index.length; i++) {
        const v = index[i];
        if (misses - missed_at[v] <= size) continue;
        missed_at[v] = misses;
        misses++;
    }
    return misses / Math.max(1, Math.floor(index.length / 3));
}
