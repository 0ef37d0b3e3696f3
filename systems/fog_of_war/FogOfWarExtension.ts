import { BindGroupCache } from "../../shade/device/BindGroupCache.js";
import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension, type RenderExtensionOwner, type RenderExtensionClass } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";
import { CAMERA_BYTES } from "../../shade/renderer/scene/Camera.js";
import { HighlightExtension } from "../highlight/HighlightExtension.js";
import { ParticleExtension } from "../particles/ParticleExtension.js";
import { PathDisplayExtension } from "../path_display/PathDisplayExtension.js";
import { Trail3DExtension } from "../trails/Trail3DExtension.js";
import { FOG_OF_WAR_RASTER_WGSL, FOG_PARAMS_FLOATS, fog_of_war_compute_wgsl } from "./fog_of_war.wgsl.js";
import { is_storage_format, use_compute } from "../../shade/renderer/fullscreen/FullscreenPath.js";
import { TextureResourceDescriptor } from "../../shade/device/graph/TextureResourceDescriptor.js";
import type { FogGrid } from "./FogGrid.js";
import { VisibilityGrid } from "./VisibilityGrid.js";

/** What the fog pass reads from its system; the owner named in errors. */
export interface FogSource extends RenderExtensionOwner {
    readonly grid: FogGrid;
    readonly explored_brightness: number;
    readonly hidden_brightness: number;
    readonly blur: number;
}

interface FogData {
    camera: GPUBuffer | null;
    depth: FrameGraphHandle;
    grid: FrameGraphHandle;
    output: FrameGraphHandle;
    /** The scene colour read by the compute path (-1 on the raster path, which blends onto it). */
    input: FrameGraphHandle;
    format: GPUTextureFormat;
}

interface PipelineEntry {
    readonly format: GPUTextureFormat;
    readonly pipeline: GPURenderPipeline;
}

interface ComputeEntry {
    readonly format: GPUTextureFormat;
    readonly pipeline: GPUComputePipeline;
    readonly layout: GPUBindGroupLayout;
}

const STORAGE_BINDING = 0x08;

interface DeviceState {
    readonly device: GPUDevice;
    readonly module: GPUShaderModule;
    readonly layout: GPUBindGroupLayout;
    readonly pipeline_layout: GPUPipelineLayout;
    readonly params: GPUBuffer;
    readonly sampler: GPUSampler;
    readonly pipelines: PipelineEntry[];
    readonly compute_pipelines: ComputeEntry[];
    readonly groups: BindGroupCache;
    readonly compute_groups: BindGroupCache;
}

/** result = scene * brightness: the fog only ever darkens. */
const MULTIPLY: GPUBlendState = {
    color: { srcFactor: "zero", dstFactor: "src", operation: "add" },
    alpha: { srcFactor: "zero", dstFactor: "one", operation: "add" },
};

/**
 * Darkens the scene colour by the frame's `VisibilityGrid` at AfterTransparency, after everything drawn into
 * the scene (the seed's order: after highlight, particles, path display and trails, so none of them shows
 * through the fog). One full-screen pass, "fog of war / apply" (compute on GPUs, writing a darkened copy of the
 * scene colour; a multiply-blend on CPU implementations: the rule of `FullscreenPath`): each pixel's world position is rebuilt from
 * `ViewTextures.depth` with the camera's inverse view-projection and looked up in the grid (bilinear, blurred
 * over `blur` cells); visible cells keep the scene, explored ones keep `explored_brightness` of it, hidden
 * ones `hidden_brightness`. Where nothing was drawn the view ray's point on the plane y = 0 stands in
 * (so an outline drawn past a unit's silhouette onto the clear colour is fogged like the ground); the sky
 * above the horizon is left as it is. With no `VisibilityGrid` this frame it records nothing.
 */
export class FogOfWarExtension extends RenderExtension {
    name = "fog of war";
    phase = FramePhase.AfterTransparency;
    override after: readonly RenderExtensionClass[] = [HighlightExtension, ParticleExtension, PathDisplayExtension, Trail3DExtension];

