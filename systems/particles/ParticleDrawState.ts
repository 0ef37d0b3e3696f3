import { BindGroupCache } from "../../shade/device/BindGroupCache.js";
import { CAMERA_BYTES } from "../../shade/renderer/scene/Camera.js";
import type { ParticleDeviceState } from "./ParticleRuntime.js";
import { PARTICLE_COMPOSITE_WGSL, PARTICLE_RENDER_WGSL, PARTICLE_SPLAT_RESOLVE_WGSL, PARTICLE_SPLAT_WGSL, RENDER_PARAMS_BYTES } from "./particle_render.wgsl.js";

/** @internal The alpha particles' weighted blended OIT targets: accumulation and revealage. */
export const ACCUM_FORMAT: GPUTextureFormat = "rgba16float";
/** @internal */
export const REVEALAGE_FORMAT: GPUTextureFormat = "r16float";

const ADDITIVE: GPUBlendState = {
    color: { srcFactor: "one", dstFactor: "one", operation: "add" },
    alpha: { srcFactor: "zero", dstFactor: "one", operation: "add" },
};
const ACCUMULATE: GPUBlendState = {
    color: { srcFactor: "one", dstFactor: "one", operation: "add" },
    alpha: { srcFactor: "one", dstFactor: "one", operation: "add" },
};
const REVEAL: GPUBlendState = {
    color: { srcFactor: "zero", dstFactor: "one-minus-src", operation: "add" },
    alpha: { srcFactor: "zero", dstFactor: "one-minus-src-alpha", operation: "add" },
};
// colour * (1 - revealage) + scene * revealage; the scene's alpha kept
const COMPOSITE: GPUBlendState = {
    color: { srcFactor: "one-minus-src-alpha", dstFactor: "src-alpha", operation: "add" },
    alpha: { srcFactor: "zero", dstFactor: "one", operation: "add" },
};

/** @internal GPU objects of the particle draw on one device and one pair of formats. */
export interface ParticleDrawState {
    readonly device: GPUDevice;
    readonly particles: ParticleDeviceState;
    readonly color_format: GPUTextureFormat;
    readonly depth_format: GPUTextureFormat;
    readonly layout: GPUBindGroupLayout;
    readonly composite_layout: GPUBindGroupLayout;
    readonly additive: GPURenderPipeline;
    readonly accumulate: GPURenderPipeline;
    readonly composite: GPURenderPipeline;
    readonly render_params: GPUBuffer;
    readonly groups: BindGroupCache;
    readonly composite_groups: BindGroupCache;
    readonly splat_layout: GPUBindGroupLayout;
    readonly splat: GPUComputePipeline;
    readonly resolve_layout: GPUBindGroupLayout;
    readonly resolve: GPURenderPipeline;
    readonly splat_groups: BindGroupCache;
    /** The splat's fixed-point RGB per pixel (grown to the resolution; zero between frames). */
    accumulation: GPUBuffer | null;
    atlas_version: number;
}

