import type { GPUGeometryCache } from "../mesh/GPUGeometryCache.js";
import { OBJECT_FLOATS } from "../mesh/mesh_wgsl.js";
import { ObjectBuffer } from "../mesh/ObjectBuffer.js";
import { write_object_data } from "../mesh/write_object_data.js";
import type { Mesh } from "../scene/Mesh.js";
import type { MeshPassVariant } from "./mesh_pass_pipelines.js";

/**
 * @internal The meshes of a mesh pass: those that joined it, each with the index of its variant, and those it
 * draws this frame, grouped by variant and written into the object buffer its shader reads (object index =
 * position in `drawn`).
 */
export class MeshPassDrawList {
    /** This frame's drawn meshes (visible, in a scene), grouped by variant; object index = position here. */
    readonly drawn: Mesh[] = [];
    /** The drawn meshes' object data. */
    readonly objects = new ObjectBuffer();

    // joined meshes, in join order, and their variant indices; removal swaps with the last
    readonly #meshes: Mesh[] = [];
    readonly #mesh_variants: number[] = [];
    #mesh_count = 0;
    // mesh -> variant index, for "scene" mode's lookup of a scene mesh's variant
    readonly #joined = new Map<Mesh, number>();
    // per candidate of this frame: its variant index, or -1 when it is not drawn
    #candidate_variants = new Int32Array(16);
    #drawn_count = 0;

    /** How many meshes have joined. */
    get joined_count(): number {
        return this.#mesh_count;
    }

    /** The variant index `mesh` joined with, or undefined if it has not joined. */
    variant_index(mesh: Mesh): number | undefined {
        return this.#joined.get(mesh);
    }

    /** Joins `mesh` with variant `index`, or moves it there; false if it had joined with that variant already. */
    join(mesh: Mesh, index: number): boolean {
        const at = this.#joined.get(mesh);
        if (at === index) return false;
        this.#joined.set(mesh, index);
        if (at !== undefined) {
            const meshes = this.#meshes;
            for (let i = 0; i < this.#mesh_count; i++) if (meshes[i] === mesh) this.#mesh_variants[i] = index;
            return true;
        }
        this.#meshes[this.#mesh_count] = mesh;
        this.#mesh_variants[this.#mesh_count++] = index;
        return true;
    }

    /** Takes `mesh` out; false if it had not joined. */
    leave(mesh: Mesh): boolean {
        if (!this.#joined.delete(mesh)) return false;
        const meshes = this.#meshes;
        for (let i = 0; i < this.#mesh_count; i++) {
            if (meshes[i] !== mesh) continue;
            const last = --this.#mesh_count;
            meshes[i] = meshes[last];
            this.#mesh_variants[i] = this.#mesh_variants[last];
            meshes[last] = undefined as unknown as Mesh; // drop the reference; the slot is reused
            return true;
        }
        return false;
    }

    /** Whether `mesh` has joined. */
    has(mesh: Mesh): boolean {
        return this.#joined.has(mesh);
    }

    /**
     * Writes the meshes drawn this frame into the object buffer, grouped by variant (setting each variant's
     * `start` and `end`); false when there are none. The candidates are `scene_meshes` (a joined one with its
     * variant, any other with the first) or, when null, the joined meshes; those visible, in a scene and passing
     * `filter` are drawn.
     */
    collect(scene_meshes: readonly Mesh[] | null, filter: ((mesh: Mesh) => boolean) | null, variants: readonly MeshPassVariant[]): boolean {
        const scene_mode = scene_meshes !== null;
        const candidates = scene_mode ? scene_meshes : this.#meshes;
        const count = scene_mode ? candidates.length : this.#mesh_count;
        if (this.#candidate_variants.length < count) this.#candidate_variants = new Int32Array(Math.max(count, this.#candidate_variants.length * 2));
        const chosen = this.#candidate_variants;
        let any = false;
        for (let i = 0; i < count; i++) {
            const mesh = candidates[i];
            if (!mesh.visible || mesh.object_id === 0 || (filter !== null && !filter(mesh))) {
                chosen[i] = -1;
                continue;
            }
            chosen[i] = scene_mode ? (this.#joined.get(mesh) ?? 0) : this.#mesh_variants[i];
            any = true;
        }
        const objects = this.objects;
        objects.clear();
        this.#drawn_count = 0;
        for (let v = 0; v < variants.length; v++) {
            const variant = variants[v];
            variant.start = this.#drawn_count;
            if (any) {
                for (let i = 0; i < count; i++) {
                    if (chosen[i] !== v) continue;
                    const mesh = candidates[i];
                    this.drawn[this.#drawn_count++] = mesh;
                    this.#write(mesh);
                }
            }
            variant.end = this.#drawn_count;
        }
        return this.#drawn_count > 0;
    }

    /**
     * Draws `variant`'s meshes of this frame on `pass` (its pipeline and bind group set), counting each draw call
     * in `counter.draw_count`.
     */
    draw(pass: GPURenderPassEncoder, variant: MeshPassVariant, geometries: GPUGeometryCache, counter: { draw_count: number }): void {
        const drawn = this.drawn;
        // object i is the i-th drawn mesh: a run of meshes sharing a geometry is one instanced draw
        for (let i = variant.start; i < variant.end; ) {
            const source = drawn[i].geometry;
            const skin = drawn[i].skin;
            let end = i + 1;
            // a skinned mesh draws alone, with its skin's vertices
            while (skin === null && end < variant.end && drawn[end].geometry === source && drawn[end].skin === null) end++;
            const geometry = geometries.get(source, skin);
            pass.setVertexBuffer(0, geometry.position, geometry.position_offset);
            pass.setVertexBuffer(1, geometry.normal, geometry.normal_offset);
            pass.setVertexBuffer(2, geometry.uv);
            pass.setIndexBuffer(geometry.index, geometry.index_format);
            pass.drawIndexed(geometry.index_count, end - i, 0, 0, i);
            counter.draw_count++;
            i = end;
        }
    }

    /** Forgets every mesh, joined and drawn. */
    clear(): void {
        this.#mesh_count = 0;
        this.#meshes.length = 0;
        this.#mesh_variants.length = 0;
        this.#joined.clear();
        this.drawn.length = 0;
    }

    #write(mesh: Mesh): void {
        mesh.update_matrix();
        const objects = this.objects;
        const o = objects.push();
        const f = objects.floats;
        const u = objects.uints;
        write_object_data(f, u, o, mesh);
        // previous_model, where the layout has it: a mesh pass draws no motion, so last frame's is this frame's
        for (let k = 0; k < 16 && 40 + k < OBJECT_FLOATS; k++) f[o + 40 + k] = f[o + k];
    }
}
