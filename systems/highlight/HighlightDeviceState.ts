import { BindGroupCache } from "../../shade/device/BindGroupCache.js";
import { HIGHLIGHT_COMPOSITE_WGSL, HIGHLIGHT_FLOOD_WGSL, HIGHLIGHT_SEED_WGSL, STEP_STRIDE } from "./highlight.wgsl.js";

/** @internal Most flood passes: steps 256 .. 1. */
export const MAX_STEPS = 9;
/** @internal The seed textures' format: the seed's packed pixel and its entry's index. */
export const SEED_FORMAT: GPUTextureFormat = "rg32uint";

const PREMULTIPLIED_OVER: GPUBlendState = {
    color: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
    alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
};

/** @internal A highlight extension's GPU objects on one device. */
export interface HighlightDeviceState {
    readonly device: GPUDevice;
    readonly seed_layout: GPUBindGroupLayout;
    readonly flood_layout: GPUBindGroupLayout;
    readonly composite_layout: GPUBindGroupLayout;
    readonly seed_pipeline: GPURenderPipeline;
    readonly flood_pipeline: GPURenderPipeline;
    readonly composite_module: GPUShaderModule;
    readonly composite_pipeline_layout: GPUPipelineLayout;
    readonly composites: { format: GPUTextureFormat; pipeline: GPURenderPipeline }[];
    readonly steps: GPUBuffer;
    readonly seed_params: GPUBuffer;
    readonly pick_buffer: GPUBuffer;
    entries: GPUBuffer;
    readonly groups: BindGroupCache;
}

/** @internal The layouts, seed and flood pipelines and buffers; `entries_size` bytes of entry buffer to start. */
export function build_highlight_state(device: GPUDevice, entries_size: number): HighlightDeviceState {
    const frag = GPUShaderStage.FRAGMENT;
    const seed_layout = device.createBindGroupLayout({
        label: "highlight seed bind group layout",
        entries: [
            { binding: 0, visibility: frag, texture: { sampleType: "uint" } },
            { binding: 1, visibility: frag, buffer: { type: "read-only-storage" } },
            { binding: 2, visibility: frag, buffer: { type: "uniform" } },
        ],
    });
    const flood_layout = device.createBindGroupLayout({
        label: "highlight flood bind group layout",
        entries: [
            { binding: 0, visibility: frag, texture: { sampleType: "uint" } },
            { binding: 1, visibility: frag, buffer: { type: "uniform", hasDynamicOffset: true, minBindingSize: 16 } },
        ],
    });
    const composite_layout = device.createBindGroupLayout({
        label: "highlight composite bind group layout",
        entries: [
            { binding: 0, visibility: frag, texture: { sampleType: "uint" } },
            { binding: 1, visibility: frag, texture: { sampleType: "uint" } },
            { binding: 2, visibility: frag, buffer: { type: "read-only-storage" } },
        ],
    });
    const fullscreen = (label: string, code: string, layout: GPUBindGroupLayout): GPURenderPipeline => {
        const module = device.createShaderModule({ label: `${label} shader`, code });
        return device.createRenderPipeline({
            label: `${label} pipeline`,
            layout: device.createPipelineLayout({ label: `${label} pipeline layout`, bindGroupLayouts: [layout] }),
            vertex: { module, entryPoint: "vs_fullscreen" },
            fragment: { module, entryPoint: "fs_main", targets: [{ format: SEED_FORMAT }] },
            primitive: { topology: "triangle-list" },
        });
    };
    const steps = device.createBuffer({ label: "highlight flood steps", size: STEP_STRIDE * MAX_STEPS, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const step_values = new Int32Array((STEP_STRIDE / 4) * MAX_STEPS);
    for (let level = 0; level < MAX_STEPS; level++) step_values[(level * STEP_STRIDE) / 4] = 1 << level;
    device.queue.writeBuffer(steps, 0, step_values);
    return {
        device,
        seed_layout,
        flood_layout,
        composite_layout,
        seed_pipeline: fullscreen("highlight seed", HIGHLIGHT_SEED_WGSL, seed_layout),
        flood_pipeline: fullscreen("highlight flood", HIGHLIGHT_FLOOD_WGSL, flood_layout),
        composite_module: device.createShaderModule({ label: "highlight composite shader", code: HIGHLIGHT_COMPOSITE_WGSL }),
        composite_pipeline_layout: device.createPipelineLayout({ label: "highlight composite pipeline layout", bindGroupLayouts: [composite_layout] }),
        composites: [],
        steps,
        seed_params: device.createBuffer({ label: "highlight seed params", size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
        pick_buffer: device.createBuffer({ label: "highlight pick read-back", size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
        entries: device.createBuffer({ label: "highlight entries", size: entries_size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }),
        groups: new BindGroupCache(32),
    };
}

/** @internal The composite pipeline drawing over `format`, made the first time that format is drawn to. */
export function highlight_composite_pipeline(state: HighlightDeviceState, format: GPUTextureFormat): GPURenderPipeline {
    const list = state.composites;
    for (let i = 0; i < list.length; i++) if (list[i].format === format) return list[i].pipeline;
    const pipeline = state.device.createRenderPipeline({
        label: `highlight composite pipeline (${format})`,
        layout: state.composite_pipeline_layout,
        vertex: { module: state.composite_module, entryPoint: "vs_fullscreen" },
        fragment: { module: state.composite_module, entryPoint: "fs_main", targets: [{ format, blend: PREMULTIPLIED_OVER }] },
        primitive: { topology: "triangle-list" },
    });
    list.push({ format, pipeline });
    return pipeline;
}

/** @internal Destroys the state's buffers; `pick_in_flight`: the pick read-back is left to the read that maps it. */
export function destroy_highlight_buffers(state: HighlightDeviceState, pick_in_flight: boolean): void {
    state.steps.destroy();
    state.seed_params.destroy();
    state.entries.destroy();
    if (!pick_in_flight) state.pick_buffer.destroy();
}
