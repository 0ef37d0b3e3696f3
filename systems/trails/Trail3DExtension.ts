import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension, type RenderExtensionOwner } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";
import { CAMERA_BYTES } from "../../shade/renderer/scene/Camera.js";
import { POINT_BYTES, TRAIL_RECORD_BYTES, type TrailPool } from "./TrailPool.js";
import {
    POINT_UPDATE_BYTES,
    POINT_UPDATE_WORDS,
    SCATTER_WORKGROUP,
    TRAIL_DRAW_WGSL,
    TRAIL_PARAMS_BYTES,
    TRAIL_SCATTER_WGSL,
} from "./trail.wgsl.js";

/** What the extension draws: the system's pool and clock; the owner named in errors. */
export interface TrailSource extends RenderExtensionOwner {
    readonly pool: TrailPool;
    /** Seconds on the trails' clock (the time stamps of the points). */
    readonly now: number;
}

interface DrawData {
    camera: GPUBuffer | null;
    depth: FrameGraphHandle;
    output: FrameGraphHandle;
    color_format: GPUTextureFormat;
    depth_format: GPUTextureFormat;
}

interface PipelineEntry {
    readonly color_format: GPUTextureFormat;
    readonly depth_format: GPUTextureFormat;
    readonly pipeline: GPURenderPipeline;
}

/** GPU objects of one device and one pool capacity. */
interface DeviceState {
    readonly device: GPUDevice;
    readonly generation: number;
    readonly points: GPUBuffer;
    readonly records: GPUBuffer;
    readonly updates: GPUBuffer;
    readonly params: GPUBuffer;
    readonly draw_layout: GPUBindGroupLayout;
    readonly scatter_pipeline: GPUComputePipeline;
    readonly scatter_group: GPUBindGroup;
    readonly draw_module: GPUShaderModule;
    readonly draw_pipeline_layout: GPUPipelineLayout;
    readonly pipelines: PipelineEntry[];
    /** Draw bind groups by camera buffer. */
    readonly cameras: GPUBuffer[];
    readonly groups: GPUBindGroup[];
}

const PREMULTIPLIED_OVER: GPUBlendState = {
    color: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
    alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
};
const MAX_CAMERAS = 8;

/**
 * Draws every trail of a `Trail3DSystem` at AfterTransparency: blended over the scene colour (read, written,
 * published), depth-tested read-only against `ViewTextures.depth`.
 *
 * Two passes. "trails / update" (a side effect: the GPU rings must never miss a point) uploads the trail
 * records (the moving heads: 80 bytes per trail), the points laid down since the last upload (32 bytes each)
 * and scatters those into the ring pool with a compute dispatch; after a new device or a growth the whole
 * pool goes up once instead. "trails / draw" is one instanced draw of every slot, the ribbon expanded in the
 * vertex shader (`trail.wgsl.ts`).
 *
 * Why a pipeline of its own rather than `GPUDynamicMeshRenderer`: that renderer takes triangle geometry
 * built on the CPU and re-uploads a geometry whole when it changes, so a ribbon through it means rewriting
 * and uploading every trail's vertices every frame (what three.js MeshLine does). Here the CPU writes one
 * head per trail per frame and the GPU builds the camera-facing strip from the ring.
 */
export class Trail3DExtension extends RenderExtension {
    name = "trails";
    phase = FramePhase.AfterTransparency;

    readonly #source: TrailSource;
    #state: DeviceState | null = null;
    #update_count = 0;
    #destroyed = false;

    readonly #params = new ArrayBuffer(TRAIL_PARAMS_BYTES);
    readonly #params_f32 = new Float32Array(this.#params);
    readonly #params_u32 = new Uint32Array(this.#params);
    #updates = new ArrayBuffer(0);
    #updates_f32 = new Float32Array(0);
    #updates_u32 = new Uint32Array(0);

    readonly #draw: DrawData = { camera: null, depth: -1, output: -1, color_format: "rgba16float", depth_format: "depth32float" };
    readonly #update_data = {};
    readonly #execute_update: (data: object, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #execute_draw: (data: DrawData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #color_attachments: GPURenderPassColorAttachment[] = [];
    readonly #pass_descriptor: GPURenderPassDescriptor = { label: "trails / draw", colorAttachments: this.#color_attachments };
    readonly #compute_descriptor: GPUComputePassDescriptor = { label: "trails / scatter" };

    constructor(source: TrailSource) {
        super(source);
        this.#source = source;
        this.#execute_update = (_data, _resources, execution) => this.#encode_update(execution);
        this.#execute_draw = (data, resources, execution) => this.#encode_draw(data, resources, execution);
    }

