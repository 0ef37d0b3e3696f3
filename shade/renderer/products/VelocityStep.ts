import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import { BindGroupCache } from "../../device/BindGroupCache.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import { use_compute } from "../fullscreen/FullscreenPath.js";
import type { Camera } from "../scene/Camera.js";
import { draw_runs, GBUFFER_FORMATS, MESH_VERTEX_BUFFERS_WITH_PREVIOUS, type GBufferStep } from "../steps/GBufferStep.js";
import { Velocity, VELOCITY_FORMAT } from "./Velocity.js";
import { RunBundle } from "../steps/RunBundle.js";
import type { MeshDrawList } from "../mesh/MeshDrawList.js";
import { empty_skinned_vertices, SKINNED_VERTICES_GROUP, skinned_vertices_layout } from "../mesh/skinned_vertices.js";
import { VELOCITY_STILL_WGSL, VELOCITY_WGSL } from "./velocity_wgsl.js";

const VELOCITY_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x08 /* STORAGE_BINDING */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;
/** Float offset of `jitter.xy` in the camera's uniform block (CAMERA_WGSL). */
const CAMERA_JITTER = 88;

interface DeviceState {
    readonly mesh_pipeline: GPURenderPipeline;
    /** `[mesh_pipeline]` (what `StaticRunsKey` compares). */
    readonly mesh_pipelines: readonly GPURenderPipeline[];
    /** `[the pipeline pulling a skin batch's vertices]` (`draw_runs`' `pulled`). */
    readonly pulled_pipelines: readonly GPURenderPipeline[];
    /** The static runs' motion draws past the frozen part, replayed while their key holds (`GBufferStep.bundles`). */
    readonly bundle: RunBundle;
    /** The frozen part's, replayed in frames where one of its meshes moved. */
    readonly frozen_bundle: RunBundle;
    readonly static_pipeline: GPURenderPipeline;
    readonly static_layout: GPUBindGroupLayout;
    readonly params: GPUBuffer;
    readonly params_group: GPUBindGroup;
    // camera and depth, for the static draw: keyed by both
    readonly static_groups: BindGroupCache;
    readonly empty_group: GPUBindGroup;
    readonly no_skinned_vertices: GPUBindGroup;
    /** The compute path's still world (made the first time it runs): pipeline and groups keyed by camera, depth, target. */
    still: { pipeline: GPUComputePipeline; groups: BindGroupCache } | null;
}

/**
 * Makes `Velocity`: every pixel's depth reprojected through last frame's camera (a still world: the sky, and
 * surfaces extensions drew into the G-buffer; pass "velocity / still" on the compute full-screen path), then the
 * G-buffer's opaque meshes drawn again with their own motion (`ObjectData.previous_model`; pass "velocity"), into
 * a `VELOCITY_FORMAT` target at the internal resolution.
 */
export class VelocityStep {
    #gbuffer: GBufferStep | null = null;
    #camera: GPUBuffer | null = null;
    #velocity: FrameGraphHandle = -1;
    #depth: FrameGraphHandle = -1;
    // this frame: the still world on compute (pass "velocity / still", into `#still_target`), and whether meshes
    // with motion of their own are drawn over it
    #compute = false;
    #meshes = false;
    #still_target: FrameGraphHandle = -1;
    readonly #still_descriptor: GPUComputePassDescriptor = { label: "velocity / still" };
    readonly #still_keys: unknown[] = [null, null, null];
    readonly #previous_jitter = new Float32Array(4);
    readonly #current_jitter = new Float32Array(2);
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "velocity", colorAttachments: this.#colors };
    readonly #keys: unknown[] = [null, null];
    // what the bundle's recording reads (one object, filled before each `execute`)
    readonly #recording: VelocityRecording = { list: null, gbuffer_state: null, state: null, group: null, indirect: null, start: 0, count: 0 };
    static readonly #still: GPUColorDict = { r: 0, g: 0, b: 0, a: 0 };