    readonly #source: FogSource;
    #state: DeviceState | null = null;
    #destroyed = false;
    readonly #params = new Float32Array(FOG_PARAMS_FLOATS);
    readonly #data: FogData = { camera: null, depth: -1, grid: -1, output: -1, input: -1, format: "rgba16float" };
    readonly #execute: (data: FogData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #attachments: GPURenderPassColorAttachment[] = [];
    readonly #pass: GPURenderPassDescriptor = { label: "fog of war / apply", colorAttachments: this.#attachments };
    readonly #keys: unknown[] = [null, null, null];
    readonly #compute_keys: unknown[] = [null, null, null, null, null];
    readonly #compute_pass: GPUComputePassDescriptor = { label: "fog of war / apply (compute)" };

    constructor(source: FogSource) {
        super(source);
        this.#source = source;
        this.#execute = (data, resources, execution) => this.#encode(data, resources, execution);
    }

    override record(frame: FrameContext): void {
        if (this.#destroyed) throw new Error("FogOfWarExtension 'fog of war' used after destroy(); start the FogOfWarSystem up again");
        if (!frame.has(VisibilityGrid)) return;
        const graph = frame.graph;
        const scene = frame.get(SceneColor);
        const data = this.#data;
        data.camera = frame.view.camera.buffer;
        const d = graph.describe(scene.color);
        data.format = d.format;
        // compute where the device class runs it faster and the scene colour can be a storage texture: the pass
        // writes a darkened copy; else a multiply-blend onto the scene colour
        const device = frame.device;
        const compute = (d.usage & STORAGE_BINDING) !== 0 && use_compute(device, "auto") && is_storage_format(device, d.format);
        const builder = graph.add("fog of war / apply", data, this.#execute);
        data.grid = builder.read(frame.get(VisibilityGrid).grid);
        data.depth = builder.read(frame.get(ViewTextures).depth);
        if (compute) {
            data.input = builder.read(scene.color);
            data.output = builder.write(graph.create("fogged scene colour", TextureResourceDescriptor.of(d.width, d.height, d.format, d.usage)));
        } else {
            data.input = -1;
            data.output = builder.write(scene.color, "load");
        }
        scene.color = data.output;
    }

    override destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        this.#state?.params.destroy();
        this.#state = null;
        this.#data.camera = null;
        this.#attachments.length = 0;
    }

    #encode(data: FogData, resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#device_state(device);
        const source = this.#source;
        const grid = source.grid;
        const p = this.#params;
        p[0] = grid.min_x;
        p[1] = grid.min_z;
        p[2] = 1 / (grid.max_x - grid.min_x);
        p[3] = 1 / (grid.max_z - grid.min_z);
        p[4] = source.blur / grid.width;
        p[5] = source.blur / grid.height;
        p[6] = source.hidden_brightness;
        p[7] = source.explored_brightness;
        p[8] = grid.explored_level;
        device.queue.writeBuffer(state.params, 0, p);
        const depth = resources.view(data.depth);
        const grid_view = resources.view(data.grid);
        if (data.input !== -1) {
            this.#encode_compute(data, resources, execution, state, depth, grid_view);
            return;
        }
        const keys = this.#keys;
        keys[0] = data.camera;
        keys[1] = depth;
        keys[2] = grid_view;
        const group = this.#group(state, state.groups, state.layout, keys, "fog of war bind group", data.camera!);
        this.#attachments[0] = resources.color_attachment(data.output);
        this.#pass.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#pass);
        pass.setPipeline(this.#pipeline(state, data.format));
        pass.setBindGroup(0, group);
        pass.draw(3);
        pass.end();
    }

    #encode_compute(data: FogData, resources: FrameGraphResources, execution: FrameExecution, state: DeviceState, depth: GPUTextureView, grid_view: GPUTextureView): void {
        const entry = this.#compute_pipeline(state, data.format);
        const input = resources.view(data.input);
        const output = resources.view(data.output);
        const keys = this.#compute_keys;
        keys[0] = data.camera;
        keys[1] = depth;
        keys[2] = grid_view;
        keys[3] = input;
        keys[4] = output;
        const group = this.#group(state, state.compute_groups, entry.layout, keys, "fog of war compute bind group", data.camera!);
        const size = resources.texture(data.output);
        this.#compute_pass.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginComputePass(this.#compute_pass);
        pass.setPipeline(entry.pipeline);
        pass.setBindGroup(0, group);
        // integer shifts: a double handed to the call would be boxed
        pass.dispatchWorkgroups((size.width + 7) >> 3, (size.height + 7) >> 3);
        pass.end();
    }