    /** Points scattered by the last upload (0 after a whole-pool upload). For tests and diagnostics. */
    get last_update_count(): number {
        return this.#update_count;
    }

    override record(frame: FrameContext): void {
        this.#expect_alive();
        if (this.#source.pool.live === 0) return; // nothing to draw: the colour stays exactly as it was
        const graph = frame.graph;
        graph.add("trails / update", this.#update_data, this.#execute_update).make_side_effect();
        const scene = frame.get(SceneColor);
        const depth = frame.get(ViewTextures).depth;
        const draw = this.#draw;
        draw.camera = frame.view.camera.buffer;
        draw.color_format = graph.describe(scene.color).format;
        draw.depth_format = graph.describe(depth).format;
        const builder = graph.add("trails / draw", draw, this.#execute_draw);
        draw.depth = builder.read(depth);
        draw.output = builder.write(scene.color, "load");
        scene.color = draw.output;
    }

    /**
     * Brings `device`'s copy of the pool up to date with queue writes: records, parameters, and either the
     * points laid down since the last upload (staged for the scatter) or the whole pool. What the update pass
     * does first; on its own for timing the upload path.
     */
    upload(device: GPUDevice): void {
        this.#expect_alive();
        const pool = this.#source.pool;
        const state = this.#device_state(device);
        const queue = device.queue;
        const high_water = pool.high_water;
        let updates = 0;
        if (pool.full_upload) {
            const bytes = high_water * pool.segments * POINT_BYTES;
            if (bytes > 0) queue.writeBuffer(state.points, 0, pool.points.buffer, 0, bytes);
            pool.full_upload = false;
        } else if (pool.pending_count > 0) {
            updates = pool.pending_count;
            this.#stage_updates(pool, updates);
            queue.writeBuffer(state.updates, 0, this.#updates, 0, updates * POINT_UPDATE_BYTES);
        }
        pool.pending_count = 0;
        if (high_water > 0) queue.writeBuffer(state.records, 0, pool.records_f32.buffer, 0, high_water * TRAIL_RECORD_BYTES);
        this.#params_f32[0] = this.#source.now;
        this.#params_u32[1] = pool.segments;
        this.#params_u32[2] = updates;
        queue.writeBuffer(state.params, 0, this.#params);
        this.#update_count = updates;
    }

    override destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        this.#release();
        this.#draw.camera = null;
        this.#color_attachments.length = 0;
    }

    #expect_alive(): void {
        if (this.#destroyed) throw new Error("Trail3DExtension 'trails' used after destroy(); build a new one (a new Trail3DSystem startup)");
    }

    #stage_updates(pool: TrailPool, count: number): void {
        if (this.#updates_u32.length < count * POINT_UPDATE_WORDS) {
            this.#updates = new ArrayBuffer(pool.pending.length * POINT_UPDATE_BYTES);
            this.#updates_f32 = new Float32Array(this.#updates);
            this.#updates_u32 = new Uint32Array(this.#updates);
        }
        const f32 = this.#updates_f32;
        const u32 = this.#updates_u32;
        const points = pool.points;
        const pending = pool.pending;
        for (let k = 0; k < count; k++) {
            const index = pending[k];
            const from = index * 4;
            const at = k * POINT_UPDATE_WORDS;
            f32[at] = points[from];
            f32[at + 1] = points[from + 1];
            f32[at + 2] = points[from + 2];
            f32[at + 3] = points[from + 3];
            u32[at + 4] = index;
        }
    }

    #encode_update(execution: FrameExecution): void {
        const device = execution.graphics;
        this.upload(device);
        const count = this.#update_count;
        if (count === 0) return;
        const state = this.#state!;
        const pass = execution.encoder.beginComputePass(this.#compute_descriptor);
        pass.setPipeline(state.scatter_pipeline);
        pass.setBindGroup(0, state.scatter_group);
        pass.dispatchWorkgroups(Math.ceil(count / SCATTER_WORKGROUP));
        pass.end();
    }

    #encode_draw(data: DrawData, resources: FrameGraphResources, execution: FrameExecution): void {
        const state = this.#state;
        const pool = this.#source.pool;
        if (state === null || state.device !== execution.graphics) throw new Error("trails / draw: the update pass did not run on this device");
        this.#color_attachments[0] = resources.color_attachment(data.output);
        this.#pass_descriptor.depthStencilAttachment = resources.depth_attachment(data.depth);
        const pass = execution.encoder.beginRenderPass(this.#pass_descriptor);
        pass.setPipeline(this.#pipeline(state, data.color_format, data.depth_format));
        pass.setBindGroup(0, this.#draw_group(state, data.camera!));
        if (pool.high_water > 0) pass.draw(2 * (pool.segments + 1), pool.high_water);
        pass.end();
    }

    #device_state(device: GPUDevice): DeviceState {
        const pool = this.#source.pool;
        const current = this.#state;
        if (current !== null && current.device === device && current.generation === pool.generation) return current;
        this.#release();
        pool.invalidate();
        const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
        const points = device.createBuffer({ label: "trails ring points", size: pool.capacity * pool.segments * POINT_BYTES, usage });
        const records = device.createBuffer({ label: "trails records", size: pool.capacity * TRAIL_RECORD_BYTES, usage });
        const updates = device.createBuffer({ label: "trails point updates", size: pool.pending.length * POINT_UPDATE_BYTES, usage });
        const params = device.createBuffer({ label: "trails params", size: TRAIL_PARAMS_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        const scatter_module = device.createShaderModule({ label: "trails scatter shader", code: TRAIL_SCATTER_WGSL });
        const scatter_layout = device.createBindGroupLayout({
            label: "trails scatter bind group layout",
            entries: [
                { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
                { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
                { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
            ],
        });
        const scatter_pipeline = device.createComputePipeline({
            label: "trails scatter pipeline",
            layout: device.createPipelineLayout({ label: "trails scatter pipeline layout", bindGroupLayouts: [scatter_layout] }),
            compute: { module: scatter_module, entryPoint: "cs_scatter" },
        });
        const scatter_group = device.createBindGroup({
            label: "trails scatter bind group",
            layout: scatter_layout,
            entries: [
                { binding: 0, resource: { buffer: params } },
                { binding: 1, resource: { buffer: updates } },
                { binding: 2, resource: { buffer: points } },
            ],
        });
        const draw_layout = device.createBindGroupLayout({
            label: "trails draw bind group layout",
            entries: [
                { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
                { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform" } },
                { binding: 2, visibility: GPUShaderStage.VERTEX, buffer: { type: "read-only-storage" } },
                { binding: 3, visibility: GPUShaderStage.VERTEX, buffer: { type: "read-only-storage" } },
            ],
        });
        const state: DeviceState = {
            device,
            generation: pool.generation,
            points,
            records,
            updates,
            params,
            draw_layout,
            scatter_pipeline,
            scatter_group,
            draw_module: device.createShaderModule({ label: "trails draw shader", code: TRAIL_DRAW_WGSL }),
            draw_pipeline_layout: device.createPipelineLayout({ label: "trails draw pipeline layout", bindGroupLayouts: [draw_layout] }),
            pipelines: [],
            cameras: [],
            groups: [],
        };
        this.#state = state;
        return state;
    }

    #pipeline(state: DeviceState, color_format: GPUTextureFormat, depth_format: GPUTextureFormat): GPURenderPipeline {
        const pipelines = state.pipelines;
        for (let i = 0; i < pipelines.length; i++) {
            const entry = pipelines[i];
            if (entry.color_format === color_format && entry.depth_format === depth_format) return entry.pipeline;
        }
        const pipeline = state.device.createRenderPipeline({
            label: `trails draw pipeline (${color_format}, ${depth_format})`,
            layout: state.draw_pipeline_layout,
            vertex: { module: state.draw_module, entryPoint: "vs_main" },
            fragment: { module: state.draw_module, entryPoint: "fs_main", targets: [{ format: color_format, blend: PREMULTIPLIED_OVER }] },
            primitive: { topology: "triangle-strip", cullMode: "none" },
            depthStencil: { format: depth_format, depthWriteEnabled: false, depthCompare: "less" },
        });
        pipelines.push({ color_format, depth_format, pipeline });
        return pipeline;
    }

    #draw_group(state: DeviceState, camera: GPUBuffer): GPUBindGroup {
        const cameras = state.cameras;
        for (let i = 0; i < cameras.length; i++) if (cameras[i] === camera) return state.groups[i];
        if (cameras.length >= MAX_CAMERAS) {
            cameras.length = 0;
            state.groups.length = 0;
        }
        const group = state.device.createBindGroup({
            label: "trails draw bind group",
            layout: state.draw_layout,
            entries: [
                { binding: 0, resource: { buffer: camera, size: CAMERA_BYTES } },
                { binding: 1, resource: { buffer: state.params } },
                { binding: 2, resource: { buffer: state.records } },
                { binding: 3, resource: { buffer: state.points } },
            ],
        });
        cameras.push(camera);
        state.groups.push(group);
        return group;
    }

    #release(): void {
        const state = this.#state;
        this.#state = null;
        if (state === null) return;
        state.points.destroy();
        state.records.destroy();
        state.updates.destroy();
        state.params.destroy();
    }
}
