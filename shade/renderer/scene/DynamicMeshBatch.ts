import type { DynamicMesh } from "./DynamicMesh.js";

/**
 * An ordered set of dynamic meshes drawn together by `GPUDynamicMeshRenderer.graph_draw`, in insertion
 * order (which is the blending order of overlapping translucent meshes). A mesh is in a batch at most once;
 * the same mesh may be in several batches.
 */
export class DynamicMeshBatch {
    readonly #meshes: DynamicMesh[] = [];
    readonly #members = new Set<DynamicMesh>();

    /** Meshes in the batch. */
    get count(): number {
        return this.#meshes.length;
    }

    /** The meshes in draw order; read-only, valid until the batch next changes. */
    get meshes(): readonly DynamicMesh[] {
        return this.#meshes;
    }

    /** The `i`th mesh in draw order. */
    get(i: number): DynamicMesh {
        return this.#meshes[i];
    }

    has(mesh: DynamicMesh): boolean {
        return this.#members.has(mesh);
    }

    /** Appends `mesh` (a mesh already in the batch stays where it is). Returns `mesh`. */
    add(mesh: DynamicMesh): DynamicMesh {
        if (this.#members.has(mesh)) return mesh;
        this.#members.add(mesh);
        this.#meshes.push(mesh);
        return mesh;
    }

    /** Takes `mesh` out, keeping the order of the rest. Returns whether it was in the batch. */
    remove(mesh: DynamicMesh): boolean {
        if (!this.#members.delete(mesh)) return false;
        const meshes = this.#meshes;
        const at = meshes.indexOf(mesh);
        for (let i = at + 1; i < meshes.length; i++) meshes[i - 1] = meshes[i];
        meshes.pop();
        return true;
    }

    clear(): void {
        this.#members.clear();
        this.#meshes.length = 0;
    }
}
