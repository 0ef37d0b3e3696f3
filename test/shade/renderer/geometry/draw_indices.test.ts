// draw_indices: the indices glued and put in vertex cache order (no GPU: device-independent logic).
import { describe, expect, it } from "vitest";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { draw_indices, is_flat_shaded, position_index } from "../../../../shade/renderer/geometry/draw_indices.js";
import { average_cache_miss_ratio, vertex_cache_order } from "../../../../shade/renderer/geometry/vertex_cache_order.js";

describe("position_index", () => {
    it("glues a box's 24 vertices (split for normals) to its 8 corners, each to the first vertex there", () => {
        const box = make_box_geometry(1, 2, 3);
        const glued = position_index(box)!;
        expect(glued).toBeInstanceOf(Uint16Array);
        expect(glued.length).toBe(box.index.length);
        const p = box.attributes.position.array;
        const used = new Set(glued);
        expect(used.size).toBe(8);
        for (let i = 0; i < glued.length; i++) {
            const a = glued[i];
            const b = box.index[i];
            // the same place, and no earlier vertex has it
            expect([p[a * 3], p[a * 3 + 1], p[a * 3 + 2]]).toEqual([p[b * 3], p[b * 3 + 1], p[b * 3 + 2]]);
            for (let v = 0; v < a; v++) expect(p[v * 3] === p[a * 3] && p[v * 3 + 1] === p[a * 3 + 1] && p[v * 3 + 2] === p[a * 3 + 2]).toBe(false);
        }
    });

    it("is null when no two vertices share a position, and keeps 32-bit indices 32-bit", () => {
        const g = new Geometry({ position: Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0), index: Uint32Array.of(0, 1, 2) });
        expect(position_index(g)).toBeNull();
        const twice = new Geometry({ position: Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0), index: Uint32Array.of(0, 1, 2, 3, 2, 1) });
        const glued = position_index(twice)!;
        expect(glued).toBeInstanceOf(Uint32Array);
        expect(Array.from(glued)).toEqual([0, 1, 2, 0, 2, 1]);
    });

    it("keeps apart vertices of one position that skin differently (other joints or other weights)", () => {
        const position = Float32Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0);
        // vertex 0 and 1: other joints; 0 and 2: other weights; 0 and 3: the same skin
        const joints = Float32Array.of(0, 1, 0, 0, 2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        const weights = Float32Array.of(0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0, 0.25, 0.75, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
        const g = new Geometry({ position, joints, weights, index: Uint16Array.of(0, 4, 5, 1, 4, 5, 2, 4, 5, 3, 4, 5) });
        expect(Array.from(position_index(g)!)).toEqual([0, 4, 5, 1, 4, 5, 2, 4, 5, 0, 4, 5]);
    });
});

