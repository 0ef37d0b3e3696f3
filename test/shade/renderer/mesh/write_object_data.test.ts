// The object data's matrices against gl-matrix (device-independent arithmetic): a mesh's world matrix from its
// position, rotation and scale, and the normal matrix written beside it, over random transforms with
// non-uniform and negative scales, and the identity where the matrix is singular.
import { mat3, mat4, quat } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { write_normal_matrix, write_object_data } from "../../../../shade/renderer/mesh/write_object_data.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";

function random(seed: number): () => number {
    let s = seed;
    return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 4294967296;
    };
}

describe("write_object_data", () => {
    it("world and normal matrices equal gl-matrix's fromRotationTranslationScale and normalFromMat4 for 200 random transforms", () => {
        const next = random(7);
        const mesh = new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial());
        const f = new Float32Array(64);
        const u = new Uint32Array(f.buffer);
        const expected = mat4.create();
        const normal = mat3.create();
        const q = quat.create();
        for (let i = 0; i < 200; i++) {
            mesh.position.set([next() * 20 - 10, next() * 20 - 10, next() * 20 - 10]);
            quat.normalize(q, quat.fromValues(next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5));
            mesh.rotation.set(q);
            // non-uniform, some negative (mirrored)
            mesh.scale.set([(next() * 3 + 0.1) * (next() < 0.2 ? -1 : 1), next() * 3 + 0.1, next() * 3 + 0.1]);
            mesh.update_matrix();
            mat4.fromRotationTranslationScale(expected, mesh.rotation, mesh.position, mesh.scale);
            for (let k = 0; k < 16; k++) expect(mesh.world_matrix[k], `world[${k}] of transform ${i}`).toBeCloseTo(expected[k], 5);
            write_object_data(f, u, 0, mesh);
            mat3.normalFromMat4(normal, expected);
            const columns = [f[16], f[17], f[18], f[20], f[21], f[22], f[24], f[25], f[26]];
            for (let k = 0; k < 9; k++) expect(columns[k], `normal[${k}] of transform ${i}`).toBeCloseTo(normal[k], 4);
            for (let k = 0; k < 16; k++) expect(f[k]).toBe(mesh.world_matrix[k]);
        }
    });

    it("a singular matrix (a scale of 0) gets the identity normal matrix, as gl-matrix's null", () => {
        const m = new Float32Array(mat4.fromScaling(mat4.create(), [2, 0, 1]));
        const f = new Float32Array(12).fill(9);
        write_normal_matrix(f, 0, m, 0);
        expect([f[0], f[1], f[2], f[4], f[5], f[6], f[8], f[9], f[10]]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
        expect(mat3.normalFromMat4(mat3.create(), m)).toBe(null);
    });

    it("the mesh's colour multiplies the material's base colour", () => {
        const mesh = new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial({ base_color: [0.5, 1, 0.25, 1] }));
        mesh.color.set([1, 0.5, 2, 0.5]);
        const f = new Float32Array(64);
        write_object_data(f, new Uint32Array(f.buffer), 0, mesh);
        expect([f[28], f[29], f[30], f[31]]).toEqual([0.5, 0.5, 0.5, 0.5]);
    });
});
