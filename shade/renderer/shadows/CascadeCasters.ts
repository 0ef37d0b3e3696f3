import { MAX_DETAIL_LEVELS } from "../geometry/GeometryDetail.js";
import { geometry_bounds } from "../geometry/geometry_bounds.js";
import type { Geometry } from "../geometry/Geometry.js";
import type { GPUGeometryCache } from "../mesh/GPUGeometryCache.js";
import type { MeshDrawList } from "../mesh/MeshDrawList.js";
import { OBJECT_CASTS_SHADOWS, OBJECT_FLOATS } from "../mesh/mesh_wgsl.js";
import type { ObjectBuffer } from "../mesh/ObjectBuffer.js";
import type { SkinBatch } from "../mesh/skinned_vertices.js";
import type { Camera } from "../scene/Camera.js";
import { SKINNED_BOUNDS_SCALE, type MeshSkin } from "../scene/MeshSkin.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";
import { MAX_SHADOW_CASCADES } from "./ShadowCascades.js";

/** @internal One instanced draw of a cascade: `count` casters of one geometry from `first` in the caster list. */
export interface CasterRun {
    geometry: Geometry;
    /** A skinned caster's skin (the first's, for a skin batch's run), else null. */
    skin: MeshSkin | null;
    /** The skin batch whose casters the run draws (positions pulled), else null. */
    batch: SkinBatch | null;
    material: StandardMaterial;
    /** The level of detail drawn (`Geometry.detail_levels`; 0: the full index). */
    level: number;
    first: number;
    count: number;
}

/**
 * @internal The shadow casters of each cascade culled on the CPU (where the GPU's culling is off or the device cannot draw
 * it): per cascade, the opaque objects that cast shadows whose bounding sphere reaches into its box (towards the
 * sun the box already extends by the caster distance), as index lists of consecutive runs of one geometry and level
 * of detail (chosen by the size on the camera's screen, as the mesh culling chooses it).
 */
export class CascadeCasters {
    /** Object slots of every cascade's casters, back to back (`index_count` of them). */
    indices = new Uint32Array(256);
    index_count = 0;
    /** Per cascade, its instanced draws (reused objects); `run_counts` of them. */
    readonly runs: CasterRun[][] = [];
    readonly run_counts = new Uint32Array(MAX_SHADOW_CASCADES);
    /** Casters of each cascade after culling. */
    readonly counts = new Uint32Array(MAX_SHADOW_CASCADES);
    // per caster in indices, its level of detail; and the casters of a run sorted by level
    #levels = new Uint8Array(256);
    #sorted = new Uint32Array(256);
    readonly #level_starts = new Uint32Array(MAX_DETAIL_LEVELS);

