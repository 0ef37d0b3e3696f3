import { SKINNED_BOUNDS_SCALE, type MeshSkin } from "../scene/MeshSkin.js";
import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { FramePhase } from "../extension/FramePhase.js";
import { RenderExtension } from "../extension/RenderExtension.js";
import { GPUGeometryCache, type GPUGeometry } from "../mesh/GPUGeometryCache.js";
import type { MeshDrawList } from "../mesh/MeshDrawList.js";
import { SceneDraws } from "../mesh/SceneDraws.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";
import { OBJECT_CASTS_SHADOWS, OBJECT_FLOATS } from "../mesh/mesh_wgsl.js";
import type { Geometry } from "../geometry/Geometry.js";
import { geometry_bounds } from "../geometry/geometry_bounds.js";
import type { ObjectBuffer } from "../mesh/ObjectBuffer.js";
import { MAX_SHADOW_CASCADES, SHADOW_CASCADES_FLOATS, ShadowCascades } from "./ShadowCascades.js";
import { ShadowMap } from "./ShadowMap.js";
import { build_shadow_state, make_pulled_shadow_pipelines, type ShadowDeviceState } from "./ShadowDeviceState.js";
import { CASTER_STRIDE } from "./shadow_casters_wgsl.js";
import { SKINNED_VERTICES_GROUP, type SkinBatch } from "../mesh/skinned_vertices.js";
import type { Camera } from "../scene/Camera.js";
import { MAX_DETAIL_LEVELS } from "../geometry/GeometryDetail.js";

export { SHADOW_MAP_FORMAT } from "./ShadowDeviceState.js";

export interface ShadowExtensionOptions {
    /** Cascades, 1 to 4. Default 3. */
    readonly cascades?: number;
    /** Texels along one side of a cascade. Default 1024. */
    readonly resolution?: number;
    /** View depth the cascades cover (capped by the camera's far plane); beyond it all is lit. Default 60. */
    readonly distance?: number;
    /** 0: uniform splits, 1: logarithmic. Default 0.6. */
    readonly split_lambda?: number;
    /** How far towards the sun, beyond a cascade's bounds, casters still cast into it. Default 40. */
    readonly caster_distance?: number;
    /** Subtracted from the receiver's light-space depth (clip units) before comparing. Default 0.0005. */
    readonly depth_bias?: number;
}

