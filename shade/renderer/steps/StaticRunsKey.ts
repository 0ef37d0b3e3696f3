import type { GPUGeometryCache } from "../mesh/GPUGeometryCache.js";
import type { MaterialBindings } from "../mesh/MaterialBindings.js";
import { FLAT_VARIANT } from "../mesh/draw_runs.js";
import type { DrawRun } from "../mesh/MeshDrawList.js";

// per static run: the GPU geometry entry (a new entry whenever the cache makes new buffers), the material, its
// bind group, the geometry's detail index (or null); and first, count, index count, (pipeline variant x 2 + index
// format) x 8 + levels of detail, its index in the list (where an indirect draw reads its arguments)
const REFS = 4;
const NUMBERS = 5;

/**
 * What the draws of a draw list's static (unskinned) runs depend on, as last recorded: the runs (geometry,
 * material, first instance, instance count), the GPU buffers each binds (and its index count and format), each
 * material's bind group and pipeline variant, the scene bind group, the pipeline set and the indirect arguments
 * buffer (when drawn indirectly: then the instances drawn are the culling's, not part of the key). `update` compares the
 * frame's against it and keeps the frame's: a render bundle recorded from the same is still right. Object data
 * (a mesh moving, a colour changing) is not part of it: the draws read it from the object buffer by instance.
 * Walks the runs, not the meshes; allocates only when the run count grows past any before.
 */
export class StaticRunsKey {
    /** Static runs in the last `update`. */
    static_count = 0;
    /** Skinned runs in the last `update` (drawn apart: their buffers change whenever they are skinned). */
    skinned_count = 0;
    readonly #refs: unknown[] = [];
    readonly #numbers: number[] = [];
    #group: GPUBindGroup | null = null;
    #pipelines: readonly GPURenderPipeline[] | null = null;
    #indirect: GPUBuffer | null = null;

    /**
     * Whether anything the static runs' draws (of runs `start` to `count`) depend on differs from the last call's
     * (true on the first). Looks
     * the geometries and material bind groups up (uploading a geometry whose version moved, rebuilding a group
     * whose texture slot changed), as drawing them does.
     */
    update(
        state: { geometries: GPUGeometryCache; materials: MaterialBindings },
        runs: readonly DrawRun[],
        count: number,
        variant: (material: DrawRun["material"]) => number,
        group: GPUBindGroup,
        pipelines: readonly GPURenderPipeline[],
        indirect: GPUBuffer | null = null,
        start = 0,
    ): boolean {
        let changed = group !== this.#group || pipelines !== this.#pipelines || indirect !== this.#indirect;
        this.#group = group;
        this.#pipelines = pipelines;
        this.#indirect = indirect;
        const refs = this.#refs;
        const numbers = this.#numbers;
        let n = 0;
        let skinned = 0;
        for (let i = start; i < count; i++) {
            const run = runs[i];
            if (run.skin !== null) {
                skinned++;
                continue;
            }
            const geometry = state.geometries.get(run.geometry, null);
            const material = run.material;
            const bind_group = state.materials.group(material);
            const r = n * REFS;
            const k = n * NUMBERS;
            if (refs.length <= r) {
                // a run count never seen before: grows once
                refs.push(null, null, null, null);
                numbers.push(-1, -1, -1, -1, -1);
            }
            const index_count = geometry.index_count;
            // (and the levels of detail drawn: one draw each, the coarser with the detail index, a ref below)
            const variant_format = ((variant(material) | (geometry.flat ? FLAT_VARIANT : 0)) * 2 + (geometry.index_format === "uint32" ? 1 : 0)) * 8 + geometry.levels;
            if (
                refs[r] !== geometry ||
                refs[r + 1] !== material ||
                refs[r + 2] !== bind_group ||
                refs[r + 3] !== geometry.detail_index ||
                numbers[k] !== run.first ||
                numbers[k + 1] !== run.count ||
                numbers[k + 2] !== index_count ||
                numbers[k + 3] !== variant_format ||
                numbers[k + 4] !== i
            ) {
                changed = true;
                refs[r] = geometry;
                refs[r + 1] = material;
                refs[r + 2] = bind_group;
                refs[r + 3] = geometry.detail_index;
                numbers[k] = run.first;
                numbers[k + 1] = run.count;
                numbers[k + 2] = index_count;
                numbers[k + 3] = variant_format;
                numbers[k + 4] = i;
            }
            n++;
        }
        if (n !== this.static_count) changed = true;
        // what lies past the runs no longer drawn is let go (a later, longer list compares against null)
        for (let r = n * REFS; r < refs.length && refs[r] !== null; r += REFS) refs[r] = refs[r + 1] = refs[r + 2] = refs[r + 3] = null;
        this.static_count = n;
        this.skinned_count = skinned;
        return changed;
    }
}
