// DynamicMesh and DynamicMeshBatch (no GPU).
import { quat, vec3 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { DynamicMesh } from "../../../../shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "../../../../shade/renderer/scene/DynamicMeshBatch.js";

describe("DynamicMesh", () => {
    it("copies its colour (RGB gets alpha 1) and rejects other lengths", () => {
        const source = [1, 0.2, 0, 0.8];
        const mesh = DynamicMesh.from(make_box_geometry(), source);
        source[0] = 0;
        expect(Array.from(mesh.color)).toEqual([1, Math.fround(0.2), 0, Math.fround(0.8)]);
        expect(Array.from(DynamicMesh.from(make_box_geometry(), [0, 0, 1]).color)).toEqual([0, 0, 1, 1]);
        expect(() => DynamicMesh.from(make_box_geometry(), [1, 1])).toThrow(/RGBA \(or RGB\), got 2 components/);
    });

    it("has no world matrix until updateMatrices() is asked, then derives it from position, rotation and scale", () => {
        const mesh = DynamicMesh.from(make_box_geometry(), [1, 1, 1, 1]);
        expect(mesh.has_world_matrix).toBe(false);
        expect(() => mesh.world_matrix).toThrow("DynamicMesh.world_matrix read before updateMatrices() was ever called");
        vec3.set(mesh.position, 1, 2, 3);
        quat.setAxisAngle(mesh.rotation, [0, 0, 1], Math.PI / 2);
        vec3.set(mesh.scale, 2, 2, 2);
        mesh.updateMatrices();
        const m = mesh.world_matrix;
        // x axis -> 2 * y, translation (1, 2, 3)
        expect(m[0]).toBeCloseTo(0);
        expect(m[1]).toBeCloseTo(2);
        expect(Array.from(m.subarray(12, 15))).toEqual([1, 2, 3]);
        // derived: changing position does nothing until asked again
        mesh.position[0] = 5;
        expect(mesh.world_matrix[12]).toBe(1);
        mesh.updateMatrices();
        expect(mesh.world_matrix[12]).toBe(5);
    });
});

describe("DynamicMeshBatch", () => {
    it("adds once, removes keeping order, counts and clears", () => {
        const batch = new DynamicMeshBatch();
        const [a, b, c] = [0, 1, 2].map(() => DynamicMesh.from(make_box_geometry(), [1, 1, 1, 1]));
        expect(batch.add(a)).toBe(a);
        batch.add(b);
        batch.add(c);
        batch.add(a);
        expect(batch.count).toBe(3);
        expect(batch.remove(b)).toBe(true);
        expect(batch.remove(b)).toBe(false);
        expect(batch.meshes).toEqual([a, c]);
        expect(batch.get(1)).toBe(c);
        expect(batch.has(a)).toBe(true);
        batch.clear();
        expect(batch.count).toBe(0);
        expect(batch.has(a)).toBe(false);
    });
});