    /**
     * Call after the G-buffer step recorded, at AfterGBuffer. On the compute full-screen path (`use_compute`) the
     * still world is pass "velocity / still" and the meshes' pass "velocity" only runs when some mesh has motion
     * of its own; on the raster path one pass "velocity" draws both.
     */
    record(frame: FrameContext, gbuffer: GBufferStep): void {
        const w = frame.resolution[0];
        const h = frame.resolution[1];
        this.#gbuffer = gbuffer;
        this.#camera = frame.view.camera.buffer;
        const depth = frame.get(ViewTextures).depth;
        const list = gbuffer.draw_list;
        // runs of meshes known still (frozen, none moved) have the camera's motion alone: the still world's
        this.#meshes = list.opaque_run_count > list.still_runs;
        this.#compute = use_compute(frame.device, "auto");
        const descriptor = TextureResourceDescriptor.of(w, h, VELOCITY_FORMAT, VELOCITY_USAGE);
        let velocity: FrameGraphHandle;
        if (this.#compute) {
            const still = frame.graph.add("velocity / still", this, execute_still);
            this.#depth = still.read(depth);
            velocity = this.#still_target = still.write(still.create("velocity", descriptor));
            if (this.#meshes) {
                const pass = frame.graph.add("velocity", this, execute_velocity);
                pass.read(depth);
                velocity = pass.write(velocity);
            }
        } else {
            const pass = frame.graph.add("velocity", this, execute_velocity);
            this.#depth = pass.read(depth);
            velocity = pass.write(pass.create("velocity", descriptor));
        }
        this.#velocity = velocity;
        frame.create(Velocity).provide(velocity);
    }