describe("vertex_cache_order", () => {
    // a 32 x 32 quad grid, its triangles shuffled (seeded): what an exporter's arbitrary order looks like
    function shuffled_grid(): Uint32Array {
        const n = 33;
        const index: number[] = [];
        for (let y = 0; y < n - 1; y++) for (let x = 0; x < n - 1; x++) {
            const a = y * n + x;
            index.push(a, a + n, a + 1, a + 1, a + n, a + n + 1);
        }
        const out = Uint32Array.from(index);
        let seed = 7;
        for (let t = out.length / 3 - 1; t > 0; t--) {
            seed = (seed * 1103515245 + 12345) >>> 0;
            const r = seed % (t + 1);
            for (let k = 0; k < 3; k++) [out[t * 3 + k], out[r * 3 + k]] = [out[r * 3 + k], out[t * 3 + k]];
        }
        return out;
    }

    // each triangle as its rotation starting at its smallest vertex: the winding kept, the start not
    function triangles(index: ArrayLike<number>): string[] {
        const out: string[] = [];
        for (let i = 0; i < index.length; i += 3) {
            const t = [index[i], index[i + 1], index[i + 2]];
            const m = t.indexOf(Math.min(...t));
            out.push(`${t[m]},${t[(m + 1) % 3]},${t[(m + 2) % 3]}`);
        }
        return out.sort();
    }

    it("keeps every triangle and its winding, and shades a shuffled grid's vertices about four times fewer", () => {
        const grid = shuffled_grid();
        const ordered = vertex_cache_order(grid, 33 * 33);
        expect(ordered).toBeInstanceOf(Uint32Array);
        expect(triangles(ordered)).toEqual(triangles(grid));
        const before = average_cache_miss_ratio(grid, 16);
        const after = average_cache_miss_ratio(ordered, 16);
        expect(before).toBeGreaterThan(2.5);
        expect(after).toBeLessThan(0.8);
    });

    it("average_cache_miss_ratio: 3 with no reuse, 1 for a strip's fan of shared pairs, FIFO eviction after `size` misses", () => {
        expect(average_cache_miss_ratio([0, 1, 2, 3, 4, 5], 16)).toBe(3);
        expect(average_cache_miss_ratio([0, 1, 2, 2, 1, 3, 2, 3, 4], 16)).toBeCloseTo(5 / 3);
        // vertex 0 is shaded again once four others came after it in a cache of 3
        expect(average_cache_miss_ratio([0, 1, 2, 3, 4, 0], 3)).toBe(3);
        expect(average_cache_miss_ratio([0, 1, 2, 3, 4, 0], 5)).toBe(2.5);
    });

    it("draw_indices: the box's positions glued and ordered; an index already in order with nothing to glue is not kept twice", () => {
        const box = make_box_geometry(1, 1, 1);
        const drawn = draw_indices(box);
        expect(triangles(drawn.position!)).toEqual(triangles(position_index(box)!));
        // a box's faces are flat: its surface index glues the corners across its normals too
        expect(drawn.flat).toBe(true);
        expect(new Set(drawn.surface!).size).toBeLessThan(24);
        const strip = new Geometry({ position: Float32Array.from({ length: 12 * 3 }, (_, i) => (i % 3 === 0 ? Math.floor(i / 6) : i % 3 === 1 ? Math.floor(i / 3) % 2 : 0)), index: Uint16Array.from({ length: 30 }, (_, i) => Math.floor(i / 3) + (i % 3)) });
        expect(draw_indices(strip)).toEqual({ position: null, surface: null, flat: false });
    });
});

describe("is_flat_shaded / the surface index", () => {
    it("a box (normals per face) is flat; a sphere's smooth normals are not; no normals is not", () => {
        expect(is_flat_shaded(make_box_geometry(1, 1, 1))).toBe(true);
        expect(is_flat_shaded(make_sphere_geometry(1, 16, 8))).toBe(false);
        expect(is_flat_shaded(new Geometry({ position: new Float32Array(9), index: Uint16Array.of(0, 1, 2) }))).toBe(false);
    });

    it("one vertex normal off its face's makes the geometry smooth: its surface index then keeps vertices apart by normal", () => {
        const box = make_box_geometry(1, 1, 1);
        const normal = box.attributes.normal!.array;
        normal[0] = normal[0] * 0.9 + 0.1;
        normal[1] = normal[1] * 0.9 + 0.1;
        expect(is_flat_shaded(box)).toBe(false);
        const drawn = draw_indices(box);
        expect(drawn.flat).toBe(false);
        // nothing to glue across normals: the box's 24 vertices all stay (in a new order, or the index itself)
        expect(new Set(drawn.surface ?? box.index).size).toBe(24);
    });

    it("the surface index of a flat geometry keeps apart vertices that differ in uv (a seam), and skins", () => {
        // two triangles of one plane sharing an edge, with a uv seam along it: flat, but nothing may glue
        const position = Float32Array.of(0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 1);
        const normal = Float32Array.from({ length: 18 }, (_, i) => (i % 3 === 1 ? 1 : 0));
        const uv = Float32Array.of(0, 0, 1, 0, 0, 1, 0.5, 0, 0, 0.5, 1, 1);
        const seam = new Geometry({ position, normal, uv, index: Uint16Array.of(0, 2, 1, 3, 4, 5) });
        expect(is_flat_shaded(seam)).toBe(true);
        expect(new Set(draw_indices(seam).surface ?? seam.index).size).toBe(6);
        // the same without the seam glues 6 vertices to 4
        const joined = new Geometry({ position, normal, uv: Float32Array.of(0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1), index: Uint16Array.of(0, 2, 1, 3, 4, 5) });
        expect(new Set(draw_indices(joined).surface!).size).toBe(4);
    });
});
