import type { GPUGeometryCache, GPUGeometry } from "./GPUGeometryCache.js";
import type { MaterialBindings } from "./MaterialBindings.js";
import { material_variant } from "./material_variant.js";
import type { DrawRun } from "./MeshDrawList.js";
import { indirect_offset } from "./FrustumCulling.js";
import { SKINNED_VERTICES_GROUP } from "./skinned_vertices.js";

/**
 * Which vertex buffers a pass's pipeline reads beyond positions, normals and uvs (0-2): `surface` tangents and
 * uv1 at 3 and 4 (`SURFACE_VERTEX_BUFFERS`; with `pipelines`, only for the variants that read them), `previous`
 * last frame's positions at 3 (the velocity product's: it reads positions alone, and draws with the index whose
 * vertices of one position are glued, `GPUGeometry.position_index`), `plain` none.
 */
export type RunVertexBuffers = "plain" | "surface" | "previous";

/** Which runs `draw_runs` draws: all, only those of unskinned meshes (`static`), or only skinned meshes' runs. */
export type RunFilter = "all" | "static" | "skinned";

export { SKINNED_VERTICES_GROUP };

/** The pipeline variant bit of a flat-shaded geometry (`GPUGeometry.flat`): normals from screen derivatives. */
export const FLAT_VARIANT = 8;
/** Pipelines in a set that has flat variants: `material_variant`, and the same plus `FLAT_VARIANT`. */
export const FLAT_PIPELINE_SET = 16;

/**
 * Draws runs (from `start` to `count`): binds materials and geometry only when they change. With `pipelines` (by
 * `material_variant`, or one for every run) it sets the pipeline whenever the variant changes; without, the caller
 * has set one. With `indirect` (`FrustumCulling.args`: run `i`'s level `l` at `indirect_offset(i, l)`), every
 * run is drawn indirectly, with the instances the culling let through, one draw per level of detail of its
 * geometry (the coarser ones with `detail_index`): a pass that reads the visible slots of a culled list must draw
 * its opaque runs with it. Drawn directly, every mesh draws its full index. With `pulled` (the pass's
 * pipelines that pull a skin batch's vertices, indexed as `pipelines`, whose layout has the batch's vertices at
 * `SKINNED_VERTICES_GROUP`), a run of a skin batch is one instanced draw; `pipelines` must then be given too.
 * Indices: `previous` draws with each geometry's `position_index`; a set of `FLAT_PIPELINE_SET` pipelines (the
 * G-buffer's) with its `surface_index`, a flat geometry's runs with pipeline `variant | FLAT_VARIANT`; otherwise
 * the geometry's own index. Records into a pass or a render bundle.
 */
