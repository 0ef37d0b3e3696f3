import { CAMERA_BYTES } from "../scene/Camera.js";
import type { DynamicBuffer } from "./DynamicBuffer.js";
import { DYNAMIC_MESH_WGSL, MESH_RECORD_BYTES } from "./dynamic_mesh.wgsl.js";

interface PipelineEntry {
    readonly color_format: GPUTextureFormat;
    readonly depth_format: GPUTextureFormat;
    readonly pipeline: GPURenderPipeline;
}

interface BindGroupEntry {
    readonly camera: GPUBuffer;
    readonly group: GPUBindGroup;
}

const MAX_BIND_GROUPS = 8;

const PREMULTIPLIED_OVER: GPUBlendState = {
    color: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
    alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
};

/**
 * The GPU objects of `GPUDynamicMeshRenderer` on one device: the shader, the layouts, a pipeline per (colour
 * format, depth format) and bind groups per camera buffer, rebuilt only when a buffer they bind was replaced
 * (the pool's regions or the mesh table grew or shrank). Buffers themselves live in `DynamicBuffer`s.
 */
export class DynamicMeshPipelines {
    readonly device: GPUDevice;
    readonly #label: string;
    readonly #cull_mode: GPUCullMode;
    readonly #module: GPUShaderModule;
    readonly #bind_group_layout: GPUBindGroupLayout;
    readonly #pipeline_layout: GPUPipelineLayout;
    readonly #pipelines: PipelineEntry[] = [];
    readonly #bind_groups: BindGroupEntry[] = [];
    #attribute_generation = -1;
    #position_generation = -1;
    #mesh_generation = -1;

    constructor(device: GPUDevice, label: string, cull_mode: GPUCullMode) {
        this.device = device;
        this.#label = label;
        this.#cull_mode = cull_mode;
        this.#module = device.createShaderModule({ label: `${label} shader`, code: DYNAMIC_MESH_WGSL });
        const V = GPUShaderStage.VERTEX;
        this.#bind_group_layout = device.createBindGroupLayout({
            label: `${label} bind group layout`,
            entries: [
                { binding: 0, visibility: V, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
                { binding: 1, visibility: V, buffer: { type: "read-only-storage" } },
                { binding: 2, visibility: V, buffer: { type: "read-only-storage", minBindingSize: MESH_RECORD_BYTES } },
                { binding: 3, visibility: V, buffer: { type: "read-only-storage" } },
            ],
        });
        this.#pipeline_layout = device.createPipelineLayout({ label: `${label} pipeline layout`, bindGroupLayouts: [this.#bind_group_layout] });
    }

    /** The pipeline drawing into `color_format` over `depth_format`, built on first use. */
    pipeline(color_format: GPUTextureFormat, depth_format: GPUTextureFormat): GPURenderPipeline {
        const pipelines = this.#pipelines;
        for (let i = 0; i < pipelines.length; i++) {
            const entry = pipelines[i];
            if (entry.color_format === color_format && entry.depth_format === depth_format) return entry.pipeline;
        }
        const pipeline = this.device.createRenderPipeline({
            label: `${this.#label} pipeline (${color_format}, ${depth_format})`,
            layout: this.#pipeline_layout,
            vertex: { module: this.#module, entryPoint: "vs_main" },
            fragment: {
                module: this.#module,
                entryPoint: "fs_main",
                targets: [{ format: color_format, blend: PREMULTIPLIED_OVER }],
            },
            primitive: { topology: "triangle-list", cullMode: this.#cull_mode, frontFace: "ccw" },
            depthStencil: { format: depth_format, depthWriteEnabled: false, depthCompare: "less" },
        });
        pipelines.push({ color_format, depth_format, pipeline });
        return pipeline;
    }

    /** The bind group of `camera` over the flushed buffers; rebuilt when one of them was replaced. */
    bind_group(camera: GPUBuffer, attributes: DynamicBuffer, positions: DynamicBuffer, meshes: DynamicBuffer): GPUBindGroup {
        const groups = this.#bind_groups;
        if (
            this.#attribute_generation !== attributes.generation ||
            this.#position_generation !== positions.generation ||
            this.#mesh_generation !== meshes.generation
        ) {
            groups.length = 0;
            this.#attribute_generation = attributes.generation;
            this.#position_generation = positions.generation;
            this.#mesh_generation = meshes.generation;
        }
        for (let i = 0; i < groups.length; i++) if (groups[i].camera === camera) return groups[i].group;
        if (groups.length >= MAX_BIND_GROUPS) groups.length = 0;
        const group = this.device.createBindGroup({
            label: `${this.#label} bind group`,
            layout: this.#bind_group_layout,
            entries: [
                { binding: 0, resource: { buffer: camera, size: CAMERA_BYTES } },
                { binding: 1, resource: { buffer: attributes.buffer! } },
                { binding: 2, resource: { buffer: meshes.buffer! } },
                { binding: 3, resource: { buffer: positions.buffer! } },
            ],
        });
        groups.push({ camera, group });
        return group;
    }
}