/** @internal Builds the draw's pipelines, layouts and uniforms on `device` for one pair of target formats. */
export function build_particle_draw_state(device: GPUDevice, particles: ParticleDeviceState, color_format: GPUTextureFormat, depth_format: GPUTextureFormat): ParticleDrawState {
    const V = GPUShaderStage.VERTEX;
    const F = GPUShaderStage.FRAGMENT;
    const layout = device.createBindGroupLayout({
        label: "particles: draw bind group layout",
        entries: [
            { binding: 0, visibility: V | F, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
            { binding: 1, visibility: V, buffer: { type: "read-only-storage" } },
            { binding: 2, visibility: V, buffer: { type: "read-only-storage" } },
            { binding: 3, visibility: V, buffer: { type: "read-only-storage" } },
            { binding: 4, visibility: V, buffer: { type: "uniform" } },
            { binding: 5, visibility: F, texture: { sampleType: "float" } },
            { binding: 6, visibility: F, sampler: { type: "filtering" } },
            { binding: 7, visibility: F, texture: { sampleType: "depth" } },
        ],
    });
    const composite_layout = device.createBindGroupLayout({
        label: "particles: composite bind group layout",
        entries: [
            { binding: 0, visibility: F, texture: { sampleType: "unfilterable-float" } },
            { binding: 1, visibility: F, texture: { sampleType: "unfilterable-float" } },
            { binding: 2, visibility: F, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
            { binding: 3, visibility: F, buffer: { type: "read-only-storage" } },
        ],
    });
    const module = device.createShaderModule({ label: "particles: billboard shader", code: PARTICLE_RENDER_WGSL });
    const composite_module = device.createShaderModule({ label: "particles: composite shader", code: PARTICLE_COMPOSITE_WGSL });
    const pipeline_layout = device.createPipelineLayout({ label: "particles: draw pipeline layout", bindGroupLayouts: [layout] });
    const depth_stencil: GPUDepthStencilState = { format: depth_format, depthWriteEnabled: false, depthCompare: "less" };
    const primitive: GPUPrimitiveState = { topology: "triangle-list", cullMode: "none" };
    const additive = device.createRenderPipeline({
        label: `particles: additive pipeline (${color_format}, ${depth_format})`,
        layout: pipeline_layout,
        vertex: { module, entryPoint: "vs_billboard", constants: { ALPHA: 0 } },
        fragment: { module, entryPoint: "fs_additive", targets: [{ format: color_format, blend: ADDITIVE }] },
        primitive,
        depthStencil: depth_stencil,
    });
    const accumulate = device.createRenderPipeline({
        label: `particles: accumulate pipeline (${depth_format})`,
        layout: pipeline_layout,
        vertex: { module, entryPoint: "vs_billboard", constants: { ALPHA: 1 } },
        fragment: {
            module,
            entryPoint: "fs_accumulate",
            targets: [
                { format: ACCUM_FORMAT, blend: ACCUMULATE },
                { format: REVEALAGE_FORMAT, blend: REVEAL },
            ],
        },
        primitive,
        depthStencil: depth_stencil,
    });
    const composite = device.createRenderPipeline({
        label: `particles: composite pipeline (${color_format})`,
        layout: device.createPipelineLayout({ label: "particles: composite pipeline layout", bindGroupLayouts: [composite_layout] }),
        vertex: { module: composite_module, entryPoint: "vs_fullscreen" },
        fragment: { module: composite_module, entryPoint: "fs_composite", targets: [{ format: color_format, blend: COMPOSITE }] },
        primitive: { topology: "triangle-list" },
    });
    const splat_layout = device.createBindGroupLayout({
        label: "particles: splat bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
            { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
            { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
            { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
            { binding: 4, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
            { binding: 5, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
            { binding: 6, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: "depth" } },
            { binding: 7, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
        ],
    });
    const splat_module = device.createShaderModule({ label: "particles: splat shader", code: PARTICLE_SPLAT_WGSL });
    const splat = device.createComputePipeline({
        label: "particles: splat pipeline",
        layout: device.createPipelineLayout({ label: "particles: splat pipeline layout", bindGroupLayouts: [splat_layout] }),
        compute: { module: splat_module, entryPoint: "cs_splat" },
    });
    const resolve_layout = device.createBindGroupLayout({
        label: "particles: splat resolve bind group layout",
        entries: [
            { binding: 0, visibility: F, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
            { binding: 1, visibility: F, buffer: { type: "read-only-storage" } },
        ],
    });
    const resolve_module = device.createShaderModule({ label: "particles: splat resolve shader", code: PARTICLE_SPLAT_RESOLVE_WGSL });
    const resolve = device.createRenderPipeline({
        label: `particles: splat resolve pipeline (${color_format})`,
        layout: device.createPipelineLayout({ label: "particles: splat resolve pipeline layout", bindGroupLayouts: [resolve_layout] }),
        vertex: { module: resolve_module, entryPoint: "vs_fullscreen" },
        fragment: { module: resolve_module, entryPoint: "fs_splat_resolve", targets: [{ format: color_format, blend: ADDITIVE }] },
        primitive: { topology: "triangle-list" },
    });
    const render_params = device.createBuffer({
        label: "particles: draw uniforms",
        size: RENDER_PARAMS_BYTES,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    return {
        device,
        particles,
        color_format,
        depth_format,
        layout,
        composite_layout,
        additive,
        accumulate,
        composite,
        render_params,
        groups: new BindGroupCache(8),
        composite_groups: new BindGroupCache(8),
        splat_layout,
        splat,
        resolve_layout,
        resolve,
        splat_groups: new BindGroupCache(8),
        accumulation: null,
        atlas_version: -1,
    };
}
