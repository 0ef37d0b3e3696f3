import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { FramePhase } from "../extension/FramePhase.js";
import { RenderExtension } from "../extension/RenderExtension.js";
import type { Geometry } from "../geometry/Geometry.js";
import type { FrustumCulling } from "../mesh/FrustumCulling.js";
import type { GPUGeometry } from "../mesh/GPUGeometryCache.js";
import type { MeshDrawList } from "../mesh/MeshDrawList.js";
import type { ObjectBuffer } from "../mesh/ObjectBuffer.js";
import { grown_size } from "../mesh/indirect_args.js";
import { SceneDraws } from "../mesh/SceneDraws.js";
import { SKINNED_VERTICES_GROUP, type SkinBatch } from "../mesh/skinned_vertices.js";
import type { Camera } from "../scene/Camera.js";
import type { MeshSkin } from "../scene/MeshSkin.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";
import { CascadeCasters } from "./CascadeCasters.js";
import { CascadeCulling, cascade_indirect_offset } from "./CascadeCulling.js";
import { MAX_SHADOW_CASCADES, SHADOW_CASCADES_FLOATS, ShadowCascades } from "./ShadowCascades.js";
import { ShadowMap } from "./ShadowMap.js";
import { build_shadow_state, make_pulled_shadow_pipelines, type ShadowDeviceState } from "./ShadowDeviceState.js";
import { CASTER_STRIDE } from "./shadow_casters_wgsl.js";

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

/** What binding one caster draw needs: a draw list's run or a CPU-culled cascade run. */
interface CasterDraw {
    readonly geometry: Geometry;
    readonly skin: MeshSkin | null;
    readonly batch: SkinBatch | null;
    readonly material: StandardMaterial;
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
    /**
     * Whether the casters are culled on the GPU (a compute pass "shadows / cull" over the G-buffer's draw list, the
     * cascades drawn indirectly: the CPU cost does not grow with the meshes) where the device has
     * `indirect-first-instance`; false, or a device without it, culls them on the CPU. Default true.
     */
    gpu_culling = true;

    // this frame's mesh draws (`SceneDraws`): the casters are the G-buffer's objects that cast shadows
    #list: MeshDrawList | null = null;
    #objects: ObjectBuffer | null = null;
    #culling: FrustumCulling | null = null;
    #camera: Camera | null = null;
    // whether this frame's casters are culled on the GPU (decided at record)
    #gpu = false;
    readonly #cpu = new CascadeCasters();
    readonly #gpu_culling = new CascadeCulling();
    // the run count and casters buffer the GPU's cull wrote this frame (0: nothing to draw)
    #gpu_runs = 0;
    #gpu_casters: GPUBuffer | null = null;
    #gpu_args: GPUBuffer | null = null;
    readonly #uniform_data = new Float32Array(SHADOW_CASCADES_FLOATS);
    readonly #caster_data = new Float32Array((CASTER_STRIDE / 4) * MAX_SHADOW_CASCADES);
    readonly #per_device = new WeakMap<GPUDevice, ShadowDeviceState>();
    #last: ShadowDeviceState | null = null;
    #last_device: GPUDevice | null = null;
    #map: FrameGraphHandle = -1;
    readonly #descriptor: GPURenderPassDescriptor = { label: "shadow cascades", colorAttachments: [] };
    readonly #cull_descriptor: GPUComputePassDescriptor = { label: "shadow culling" };
    // what the pass has bound, while drawing one cascade
    #bound_pipeline: GPURenderPipeline | null = null;
    #bound_geometry: GPUGeometry | null = null;
    #bound_index: GPUBuffer | null = null;
    #bound_material: StandardMaterial | null = null;
    #bound_vertices: GPUBindGroup | null = null;

    /**
     * Casters drawn into each cascade this frame (after culling) when they are culled on the CPU; with GPU culling
     * see `read_caster_counts`. For inspection and tests.
     */
    get caster_counts(): Uint32Array {
        return this.#cpu.counts;
    }

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
        // the draw list is built after FrameStart's extensions record: read when the passes execute
        const draws = frame.get(SceneDraws);
        const device = frame.device;
        this.#list = draws.list;
        this.#objects = draws.objects;
        this.#culling = draws.culling;
        this.#camera = camera;
        this.#gpu = this.gpu_culling && CascadeCulling.supported(device);
        const state = this.#state(device);
        const graph = frame.graph;
        if (this.#gpu) graph.add("shadows / cull", this, execute_cull).make_side_effect();
        const imported = graph.import_texture("shadow map", state.texture, state.texture_descriptor);
        const pass = graph.add("shadows / cascades", this, execute_shadows);
        this.#map = pass.write(imported);
        const record = frame.create(ShadowMap);
        record.map = this.#map;
        record.cascades = state.uniforms;
    }

