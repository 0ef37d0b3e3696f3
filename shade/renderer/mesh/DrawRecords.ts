import type { Mesh } from "../scene/Mesh.js";
import { MESH_INPUTS } from "./mesh_inputs.js";

/** u32 words per record in `DrawRecords.ints`: build, slot, moved, object id, material id, flags, skin base (and one spare). */
export const RECORD_INTS = 8;
/** The build of a record never drawn (no build serial reaches it). */
export const NEVER_DRAWN = 0xffffffff;

/**
 * @internal What each mesh of one part of a draw list (frozen or live) last had its object slot written from, by
 * the mesh's position in the part's sorted list: last frame's world matrix (`matrices`, 16 floats each), the
 * inputs `store_inputs` keeps (`inputs`, `MESH_INPUTS` each) and `ints` (`RECORD_INTS` each: the build that last
 * wrote or kept it, its slot, whether it moved then, its object id, material id, flags and skin base). Laid out
 * flat in list order, so a frame's walk over the meshes reads them in sequence rather than chasing an object per
 * mesh; re-laid (`remap`) only when the list's order changes.
 */
export class DrawRecords {
    matrices = new Float32Array(16 * 64);
    inputs = new Float32Array(MESH_INPUTS * 64);
    ints = new Uint32Array(RECORD_INTS * 64);

    /** Room for `count` records (contents kept). */
    reserve(count: number): void {
        if (this.ints.length >= count * RECORD_INTS) return;
        let n = this.ints.length / RECORD_INTS;
        while (n < count) n *= 2;
        const matrices = new Float32Array(16 * n);
        matrices.set(this.matrices);
        this.matrices = matrices;
        const inputs = new Float32Array(MESH_INPUTS * n);
        inputs.set(this.inputs);
        this.inputs = inputs;
        const ints = new Uint32Array(RECORD_INTS * n);
        ints.set(this.ints);
        this.ints = ints;
    }

    /**
     * Fills these records for `list` (a part's new order) from where each mesh was before: `where` maps a mesh to
     * `index * 2 + part` of the old lists, `old` holds the old parts' records (by part). A mesh of the same part keeps
     * its record; one that changed part or is new is marked never drawn (no last matrix: no motion this frame).
     */
    remap(list: readonly Mesh[], part: number, where: Map<Mesh, number>, old: readonly DrawRecords[]): void {
        this.reserve(list.length);
        const ints = this.ints;
        for (let i = 0; i < list.length; i++) {
            const at = where.get(list[i]);
            if (at === undefined || (at & 1) !== part) {
                ints[i * RECORD_INTS] = NEVER_DRAWN;
                continue;
            }
            const from = old[part];
            const j = at >> 1;
            ints.set(from.ints.subarray(j * RECORD_INTS, (j + 1) * RECORD_INTS), i * RECORD_INTS);
            this.matrices.set(from.matrices.subarray(j * 16, (j + 1) * 16), i * 16);
            this.inputs.set(from.inputs.subarray(j * MESH_INPUTS, (j + 1) * MESH_INPUTS), i * MESH_INPUTS);
        }
    }
}