    // Bindings 0-4 from the keys (camera, depth, grid) and the state; the compute path's keys add the scene colour
    // and the output (bindings 5 and 6). Made on a miss only: new pooled textures, a resize.
    #group(state: DeviceState, cache: BindGroupCache, layout: GPUBindGroupLayout, keys: readonly unknown[], label: string, camera: GPUBuffer): GPUBindGroup {
        const cached = cache.find(keys);
        if (cached !== null) return cached;
        const entries: GPUBindGroupEntry[] = [
            { binding: 0, resource: { buffer: camera, size: CAMERA_BYTES } },
            { binding: 1, resource: { buffer: state.params } },
            { binding: 2, resource: keys[1] as GPUTextureView },
            { binding: 3, resource: keys[2] as GPUTextureView },
            { binding: 4, resource: state.sampler },
        ];
        for (let i = 3; i < keys.length; i++) entries.push({ binding: i + 2, resource: keys[i] as GPUTextureView });
        return cache.add(keys, state.device.createBindGroup({ label, layout, entries }));
    }

    #compute_pipeline(state: DeviceState, format: GPUTextureFormat): ComputeEntry {
        const entries = state.compute_pipelines;
        for (let i = 0; i < entries.length; i++) if (entries[i].format === format) return entries[i];
        const device = state.device;
        const stage = GPUShaderStage.COMPUTE;
        const layout = device.createBindGroupLayout({
            label: `fog of war compute bind group layout (${format})`,
            entries: [
                { binding: 0, visibility: stage, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
                { binding: 1, visibility: stage, buffer: { type: "uniform" } },
                { binding: 2, visibility: stage, texture: { sampleType: "depth" } },
                { binding: 3, visibility: stage, texture: { sampleType: "float" } },
                { binding: 4, visibility: stage, sampler: { type: "filtering" } },
                { binding: 5, visibility: stage, texture: { sampleType: "float" } },
                { binding: 6, visibility: stage, storageTexture: { access: "write-only", format } },
            ],
        });
        const pipeline = device.createComputePipeline({
            label: `fog of war compute pipeline (${format})`,
            layout: device.createPipelineLayout({ label: `fog of war compute pipeline layout (${format})`, bindGroupLayouts: [layout] }),
            compute: { module: device.createShaderModule({ label: `fog of war compute shader (${format})`, code: fog_of_war_compute_wgsl(format) }), entryPoint: "cs_main" },
        });
        const entry = { format, pipeline, layout };
        entries.push(entry);
        return entry;
    }

    #device_state(device: GPUDevice): DeviceState {
        const current = this.#state;
        if (current !== null && current.device === device) return current;
        current?.params.destroy();
        const layout = device.createBindGroupLayout({
            label: "fog of war bind group layout",
            entries: [
                { binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
                { binding: 1, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } },
                { binding: 2, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "depth" } },
                { binding: 3, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "float" } },
                { binding: 4, visibility: GPUShaderStage.FRAGMENT, sampler: { type: "filtering" } },
            ],
        });
        const state: DeviceState = {
            device,
            module: device.createShaderModule({ label: "fog of war shader", code: FOG_OF_WAR_RASTER_WGSL }),
            layout,
            pipeline_layout: device.createPipelineLayout({ label: "fog of war pipeline layout", bindGroupLayouts: [layout] }),
            params: device.createBuffer({ label: "fog of war params", size: FOG_PARAMS_FLOATS * 4, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
            sampler: device.createSampler({ label: "fog of war grid sampler", magFilter: "linear", minFilter: "linear", addressModeU: "clamp-to-edge", addressModeV: "clamp-to-edge" }),
            pipelines: [],
            compute_pipelines: [],
            groups: new BindGroupCache(16),
            compute_groups: new BindGroupCache(16),
        };
        this.#state = state;
        return state;
    }

    #pipeline(state: DeviceState, format: GPUTextureFormat): GPURenderPipeline {
        const pipelines = state.pipelines;
        for (let i = 0; i < pipelines.length; i++) if (pipelines[i].format === format) return pipelines[i].pipeline;
        const pipeline = state.device.createRenderPipeline({
            label: `fog of war pipeline (${format})`,
            layout: state.pipeline_layout,
            vertex: { module: state.module, entryPoint: "vs_fullscreen" },
            fragment: { module: state.module, entryPoint: "fs_main", targets: [{ format, blend: MULTIPLY }] },
            primitive: { topology: "triangle-list" },
        });
        pipelines.push({ format, pipeline });
        return pipeline;
    }
}
