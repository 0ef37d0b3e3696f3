// simplify_detail_levels (device-independent: meshoptimizer's simplifier on the CPU): coarser levels of a sphere
// keep about the asked share of its triangles, index its own vertices, cover the same shape, and are set on the
// geometry; a small geometry gets none; bad targets are refused naming them.
import { describe, expect, it } from "vitest";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { simplify_detail_levels } from "../../../../shade/renderer/geometry/simplify_detail_levels.js";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";

describe("simplify_detail_levels", () => {
    it("a 960-triangle sphere: levels near a half and a fifth of its triangles, over its own vertices, the same sphere", async () => {
        const sphere = make_sphere_geometry(1, 32, 16);
        const triangles = sphere.index.length / 3;
        const levels = await simplify_detail_levels(sphere, [
            { ratio: 0.5, screen_size: 0.2 },
            { ratio: 0.2, screen_size: 0.05 },
        ]);
        expect(sphere.detail_levels).toBe(levels);
        expect(levels.map((l) => l.screen_size)).toEqual([0.2, 0.05]);
        const counts = levels.map((l) => l.index.length / 3);
        console.log(`[lod] sphere ${triangles} triangles -> ${counts.join(", ")}`);
        expect(counts[0]).toBeLessThanOrEqual(triangles * 0.5);
        expect(counts[0]).toBeGreaterThan(triangles * 0.3);
        expect(counts[1]).toBeLessThanOrEqual(triangles * 0.2);
        expect(counts[1]).toBeGreaterThan(triangles * 0.08);
        const p = sphere.attributes.position.array;
        for (const level of levels) {
            expect(level.index).toBeInstanceOf(sphere.index.constructor);
            let worst = 0;
            for (const v of level.index) {
                expect(v).toBeLessThan(sphere.vertex_count);
                worst = Math.max(worst, Math.abs(Math.hypot(p[v * 3], p[v * 3 + 1], p[v * 3 + 2]) - 1));
            }
            // the kept vertices are the sphere's own, so on it; and the triangles still face out (winding kept)
            expect(worst).toBeLessThan(1e-5);
            let outward = 0;
            for (let t = 0; t < level.index.length; t += 3) {
                const [a, b, c] = [level.index[t] * 3, level.index[t + 1] * 3, level.index[t + 2] * 3];
                const e1 = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
                const e2 = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
                const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
                const centre = [p[a] + p[b] + p[c], p[a + 1] + p[b + 1] + p[c + 1], p[a + 2] + p[b + 2] + p[c + 2]];
                if (n[0] * centre[0] + n[1] * centre[1] + n[2] * centre[2] > 0) outward++;
            }
            expect(outward).toBe(level.index.length / 3);
        }
    });

    it("an unindexed soup (every corner its own vertex, as the glTF Fox is) simplifies too: its glued index leaves twins unreferenced", async () => {
        const sphere = make_sphere_geometry(1, 32, 16);
        const corners = sphere.index.length;
        const position = new Float32Array(corners * 3);
        const normal = new Float32Array(corners * 3);
        const uv = new Float32Array(corners * 2);
        sphere.index.forEach((v, i) => {
            position.set(sphere.attributes.position.array.subarray(v * 3, v * 3 + 3), i * 3);
            normal.set(sphere.attributes.normal!.array.subarray(v * 3, v * 3 + 3), i * 3);
            uv.set(sphere.attributes.uv!.array.subarray(v * 2, v * 2 + 2), i * 2);
        });
        const soup = new Geometry({ position, normal, uv, index: Uint16Array.from({ length: corners }, (_, i) => i) });
        const levels = await simplify_detail_levels(soup, [{ ratio: 0.5, screen_size: 0.2 }]);
        expect(levels.length, "a level made").toBe(1);
        expect(levels[0].index.length / 3).toBeLessThanOrEqual(corners / 6);
        expect(levels[0].index.length / 3).toBeGreaterThan(corners / 12);
    });

    it("a geometry under min_triangles gets no levels; bad targets are refused naming them", async () => {
        const box = make_box_geometry(1, 1, 1);
        expect(await simplify_detail_levels(box, [{ ratio: 0.5, screen_size: 0.1 }])).toEqual([]);
        expect(box.detail_levels).toEqual([]);
        const sphere = make_sphere_geometry(1, 16, 8);
        await expect(simplify_detail_levels(sphere, [{ ratio: 1.5, screen_size: 0.1 }])).rejects.toThrow(/targets\[0\]\.ratio must be in \(0, 1\), got 1.5/);
        await expect(
            simplify_detail_levels(sphere, [
                { ratio: 0.5, screen_size: 0.1 },
                { ratio: 0.6, screen_size: 0.05 },
            ]),
        ).rejects.toThrow(/targets\[1\]\.ratio must be in \(0, 0.5\), got 0.6/);
        await expect(simplify_detail_levels(sphere, [{ ratio: 0.5, screen_size: 2 }])).rejects.toThrow(/screen_size must be in \(0, 1\], got 2/);
    });
});
