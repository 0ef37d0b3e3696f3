// DrawRecords (device-independent logic, no GPU): a re-sort carries each mesh's record to its new position in its
// part; a mesh new to the part, or one that changed part, is marked never drawn.
import { describe, expect, it } from "vitest";
import { DrawRecords, NEVER_DRAWN, RECORD_INTS } from "../../../../shade/renderer/mesh/DrawRecords.js";
import { MESH_INPUTS } from "../../../../shade/renderer/mesh/mesh_inputs.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";

function filled(meshes: readonly Mesh[], tag: number): DrawRecords {
    const records = new DrawRecords();
    records.reserve(meshes.length);
    for (let i = 0; i < meshes.length; i++) {
        records.ints[i * RECORD_INTS] = tag + i; // the build: names the record
        records.ints[i * RECORD_INTS + 1] = i;
        records.matrices[i * 16 + 12] = tag + i;
        records.inputs[i * MESH_INPUTS] = tag + i;
    }
    return records;
}

describe("DrawRecords.remap", () => {
    it("carries each mesh's record to its new position; new meshes and meshes that changed part are never drawn", () => {
        const geometry = make_box_geometry();
        const material = new StandardMaterial();
        const m = Array.from({ length: 6 }, () => new Mesh(geometry, material));
        const old_frozen = [m[0], m[1], m[2]];
        const old_live = [m[3], m[4]];
        const old = [filled(old_frozen, 100), filled(old_live, 200)];
        const where = new Map<Mesh, number>();
        old_frozen.forEach((mesh, i) => where.set(mesh, i * 2));
        old_live.forEach((mesh, i) => where.set(mesh, i * 2 + 1));

        // m[1] dropped; m[2] and m[0] swap; m[4] froze; m[3] stays live; m[5] is new
        const frozen = [m[2], m[0], m[4]];
        const live = [m[5], m[3]];
        const records = [new DrawRecords(), new DrawRecords()];
        records[0].remap(frozen, 0, where, old);
        records[1].remap(live, 1, where, old);

        const build = (r: DrawRecords, i: number) => r.ints[i * RECORD_INTS];
        expect([build(records[0], 0), build(records[0], 1), build(records[0], 2)]).toEqual([102, 100, NEVER_DRAWN]);
        expect([build(records[1], 0), build(records[1], 1)]).toEqual([NEVER_DRAWN, 200]);
        // the whole record moves: slot, last matrix, inputs
        expect(records[0].ints[0 * RECORD_INTS + 1]).toBe(2);
        expect(records[0].matrices[1 * 16 + 12]).toBe(100);
        expect(records[1].inputs[1 * MESH_INPUTS]).toBe(200);
    });

    it("grows past its first 64 records, keeping what it holds", () => {
        const records = new DrawRecords();
        records.ints[5 * RECORD_INTS] = 7;
        records.reserve(1000);
        expect(records.ints.length).toBeGreaterThanOrEqual(1000 * RECORD_INTS);
        expect(records.matrices.length).toBeGreaterThanOrEqual(1000 * 16);
        expect(records.ints[5 * RECORD_INTS]).toBe(7);
    });
});
