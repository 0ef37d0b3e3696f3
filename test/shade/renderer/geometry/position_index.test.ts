// position_index: the index with a position's vertices glued (no GPU: device-independent logic).
import { describe, expect, it } from "vitest";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { position_index } from "../../../../shade/renderer/geometry/position_index.js";

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