export function draw_runs(
    pass: GPURenderPassEncoder | GPURenderBundleEncoder,
    state: { geometries: GPUGeometryCache; materials: MaterialBindings },
    runs: readonly DrawRun[],
    count: number,
    buffers: RunVertexBuffers,
    pipelines: readonly GPURenderPipeline[] | null = null,
    filter: RunFilter = "all",
    start = 0,
    indirect: GPUBuffer | null = null,
    pulled: readonly GPURenderPipeline[] | null = null,
): void {
    let bound_geometry: GPUGeometry | null = null;
    let bound_source: unknown = null;
    let bound_material: unknown = null;
    let bound_group: GPUBindGroup | null = null;
    let bound_pipeline: GPURenderPipeline | null = null;
    let bound_pulled = false;
    let bound_vertices: GPUBindGroup | null = null;
    // what each vertex buffer slot and the index holds: skinned meshes of one geometry share uvs, tangents and
    // indices and differ only in their positions' offsets, so most of a run of them binds two buffers
    let slot_01: GPUGeometry | null = null;
    let slot_uv: GPUBuffer | null = null;
    let slot_3: GPUBuffer | null = null;
    let slot_3_offset = -1;
    let slot_4: GPUBuffer | null = null;
    let bound_index: GPUBuffer | null = null;
    // the full index this pass draws the bound geometry with (its coarser levels draw with `detail_index`)
    let full_index: GPUBuffer | null = null;
    // with per-variant pipelines, whether this run's pipeline reads tangents and uv1
    let extras = buffers === "surface";
    // a set with flat variants draws flat geometries with their glued surface index (`GPUGeometry.flat`)
    const flat_sets = pipelines !== null && pipelines.length === FLAT_PIPELINE_SET;
    let variant = 0;
    let rebind_pipeline = false;
    for (let i = start; i < count; i++) {
        const run = runs[i];
        if (filter !== "all" && (run.skin === null) !== (filter === "static")) continue;
        const pulling = pulled !== null && run.batch !== null;
        let rebind_extras = false;
        if (run.material !== bound_material || pulling !== bound_pulled) {
            if (pipelines !== null) {
                variant = material_variant(run.material);
                rebind_pipeline = true;
                const wanted = buffers === "surface" && (variant & 4) !== 0;
                rebind_extras = wanted && !extras;
                extras = wanted;
            }
            if (run.material !== bound_material) {
                // untextured materials share one group: switching between them binds nothing
                const group = state.materials.group(run.material);
                if (group !== bound_group) {
                    pass.setBindGroup(1, group);
                    bound_group = group;
                }
                bound_material = run.material;
            }
            bound_pulled = pulling;
        }
        // runs are sorted by material then geometry: many in a row share a geometry, looked up once; a skinned
        // mesh's run (one mesh, or a batch's meshes) draws with its skin's buffers
        const source = run.skin ?? run.geometry;
        if (source !== bound_source) {
            bound_source = source;
            const geometry = state.geometries.get(run.geometry, run.skin);
            if (geometry !== bound_geometry) {
                if (geometry.uv !== slot_uv) {
                    pass.setVertexBuffer(2, geometry.uv);
                    slot_uv = geometry.uv;
                }
                // motion reads positions alone: the index with a position's vertices glued runs fewer vertex
                // shaders; a set with flat variants, the index glued for surfaces
                full_index = buffers === "previous" ? geometry.position_index : flat_sets ? geometry.surface_index : geometry.index;
                if (flat_sets && geometry.flat !== (bound_geometry?.flat ?? false)) rebind_pipeline = true;
                bound_geometry = geometry;
                rebind_extras = extras;
            }
        }
        const geometry = bound_geometry!;
        if (rebind_pipeline && pipelines !== null) {
            rebind_pipeline = false;
            const set = pulling ? pulled! : pipelines;
            const pipeline = set.length === 1 ? set[0] : set[flat_sets && geometry.flat ? variant | FLAT_VARIANT : variant];
            if (pipeline !== bound_pipeline) {
                pass.setPipeline(pipeline);
                bound_pipeline = pipeline;
            }
        }
        if (pulling) {
            // positions and normals (this frame's and last frame's) come from the batch's buffers
            const vertices = run.batch!.vertices;
            if (vertices !== bound_vertices) {
                pass.setBindGroup(SKINNED_VERTICES_GROUP, vertices);
                bound_vertices = vertices;
            }
        } else if (slot_01 !== geometry) {
            pass.setVertexBuffer(0, geometry.position, geometry.position_offset);
            pass.setVertexBuffer(1, geometry.normal, geometry.normal_offset);
            slot_01 = geometry;
            if (buffers === "previous" && (geometry.previous_position !== slot_3 || geometry.previous_offset !== slot_3_offset)) {
                pass.setVertexBuffer(3, geometry.previous_position, geometry.previous_offset);
                slot_3 = geometry.previous_position;
                slot_3_offset = geometry.previous_offset;
            }
        }
        if (rebind_extras) {
            if (geometry.tangent !== slot_3) {
                pass.setVertexBuffer(3, geometry.tangent);
                slot_3 = geometry.tangent;
                slot_3_offset = 0;
            }
            if (geometry.uv1 !== slot_4) {
                pass.setVertexBuffer(4, geometry.uv1);
                slot_4 = geometry.uv1;
            }
        }
        if (full_index !== bound_index) {
            pass.setIndexBuffer(full_index!, geometry.index_format);
            bound_index = full_index;
        }
        if (indirect === null) {
            pass.drawIndexed(geometry.index_count, run.count, 0, 0, run.first);
            continue;
        }
        pass.drawIndexedIndirect(indirect, indirect_offset(i, 0));
        if (geometry.levels > 1) {
            // the coarser levels of detail, each with the instances the culling gave it (every pass draws the
            // same simplified triangles, so their depths meet)
            pass.setIndexBuffer(geometry.detail_index!, geometry.index_format);
            bound_index = geometry.detail_index;
            for (let l = 1; l < geometry.levels; l++) pass.drawIndexedIndirect(indirect, indirect_offset(i, l));
        }
    }
}

/** Vertex buffer layouts of mesh pipelines: positions, normals, uvs in separate buffers. */
export const MESH_VERTEX_BUFFERS: GPUVertexBufferLayout[] = [
    { arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: "float32x3" }] },
    { arrayStride: 12, attributes: [{ shaderLocation: 1, offset: 0, format: "float32x3" }] },
    { arrayStride: 8, attributes: [{ shaderLocation: 2, offset: 0, format: "float32x2" }] },
];

/** `MESH_VERTEX_BUFFERS` and last frame's positions at buffer 3, location 3 (the velocity product's mesh pipeline). */
export const MESH_VERTEX_BUFFERS_WITH_PREVIOUS: GPUVertexBufferLayout[] = [
    ...MESH_VERTEX_BUFFERS,
    { arrayStride: 12, attributes: [{ shaderLocation: 3, offset: 0, format: "float32x3" }] },
];

/** Layout of group 0 of mesh pipelines: camera uniform, objects storage, the visible slots (`FrustumCulling`). */
export function make_scene_layout(device: GPUDevice): GPUBindGroupLayout {
    return device.createBindGroupLayout({
        label: "mesh scene bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } },
            { binding: 1, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: "read-only-storage" } },
            { binding: 2, visibility: GPUShaderStage.VERTEX, buffer: { type: "read-only-storage" } },
        ],
    });
}

