import type { Mesh } from "../scene/Mesh.js";

/**
 * @internal The frame's blended meshes of a draw list, gathered in list order and sorted back to front, each with
 * its position in the list (its `DrawRecords` record). Cleared by count, grown by doubling: steady frames allocate
 * nothing.
 */
export class BlendedMeshes {
    readonly meshes: Mesh[] = [];
    records = new Uint32Array(64);
    count = 0;
    #depth = new Float32Array(64);

    clear(): void {
        this.count = 0;
    }

    add(mesh: Mesh, record: number): void {
        if (this.count >= this.records.length) {
            const grown = new Uint32Array(this.records.length * 2);
            grown.set(this.records);
            this.records = grown;
        }
        this.records[this.count] = record;
        // assigned by index, not pushed: `length = 0` would make V8 drop the backing store
        this.meshes[this.count++] = mesh;
    }

    /** Sorts far to near from `eye` by each mesh's world position (its matrix's translation). */
    sort_back_to_front(eye: ArrayLike<number>): void {
        const list = this.meshes;
        const n = this.count;
        if (this.#depth.length < n) this.#depth = new Float32Array(n * 2);
        const depth = this.#depth;
        for (let i = 0; i < n; i++) {
            const m = list[i].world_matrix;
            const dx = m[12] - eye[0];
            const dy = m[13] - eye[1];
            const dz = m[14] - eye[2];
            depth[i] = dx * dx + dy * dy + dz * dz;
        }
        // insertion sort: frame-coherent order makes it near linear, and it allocates nothing
        const record = this.records;
        for (let i = 1; i < n; i++) {
            const mesh = list[i];
            const d = depth[i];
            const at = record[i];
            let j = i - 1;
            while (j >= 0 && depth[j] < d) {
                list[j + 1] = list[j];
                depth[j + 1] = depth[j];
                record[j + 1] = record[j];
                j--;
            }
            list[j + 1] = mesh;
            depth[j + 1] = d;
            record[j + 1] = at;
        }
    }
}