    /**
     * Reads back how many casters each cascade drew in the last submitted frame (GPU culling), or this frame's
     * counts (CPU culling): for tests and inspectors, not for frames (it waits for the GPU).
     */
    async read_caster_counts(device: GPUDevice): Promise<Uint32Array> {
        if (!this.#gpu) return this.#cpu.counts.slice(0, this.cascade_count);
        return this.#gpu_culling.read_caster_counts(device, this.#gpu_runs, this.cascade_count);
    }

    /** @internal The GPU's cull: the cascades' matrices written, then each cascade's casters and draw arguments. */
    execute_cull(execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        this.#write_uniforms(device, state);
        const list = this.#list!;
        const culling = this.#culling!;
        const objects = this.#objects!;
        this.#gpu_runs = 0;
        if (list.opaque_run_count === 0) return;
        // the run table the G-buffer's visibility pass reads too (it runs after this one, finding it written and uploaded)
        culling.update_from(list, state.geometries);
        const runs = culling.runs(device);
        const buffer = objects.upload(device);
        this.#cull_descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginComputePass(this.#cull_descriptor);
        this.#gpu_culling.record(device, pass, this.#camera!.buffer, buffer, runs, state.casters, objects.count, culling.run_count, culling.levels, this.cascade_count);
        pass.end();
        this.#gpu_runs = culling.run_count;
        this.#gpu_casters = this.#gpu_culling.casters(device, objects.count, culling.levels, this.cascade_count);
        this.#gpu_args = this.#gpu_culling.args(device, culling.run_count, this.cascade_count);
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        const gpu = this.#gpu;
        const cpu = this.#cpu;
        if (!gpu) {
            this.#write_uniforms(device, state);
            cpu.cull(this.#list!, this.#objects!, state.geometries, this.#camera!, this.cascades.matrices, this.cascade_count);
        }
        const objects = this.#objects!.upload(device);
        let indices: GPUBuffer;
        if (gpu) indices = this.#gpu_casters ?? state.caster_indices;
        else {
            const bytes = Math.max(4, cpu.index_count * 4);
            if (state.caster_indices.size < bytes) {
                const size = grown_size(state.caster_indices, bytes, 0);
                state.caster_indices.destroy();
                state.caster_indices = device.createBuffer({ label: "shadow caster indices", size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
            }
            if (cpu.index_count > 0) device.queue.writeBuffer(state.caster_indices, 0, cpu.indices.buffer, 0, cpu.index_count * 4);
            indices = state.caster_indices;
        }
        if (state.groups_objects !== objects || state.groups.length === 0 || state.groups_indices !== indices) {
            state.groups.length = 0;
            for (let i = 0; i < MAX_SHADOW_CASCADES; i++) {
                state.groups.push(
                    device.createBindGroup({
                        label: `shadow cascade ${i} bind group`,
                        layout: state.layout,
                        entries: [
                            { binding: 0, resource: { buffer: state.casters, offset: i * CASTER_STRIDE, size: 64 } },
                            { binding: 1, resource: { buffer: objects } },
                            { binding: 2, resource: { buffer: indices } },
                        ],
                    }),
                );
            }
            state.groups_objects = objects;
            state.groups_indices = indices;
        }

        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#map, 1);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        const r = this.resolution;
        const list = this.#list!;
        this.#bound_pipeline = null;
        this.#bound_material = null;
        this.#bound_vertices = null;
        for (let c = 0; c < this.cascade_count; c++) {
            if (gpu ? this.#gpu_runs === 0 : cpu.run_counts[c] === 0) continue;
            pass.setViewport(c * r, 0, r, r, 0, 1);
            pass.setBindGroup(0, state.groups[c]);
            this.#bound_geometry = null;
            this.#bound_index = null;
            if (gpu) {
                // every run, each level of detail its geometry has: the cull wrote how many of each to draw
                const args = this.#gpu_args!;
                for (let i = 0; i < this.#gpu_runs; i++) {
                    const run = list.opaque_runs[i];
                    const geometry = state.geometries.get(run.geometry, run.skin);
                    for (let l = 0; l < geometry.levels; l++) {
                        this.#bind(pass, device, state, run, l);
                        pass.drawIndexedIndirect(args, cascade_indirect_offset(c, i, this.#gpu_runs, l));
                    }
                }
            } else {
                const runs = cpu.runs[c];
                for (let i = 0; i < cpu.run_counts[c]; i++) {
                    const run = runs[i];
                    const geometry = this.#bind(pass, device, state, run, run.level);
                    const level = run.level < geometry.levels ? run.level : 0;
                    if (level === 0) pass.drawIndexed(geometry.index_count, run.count, 0, 0, run.first);
                    else pass.drawIndexed(geometry.level_count[level], run.count, geometry.level_first[level], 0, run.first);
                }
            }
        }
        pass.end();
    }

    // binds what one caster draw needs (pipeline, material, batch, vertex and index buffers), skipping what is bound
    #bind(pass: GPURenderPassEncoder, device: GPUDevice, state: ShadowDeviceState, run: CasterDraw, level: number): GPUGeometry {
        const masked = run.material.transparency === "masked";
        const batch = run.batch;
        let pipeline = masked ? state.masked_pipeline : state.pipeline;
        if (batch !== null) {
            const pulled = (state.pulled ??= make_pulled_shadow_pipelines(device, state));
            pipeline = masked ? pulled.masked_pipeline : pulled.pipeline;
        }
        if (pipeline !== this.#bound_pipeline) {
            pass.setPipeline(pipeline);
            this.#bound_pipeline = pipeline;
            this.#bound_geometry = null;
        }
        // a batch's pipelines have the material's group too (masked or not)
        if ((masked || batch !== null) && run.material !== this.#bound_material) {
            pass.setBindGroup(1, state.materials.group(run.material));
            this.#bound_material = run.material;
        }
        if (batch !== null && batch.vertices !== this.#bound_vertices) {
            pass.setBindGroup(SKINNED_VERTICES_GROUP, batch.vertices);
            this.#bound_vertices = batch.vertices;
        }
        const geometry = state.geometries.get(run.geometry, run.skin);
        if (geometry !== this.#bound_geometry) {
            if (batch === null) pass.setVertexBuffer(0, geometry.position, geometry.position_offset);
            if (masked) {
                pass.setVertexBuffer(1, geometry.uv);
                pass.setVertexBuffer(2, geometry.uv1);
            }
            this.#bound_geometry = geometry;
        }
        // unmasked casters read positions alone: the index with a position's vertices glued; a coarser level of
        // detail, its own
        const drawn = level < geometry.levels ? level : 0;
        const index = drawn > 0 ? geometry.detail_index! : masked ? geometry.index : geometry.position_index;
        if (index !== this.#bound_index) {
            pass.setIndexBuffer(index, geometry.index_format);
            this.#bound_index = index;
        }
        return geometry;
    }

    // the lighting's cascades block and the casters' light matrices
    #write_uniforms(device: GPUDevice, state: ShadowDeviceState): void {
        const queue = device.queue;
        const cascades = this.cascades;
        cascades.write_uniforms(this.#uniform_data, this.resolution * this.cascade_count, this.resolution, this.depth_bias);
        queue.writeBuffer(state.uniforms, 0, this.#uniform_data);
        const casters = this.#caster_data;
        for (let i = 0; i < this.cascade_count; i++) {
            for (let k = 0; k < 16; k++) casters[i * (CASTER_STRIDE / 4) + k] = cascades.matrices[i * 16 + k];
        }
        queue.writeBuffer(state.casters, 0, casters);
    }

    #state(device: GPUDevice): ShadowDeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_shadow_state(device, this.resolution * this.cascade_count, this.resolution);
            this.#per_device.set(device, state);
            this.#last = state;
            this.#last_device = device;
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
        if (this.#last_device !== null) this.#gpu_culling.destroy(this.#last_device);
        this.#last = null;
        this.#last_device = null;
    }
}

function positive(value: number, name: string): number {
    if (!(typeof value === "number" && value > 0 && Number.isFinite(value))) {
        throw new RangeError(`ShadowExtension: ${name} must be a positive number, got ${String(value)}`);
    }
    return value;
}

function execute_cull(extension: ShadowExtension, _resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute_cull(execution);
}

function execute_shadows(extension: ShadowExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}