    /**
     * Call every frame, made or not, once the camera holds this frame's jitter: what was this frame's becomes
     * the previous frame's.
     */
    begin_frame(camera: Camera): void {
        this.#previous_jitter[0] = this.#current_jitter[0];
        this.#previous_jitter[1] = this.#current_jitter[1];
        this.#current_jitter[0] = camera.data[CAMERA_JITTER];
        this.#current_jitter[1] = camera.data[CAMERA_JITTER + 1];
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state_for(device);
        const gbuffer = this.#gbuffer!;
        const gbuffer_state = gbuffer.device_state(device);
        const compute = this.#compute;
        // (on the compute path the still pass wrote them this frame)
        if (!compute) device.queue.writeBuffer(state.params, 0, this.#previous_jitter);

        this.#colors[0] = compute ? resources.color_attachment(this.#velocity) : resources.color_attachment(this.#velocity, VelocityStep.#still);
        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#depth);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setBindGroup(3, state.params_group);
        if (!compute) {
            pass.setPipeline(state.static_pipeline);
            pass.setBindGroup(0, static_group(device, state, this.#keys, this.#camera!, resources.view(this.#depth)));
            pass.setBindGroup(1, state.empty_group);
            pass.setBindGroup(2, state.empty_group);
            pass.draw(3);
        }
        pass.setBindGroup(SKINNED_VERTICES_GROUP, state.no_skinned_vertices);
        const list = gbuffer.draw_list;
        if (this.#meshes) {
            const indirect = gbuffer.indirect(device);
            const group = gbuffer_state.scene_group!;
            if (gbuffer.bundles) {
                // the static runs replayed from bundles, as the G-buffer's: the frozen part's (only in frames where
                // one of them moved) and the rest's, apart, so that neither is recorded again when the other comes
                // and goes
                const r = this.#recording;
                r.list = list;
                r.gbuffer_state = gbuffer_state;
                r.state = state;
                r.group = group;
                r.indirect = indirect;
                const frozen = list.frozen_runs;
                if (list.still_runs === 0 && frozen > 0) this.#replay(device, pass, state.frozen_bundle, 0, frozen);
                this.#replay(device, pass, state.bundle, frozen, list.opaque_run_count);
                if (state.bundle.key.skinned_count > 0) {
                    pass.setBindGroup(0, group);
                    pass.setBindGroup(SKINNED_VERTICES_GROUP, state.no_skinned_vertices);
                    pass.setBindGroup(3, state.params_group);
                    draw_runs(pass, gbuffer_state, list.opaque_runs, list.opaque_run_count, "previous", state.mesh_pipelines, "skinned", list.still_runs, indirect, state.pulled_pipelines);
                }
            } else {
                pass.setBindGroup(0, group);
                draw_runs(pass, gbuffer_state, list.opaque_runs, list.opaque_run_count, "previous", state.mesh_pipelines, "all", list.still_runs, indirect, state.pulled_pipelines);
            }
        }
        pass.end();
    }

    /** @internal The compute path's still world: every pixel's depth reprojected, into the target as storage. */
    execute_still(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state_for(device);
        device.queue.writeBuffer(state.params, 0, this.#previous_jitter);
        const still = (state.still ??= build_still(device));
        const keys = this.#still_keys;
        keys[0] = this.#camera;
        keys[1] = resources.view(this.#depth);
        keys[2] = resources.view(this.#still_target);
        let group = still.groups.find(keys);
        if (group === null) {
            // a miss: the first frames, a resize, a new device
            group = still.groups.add(
                keys,
                device.createBindGroup({
                    label: "velocity / still bind group",
                    layout: still.pipeline.getBindGroupLayout(0),
                    entries: [
                        { binding: 0, resource: { buffer: this.#camera! } },
                        { binding: 1, resource: keys[1] as GPUTextureView },
                        { binding: 2, resource: keys[2] as GPUTextureView },
                        { binding: 3, resource: { buffer: state.params } },
                    ],
                }),
            );
        }
        const size = resources.descriptor(this.#still_target);
        this.#still_descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginComputePass(this.#still_descriptor);
        pass.setPipeline(still.pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups((size.width + 7) >> 3, (size.height + 7) >> 3);
        pass.end();
    }

    // the static runs from `start` to `count` from `bundle` (recorded again when their key moved)
    #replay(device: GPUDevice, pass: GPURenderPassEncoder, bundle: RunBundle, start: number, count: number): void {
        const r = this.#recording;
        r.start = start;
        r.count = count;
        const changed = bundle.key.update(r.gbuffer_state!, r.list!.opaque_runs, count, one_variant, r.group!, r.state!.mesh_pipelines, r.indirect, start);
        bundle.execute(device, pass, changed, BUNDLE_ENCODER, r, record_static_runs);
    }

    #state_for(device: GPUDevice): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            const gbuffer_state = this.#gbuffer!.device_state(device);
            state = build_state(device, gbuffer_state.scene_layout, gbuffer_state.materials.layout);
            this.#per_device.set(device, state);
        }
        return state;
    }
}

/** What `record_static_runs` draws: the static runs from `still_runs` on, with their motion. */
interface VelocityRecording {
    list: MeshDrawList | null;
    gbuffer_state: ReturnType<GBufferStep["device_state"]> | null;
    state: DeviceState | null;
    group: GPUBindGroup | null;
    indirect: GPUBuffer | null;
    start: number;
    count: number;
}

const BUNDLE_ENCODER: GPURenderBundleEncoderDescriptor = {
    label: "velocity static draws",
    colorFormats: [VELOCITY_FORMAT],
    depthStencilFormat: GBUFFER_FORMATS.depth,
    // the pass reads the G-buffer's depth: a read-only attachment
    depthReadOnly: true,
    stencilReadOnly: true,
};

// one pipeline draws every run's motion: the variant does not matter
function one_variant(): number {
    return 0;
}

function record_static_runs(r: VelocityRecording, encoder: GPURenderBundleEncoder): void {
    const state = r.state!;
    const list = r.list!;
    encoder.setBindGroup(0, r.group!);
    encoder.setBindGroup(SKINNED_VERTICES_GROUP, state.no_skinned_vertices);
    encoder.setBindGroup(3, state.params_group);
    draw_runs(encoder, r.gbuffer_state!, list.opaque_runs, r.count, "previous", state.mesh_pipelines, "static", r.start, r.indirect);
}

function build_still(device: GPUDevice): { pipeline: GPUComputePipeline; groups: BindGroupCache } {
    const module = device.createShaderModule({ label: "velocity / still shader", code: VELOCITY_STILL_WGSL });
    return {
        pipeline: device.createComputePipeline({ label: "velocity / still pipeline", layout: "auto", compute: { module, entryPoint: "cs_still" } }),
        groups: new BindGroupCache(8),
    };
}

function execute_still(step: VelocityStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute_still(resources, execution);
}

function execute_velocity(step: VelocityStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}

function static_group(device: GPUDevice, state: DeviceState, keys: unknown[], camera: GPUBuffer, depth: GPUTextureView): GPUBindGroup {
    keys[0] = camera;
    keys[1] = depth;
    const cached = state.static_groups.find(keys);
    if (cached !== null) return cached;
    // a miss: the first frames, a resize, a new device
    const group = device.createBindGroup({
        label: "velocity static bind group",
        layout: state.static_layout,
        entries: [
            { binding: 0, resource: { buffer: camera } },
            { binding: 1, resource: depth },
        ],
    });
    return state.static_groups.add(keys, group);
}

function build_state(device: GPUDevice, scene_layout: GPUBindGroupLayout, material_layout: GPUBindGroupLayout): DeviceState {
    const uniform: GPUBindGroupLayoutEntry = { binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } };
    const params_layout = device.createBindGroupLayout({ label: "velocity params bind group layout", entries: [uniform] });
    const static_layout = device.createBindGroupLayout({
        label: "velocity static bind group layout",
        entries: [uniform, { binding: 1, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "depth" } }],
    });
    const empty_layout = device.createBindGroupLayout({ label: "velocity empty bind group layout", entries: [] });
    const layout = device.createPipelineLayout({
        label: "velocity pipeline layout",
        bindGroupLayouts: [scene_layout, material_layout, skinned_vertices_layout(device), params_layout],
    });
    const static_pipeline_layout = device.createPipelineLayout({
        label: "velocity static pipeline layout",
        bindGroupLayouts: [static_layout, empty_layout, empty_layout, params_layout],
    });
    const module = device.createShaderModule({ label: "velocity shader", code: VELOCITY_WGSL });
    const depthStencil: GPUDepthStencilState = { format: GBUFFER_FORMATS.depth, depthWriteEnabled: false, depthCompare: "less-equal" };
    const targets: GPUColorTargetState[] = [{ format: VELOCITY_FORMAT }];
    const mesh_pipeline = device.createRenderPipeline({
        label: "velocity mesh pipeline",
        layout,
        vertex: { module, entryPoint: "vs_velocity", buffers: MESH_VERTEX_BUFFERS_WITH_PREVIOUS },
        fragment: { module, entryPoint: "fs_velocity", targets },
        primitive: { topology: "triangle-list", cullMode: "back", frontFace: "ccw" },
        depthStencil,
    });
    const pulled_pipeline = device.createRenderPipeline({
        label: "velocity mesh pipeline (skin batch)",
        layout,
        vertex: { module, entryPoint: "vs_velocity_pulled" },
        fragment: { module, entryPoint: "fs_velocity", targets },
        primitive: { topology: "triangle-list", cullMode: "back", frontFace: "ccw" },
        depthStencil,
    });
    const static_pipeline = device.createRenderPipeline({
        label: "velocity static pipeline",
        layout: static_pipeline_layout,
        vertex: { module, entryPoint: "vs_static" },
        fragment: { module, entryPoint: "fs_static", targets },
        primitive: { topology: "triangle-list" },
        depthStencil: { format: GBUFFER_FORMATS.depth, depthWriteEnabled: false, depthCompare: "always" },
    });
    const params = device.createBuffer({ label: "velocity params", size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const params_group = device.createBindGroup({
        label: "velocity params bind group",
        layout: params_layout,
        entries: [{ binding: 0, resource: { buffer: params } }],
    });
    return {
        mesh_pipeline,
        mesh_pipelines: [mesh_pipeline],
        pulled_pipelines: [pulled_pipeline],
        bundle: new RunBundle("velocity static draws"),
        frozen_bundle: new RunBundle("velocity frozen draws"),
        static_pipeline,
        static_layout,
        params,
        params_group,
        static_groups: new BindGroupCache(8),
        empty_group: device.createBindGroup({ label: "velocity empty bind group", layout: empty_layout, entries: [] }),
        no_skinned_vertices: empty_skinned_vertices(device),
        still: null,
    };
}