    /** Culls `list`'s opaque runs (object data in `objects`) against `cascade_count` light matrices (`matrices`, 16 floats each). */
    cull(list: MeshDrawList, objects: ObjectBuffer, geometries: GPUGeometryCache, camera: Camera, matrices: Float32Array, cascade_count: number): void {
        const p11 = camera.projection[5];
        const eye = camera.position;
        const floats = objects.floats;
        const uints = objects.uints;
        const m = matrices;
        let n = 0;
        for (let c = 0; c < cascade_count; c++) {
            const o = c * 16;
            // an orthographic box: clip x and y scale world lengths by the same factor, z by its own
            // (Math.hypot allocates in V8's optimised code: spelled out)
            const sxy = Math.sqrt(m[o] * m[o] + m[o + 4] * m[o + 4] + m[o + 8] * m[o + 8]);
            const sz = Math.sqrt(m[o + 2] * m[o + 2] + m[o + 6] * m[o + 6] + m[o + 10] * m[o + 10]);
            let runs = this.runs[c];
            if (runs === undefined) runs = this.runs[c] = [];
            let run_count = 0;
            const before = n;
            for (let i = 0; i < list.opaque_run_count; i++) {
                const source = list.opaque_runs[i];
                const b = geometry_bounds(source.geometry);
                const detail = geometries.get(source.geometry, source.skin);
                const levels = detail.levels;
                const first = n;
                for (let k = source.first; k < source.first + source.count; k++) {
                    const f = k * OBJECT_FLOATS;
                    if ((uints[f + 38] & OBJECT_CASTS_SHADOWS) === 0) continue;
                    // the sphere in world space: centre through the model matrix, radius by its largest axis scale
                    const x = floats[f] * b.x + floats[f + 4] * b.y + floats[f + 8] * b.z + floats[f + 12];
                    const y = floats[f + 1] * b.x + floats[f + 5] * b.y + floats[f + 9] * b.z + floats[f + 13];
                    const z = floats[f + 2] * b.x + floats[f + 6] * b.y + floats[f + 10] * b.z + floats[f + 14];
                    const scale = Math.sqrt(
                        Math.max(
                            floats[f] * floats[f] + floats[f + 1] * floats[f + 1] + floats[f + 2] * floats[f + 2],
                            floats[f + 4] * floats[f + 4] + floats[f + 5] * floats[f + 5] + floats[f + 6] * floats[f + 6],
                            floats[f + 8] * floats[f + 8] + floats[f + 9] * floats[f + 9] + floats[f + 10] * floats[f + 10],
                        ),
                    );
                    // a skinned mesh's limbs reach past its bind pose's sphere
                    const radius = b.radius * scale * (source.skin !== null ? SKINNED_BOUNDS_SCALE : 1);
                    const cx = m[o] * x + m[o + 4] * y + m[o + 8] * z + m[o + 12];
                    const cy = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z + m[o + 13];
                    const cz = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z + m[o + 14];
                    const rxy = radius * sxy;
                    const rz = radius * sz;
                    if (cx + rxy < -1 || cx - rxy > 1 || cy + rxy < -1 || cy - rxy > 1 || cz + rz < 0 || cz - rz > 1) continue;
                    if (n >= this.indices.length) this.#grow();
                    let level = 0;
                    if (levels > 1) {
                        const dx = x - eye[0];
                        const dy = y - eye[1];
                        const dz = z - eye[2];
                        const screen = (radius * p11) / Math.max(Math.sqrt(dx * dx + dy * dy + dz * dz), 1e-6);
                        for (let l = 1; l < levels; l++) if (screen < detail.level_screen[l]) level = l;
                    }
                    this.#levels[n] = level;
                    this.indices[n++] = k;
                }
                if (n === first) continue;
                if (levels > 1) this.#sort_by_level(first, n);
                const starts = this.#level_starts;
                for (let l = 0; l < levels; l++) {
                    const start = levels > 1 ? starts[l] : first;
                    const end = levels > 1 ? (l + 1 < levels ? starts[l + 1] : n) : n;
                    if (end === start) continue;
                    let run = runs[run_count];
                    if (run === undefined) run = runs[run_count] = { geometry: source.geometry, skin: source.skin, batch: source.batch, material: source.material, level: 0, first, count: 0 };
                    run.geometry = source.geometry;
                    run.skin = source.skin;
                    run.batch = source.batch;
                    run.material = source.material;
                    run.level = l;
                    run.first = start;
                    run.count = end - start;
                    run_count++;
                }
            }
            this.run_counts[c] = run_count;
            this.counts[c] = n - before;
        }
        this.index_count = n;
    }

    #grow(): void {
        const grown = new Uint32Array(this.indices.length * 2);
        grown.set(this.indices);
        this.indices = grown;
        const levels = new Uint8Array(grown.length);
        levels.set(this.#levels);
        this.#levels = levels;
        this.#sorted = new Uint32Array(grown.length);
    }

    // the casters from first to end ordered by level (counting sort, stable), each level's start in #level_starts
    #sort_by_level(first: number, end: number): void {
        const starts = this.#level_starts;
        starts.fill(0);
        const levels = this.#levels;
        const indices = this.indices;
        const sorted = this.#sorted;
        for (let k = first; k < end; k++) starts[levels[k]]++;
        let at = first;
        for (let l = 0; l < MAX_DETAIL_LEVELS; l++) {
            const count = starts[l];
            starts[l] = at;
            at += count;
        }
        for (let k = first; k < end; k++) sorted[starts[levels[k]]++] = indices[k];
        for (let k = first; k < end; k++) indices[k] = sorted[k];
        // starts[l] now holds level l's end, the next level's start: shifted back to starts
        for (let l = MAX_DETAIL_LEVELS - 1; l > 0; l--) starts[l] = starts[l - 1];
        starts[0] = first;
    }
}