/** One instanced draw of a cascade: `count` casters of one geometry from `first` in the caster list. */
interface CasterRun {
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
 * Cascaded shadow map of the scene's sun (DriftEngine's `prepare` made real): at FrameStart it fits the
 * cascades to the camera (`ShadowCascades`), draws the opaque meshes' depth from the sun into a texture it
 * owns across frames (imported into each frame's graph, so the pass "shadows / cascades" is a side effect),
 * and publishes `ShadowMap`, which the deferred lighting samples with PCF. Not registered, it costs nothing:
 * no pass, no texture, the lighting's shadowless shader.
 */
export class ShadowExtension extends RenderExtension {
    override name = "shadows";
    override phase = FramePhase.FrameStart;

    readonly cascade_count: number;
    readonly resolution: number;
    distance: number;
    split_lambda: number;
    caster_distance: number;
    depth_bias: number;
    /** This frame's cascades (matrices, splits), for inspection and tests. */
    readonly cascades = new ShadowCascades();

    // this frame's mesh draws (`SceneDraws`): the casters are the G-buffer's objects that cast shadows
    #objects: ObjectBuffer | null = null;
    readonly #uniform_data = new Float32Array(SHADOW_CASCADES_FLOATS);
    readonly #caster_data = new Float32Array((CASTER_STRIDE / 4) * MAX_SHADOW_CASCADES);
    readonly #per_device = new WeakMap<GPUDevice, ShadowDeviceState>();
    #last: ShadowDeviceState | null = null;
    #map: FrameGraphHandle = -1;
    #indices = new Uint32Array(256);
    // per caster in #indices, its level of detail; and the casters of a run sorted by level
    #levels = new Uint8Array(256);
    #sorted = new Uint32Array(256);
    readonly #level_starts = new Uint32Array(MAX_DETAIL_LEVELS);
    #index_count = 0;
    // per cascade, its instanced draws (reused objects)
    readonly #runs: CasterRun[][] = [];
    readonly #run_counts = new Uint32Array(MAX_SHADOW_CASCADES);
    /** Casters drawn into each cascade this frame (after culling), for inspection and tests. */
    readonly caster_counts = new Uint32Array(MAX_SHADOW_CASCADES);
    readonly #descriptor: GPURenderPassDescriptor = { label: "shadow cascades", colorAttachments: [] };

    constructor(options: ShadowExtensionOptions = {}) {
        super();
        const cascades = options.cascades ?? 3;
        if (!(Number.isInteger(cascades) && cascades >= 1 && cascades <= MAX_SHADOW_CASCADES)) {
            throw new RangeError(`ShadowExtension: cascades must be an integer in [1, ${MAX_SHADOW_CASCADES}], got ${String(cascades)}`);
        }
        const resolution = options.resolution ?? 1024;
        if (!(Number.isInteger(resolution) && resolution >= 16)) {
            throw new RangeError(`ShadowExtension: resolution must be an integer of at least 16 texels, got ${String(resolution)}`);
        }
        this.cascade_count = cascades;
        this.resolution = resolution;
        this.distance = positive(options.distance ?? 60, "distance");
        this.split_lambda = options.split_lambda ?? 0.6;
        if (!(this.split_lambda >= 0 && this.split_lambda <= 1)) {
            throw new RangeError(`ShadowExtension: split_lambda must be in [0, 1], got ${String(options.split_lambda)}`);
        }
        this.caster_distance = positive(options.caster_distance ?? 40, "caster_distance");
        this.depth_bias = options.depth_bias ?? 0.0005;
    }

    override record(frame: FrameContext): void {
        const scene = frame.scene;
        const camera = frame.view.camera;
        const size = frame.internal_resolution;
        this.cascades.fit(camera, size[0] / size[1], scene.sun.direction, this.cascade_count, this.distance, this.split_lambda, this.resolution, this.caster_distance);
        const draws = frame.get(SceneDraws);
        this.#objects = draws.objects;
        this.#cull(draws.list, draws.objects, GPUGeometryCache.of(frame.device), camera);
        const state = this.#state(frame.device);
        const graph = frame.graph;
        const imported = graph.import_texture("shadow map", state.texture, state.texture_descriptor);
        const pass = graph.add("shadows / cascades", this, execute_shadows);
        this.#map = pass.write(imported);
        const record = frame.create(ShadowMap);
        record.map = this.#map;
        record.cascades = state.uniforms;
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        const queue = device.queue;
        const cascades = this.cascades;
        cascades.write_uniforms(this.#uniform_data, this.resolution * this.cascade_count, this.resolution, this.depth_bias);
        queue.writeBuffer(state.uniforms, 0, this.#uniform_data);
        const casters = this.#caster_data;
        for (let i = 0; i < this.cascade_count; i++) {
            for (let k = 0; k < 16; k++) casters[i * (CASTER_STRIDE / 4) + k] = cascades.matrices[i * 16 + k];
        }
        queue.writeBuffer(state.casters, 0, casters);
        const objects = this.#objects!.upload(device);
        const bytes = Math.max(4, this.#index_count * 4);
        if (state.caster_indices.size < bytes) {
            state.caster_indices.destroy();
            let size = state.caster_indices.size;
            while (size < bytes) size *= 2;
            state.caster_indices = device.createBuffer({ label: "shadow caster indices", size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        }
        if (this.#index_count > 0) queue.writeBuffer(state.caster_indices, 0, this.#indices.buffer, 0, this.#index_count * 4);
        if (state.groups_objects !== objects || state.groups.length === 0 || state.groups_indices !== state.caster_indices) {
            state.groups.length = 0;
            for (let i = 0; i < MAX_SHADOW_CASCADES; i++) {
                state.groups.push(
                    device.createBindGroup({
                        label: `shadow cascade ${i} bind group`,
                        layout: state.layout,
                        entries: [
                            { binding: 0, resource: { buffer: state.casters, offset: i * CASTER_STRIDE, size: 64 } },
                            { binding: 1, resource: { buffer: objects } },
                            { binding: 2, resource: { buffer: state.caster_indices } },
                        ],
                    }),
                );
            }
            state.groups_objects = objects;
            state.groups_indices = state.caster_indices;
        }

        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#map, 1);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        if (this.#index_count > 0) {
            const r = this.resolution;
            let bound_pipeline: GPURenderPipeline | null = null;
            for (let c = 0; c < this.cascade_count; c++) {
                const runs = this.#runs[c];
                const count = this.#run_counts[c];
                if (count === 0) continue;
                pass.setViewport(c * r, 0, r, r, 0, 1);
                pass.setBindGroup(0, state.groups[c]);
                let bound: GPUGeometry | null = null;
                let bound_index: GPUBuffer | null = null;
                let bound_material: StandardMaterial | null = null;
                let bound_vertices: GPUBindGroup | null = null;
                for (let i = 0; i < count; i++) {
                    const run = runs[i];
                    const masked = run.material.transparency === "masked";
                    const batch = run.batch;
                    let pipeline = masked ? state.masked_pipeline : state.pipeline;
                    if (batch !== null) {
                        const pulled = (state.pulled ??= make_pulled_shadow_pipelines(device, state));
                        pipeline = masked ? pulled.masked_pipeline : pulled.pipeline;
                    }
                    if (pipeline !== bound_pipeline) {
                        pass.setPipeline(pipeline);
                        bound_pipeline = pipeline;
                        bound = null;
                    }
                    // a batch's pipelines have the material's group too (masked or not)
                    if ((masked || batch !== null) && run.material !== bound_material) {
                        pass.setBindGroup(1, state.materials.group(run.material));
                        bound_material = run.material;
                    }
                    if (batch !== null && batch.vertices !== bound_vertices) {
                        pass.setBindGroup(SKINNED_VERTICES_GROUP, batch.vertices);
                        bound_vertices = batch.vertices;
                    }
                    const geometry = state.geometries.get(run.geometry, run.skin);
                    if (geometry !== bound) {
                        if (batch === null) pass.setVertexBuffer(0, geometry.position, geometry.position_offset);
                        if (masked) {
                            pass.setVertexBuffer(1, geometry.uv);
                            pass.setVertexBuffer(2, geometry.uv1);
                        }
                        bound = geometry;
                    }
                    // unmasked casters read positions alone: the index with a position's vertices glued; a coarser
                    // level of detail, its own
                    const level = run.level < geometry.levels ? run.level : 0;
                    const index = level > 0 ? geometry.detail_index! : masked ? geometry.index : geometry.position_index;
                    if (index !== bound_index) {
                        pass.setIndexBuffer(index, geometry.index_format);
                        bound_index = index;
                    }
                    if (level === 0) pass.drawIndexed(geometry.index_count, run.count, 0, 0, run.first);
                    else pass.drawIndexed(geometry.level_count[level], run.count, geometry.level_first[level], 0, run.first);
                }
            }
        }
        pass.end();
    }

    // Per cascade, the opaque objects that cast shadows whose bounding sphere reaches into its box (towards the sun
    // the box already extends by caster_distance), as index lists of consecutive runs of one geometry and level of
    // detail (chosen by the size on the camera's screen, as the mesh culling chooses it).
    #cull(list: MeshDrawList, objects: ObjectBuffer, geometries: GPUGeometryCache, camera: Camera): void {
        const p11 = camera.projection[5];
        const eye = camera.position;
        const floats = objects.floats;
        const uints = objects.uints;
        const m = this.cascades.matrices;
        let n = 0;
        for (let c = 0; c < this.cascade_count; c++) {
            const o = c * 16;
            // an orthographic box: clip x and y scale world lengths by the same factor, z by its own
            // (Math.hypot allocates in V8's optimised code: spelled out)
            const sxy = Math.sqrt(m[o] * m[o] + m[o + 4] * m[o + 4] + m[o + 8] * m[o + 8]);
            const sz = Math.sqrt(m[o + 2] * m[o + 2] + m[o + 6] * m[o + 6] + m[o + 10] * m[o + 10]);
            let runs = this.#runs[c];
            if (runs === undefined) runs = this.#runs[c] = [];
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
                    if (n >= this.#indices.length) this.#grow();
                    let level = 0;
                    if (levels > 1) {
                        const dx = x - eye[0];
                        const dy = y - eye[1];
                        const dz = z - eye[2];
                        const screen = (radius * p11) / Math.max(Math.sqrt(dx * dx + dy * dy + dz * dz), 1e-6);
                        for (let l = 1; l < levels; l++) if (screen < detail.level_screen[l]) level = l;
                    }
                    this.#levels[n] = level;
                    this.#indices[n++] = k;
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
            this.#run_counts[c] = run_count;
            this.caster_counts[c] = n - before;
        }
        this.#index_count = n;
    }

    #grow(): void {
        const grown = new Uint32Array(this.#indices.length * 2);
        grown.set(this.#indices);
        this.#indices = grown;
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
        const indices = this.#indices;
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

    #state(device: GPUDevice): ShadowDeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_shadow_state(device, this.resolution * this.cascade_count, this.resolution);
            this.#per_device.set(device, state);
            this.#last = state;
        }
        return state;
    }

    override destroy(): void {
        const state = this.#last;
        if (state === null) return;
        state.texture.destroy();
        state.uniforms.destroy();
        state.casters.destroy();
        state.caster_indices.destroy();
        state.materials.destroy();
        this.#last = null;
    }
}

function positive(value: number, name: string): number {
    if (!(typeof value === "number" && value > 0 && Number.isFinite(value))) {
        throw new RangeError(`ShadowExtension: ${name} must be a positive number, got ${String(value)}`);
    }
    return value;
}

function execute_shadows(extension: ShadowExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}
