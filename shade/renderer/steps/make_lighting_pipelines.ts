import { BindGroupCache } from "../../device/BindGroupCache.js";
import { environment_layout_entries } from "../environment/environment_wgsl.js";
import { shadow_layout_entries } from "../shadows/shadow_wgsl.js";

/** @internal Binding of the compute path's output (group 0), clear of the raster path's bindings. */
export const COMPUTE_OUTPUT_BINDING = 15;
/** @internal First of the scene environment's five bindings (16-20, `environment_bindings_wgsl`), past the compute output. */
export const ENVIRONMENT_BINDING = 16;
/** @internal The published `AmbientOcclusion` texture and its linear sampler (11, 12). */
export const AMBIENT_OCCLUSION_BINDING = 11;

/** @internal One lighting shader variant's GPU objects on a device. */
export interface LightingDeviceState {
    readonly pipeline: GPURenderPipeline;
    readonly layout: GPUBindGroupLayout;
    readonly groups: BindGroupCache;
    /** The compute path, built on its first frame (raster devices never build it). */
    compute: LightingComputeState | null;
    readonly shadowed: boolean;
    /** With the scene environment's bindings (after the shadow keys when shadowed). */
    readonly environment: boolean;
    /** With the frame's `AmbientOcclusion` (its two keys last). */
    readonly ambient_occlusion: boolean;
    readonly layout_entries: readonly GPUBindGroupLayoutEntry[];
    readonly shadow_sampler: GPUSampler | null;
    readonly ambient_occlusion_sampler: GPUSampler | null;
}

/** @internal The variant's index in the per-variant tables: shadowed 1, environment 2, ambient occlusion 4. */
export function variant_of(shadowed: boolean, environment: boolean, ambient_occlusion: boolean): number {
    return (shadowed ? 1 : 0) | (environment ? 2 : 0) | (ambient_occlusion ? 4 : 0);
}

/** @internal Bind group keys of a variant: bindings 0-6 and 10, then shadows (3), environment (5), ambient occlusion (2). */
export function key_count(variant: number): number {
    return 8 + ((variant & 1) !== 0 ? 3 : 0) + ((variant & 2) !== 0 ? 5 : 0) + ((variant & 4) !== 0 ? 2 : 0);
}

/** @internal The compute path of a lighting variant on a device. */
export interface LightingComputeState {
    readonly pipeline: GPUComputePipeline;
    readonly layout: GPUBindGroupLayout;
    // keyed like the raster groups plus the output's view last
    readonly groups: BindGroupCache;
    readonly keys: unknown[];
    readonly shadowed: boolean;
    readonly environment: boolean;
    readonly ambient_occlusion: boolean;
}

/** @internal Builds `state`'s compute path: `code` is its shader (`deferred_compute_wgsl`), writing `format`. */
export function make_lighting_compute(device: GPUDevice, state: LightingDeviceState, code: string, format: GPUTextureFormat): LightingComputeState {
    const label = `lighting (${state.shadowed ? "shadowed, " : ""}${state.environment ? "environment, " : ""}${state.ambient_occlusion ? "ambient occlusion, " : ""}compute)`;
    const entries: GPUBindGroupLayoutEntry[] = state.layout_entries.map((e) => ({ ...e, visibility: GPUShaderStage.COMPUTE }));
    entries.push({ binding: COMPUTE_OUTPUT_BINDING, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: "write-only", format } });
    const layout = device.createBindGroupLayout({ label: `${label} bind group layout`, entries });
    const module = device.createShaderModule({ label: `${label} shader`, code });
    const pipeline = device.createComputePipeline({
        label: `${label} pipeline`,
        layout: device.createPipelineLayout({ label: `${label} pipeline layout`, bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: "cs_main" },
    });
    return { pipeline, layout, groups: new BindGroupCache(), keys: [], shadowed: state.shadowed, environment: state.environment, ambient_occlusion: state.ambient_occlusion };
}

/** @internal The compute path's bind group of `keys` and the output view, cached. */
export function compute_group_for(device: GPUDevice, compute: LightingComputeState, keys: unknown[], output: GPUTextureView): GPUBindGroup {
    const all = compute.keys;
    all.length = keys.length + 1;
    for (let i = 0; i < keys.length; i++) all[i] = keys[i];
    all[keys.length] = output;
    const cached = compute.groups.find(all);
    if (cached !== null) return cached;
    const entries = group_entries(keys, compute.shadowed, compute.environment, compute.ambient_occlusion);
    entries.push({ binding: COMPUTE_OUTPUT_BINDING, resource: output });
    const group = device.createBindGroup({ label: "lighting bind group (compute)", layout: compute.layout, entries });
    return compute.groups.add(all, group);
}

/** @internal The raster path's bind group of `keys`, cached. */
export function group_for(device: GPUDevice, state: LightingDeviceState, keys: unknown[]): GPUBindGroup {
    const cached = state.groups.find(keys);
    if (cached !== null) return cached;
    const label = `lighting bind group${state.shadowed ? " (shadowed)" : ""}${state.environment ? " (environment)" : ""}${state.ambient_occlusion ? " (ambient occlusion)" : ""}`;
    const group = device.createBindGroup({ label, layout: state.layout, entries: group_entries(keys, state.shadowed, state.environment, state.ambient_occlusion) });
    return state.groups.add(keys, group);
}

/** The bind group entries of the raster path's keys (the compute path adds its output). */
function group_entries(keys: unknown[], shadowed: boolean, environment: boolean, ambient_occlusion: boolean): GPUBindGroupEntry[] {
    const entries: GPUBindGroupEntry[] = [
            { binding: 0, resource: { buffer: keys[0] as GPUBuffer } },
            { binding: 1, resource: { buffer: keys[1] as GPUBuffer } },
            { binding: 2, resource: keys[2] as GPUTextureView },
            { binding: 3, resource: keys[3] as GPUTextureView },
            { binding: 4, resource: keys[4] as GPUTextureView },
            { binding: 5, resource: keys[5] as GPUTextureView },
            { binding: 6, resource: { buffer: keys[6] as GPUBuffer } },
            { binding: 10, resource: keys[7] as GPUTextureView },
    ];
    if (shadowed) {
        entries.push(
            { binding: 7, resource: keys[8] as GPUTextureView },
            { binding: 8, resource: keys[9] as GPUSampler },
            { binding: 9, resource: { buffer: keys[10] as GPUBuffer } },
        );
    }
    if (environment) {
        const first = shadowed ? 11 : 8;
        entries.push(
            { binding: ENVIRONMENT_BINDING, resource: keys[first] as GPUTextureView },
            { binding: ENVIRONMENT_BINDING + 1, resource: keys[first + 1] as GPUTextureView },
            { binding: ENVIRONMENT_BINDING + 2, resource: keys[first + 2] as GPUTextureView },
            { binding: ENVIRONMENT_BINDING + 3, resource: keys[first + 3] as GPUSampler },
            { binding: ENVIRONMENT_BINDING + 4, resource: { buffer: keys[first + 4] as GPUBuffer } },
        );
    }
    if (ambient_occlusion) {
        const first = keys.length - 2;
        entries.push(
            { binding: AMBIENT_OCCLUSION_BINDING, resource: keys[first] as GPUTextureView },
            { binding: AMBIENT_OCCLUSION_BINDING + 1, resource: keys[first + 1] as GPUSampler },
        );
    }
    return entries;
}

/**
 * @internal Builds a variant's raster path (its layout, pipeline and samplers): `code` is its shader (`deferred_wgsl`),
 * writing `format`.
 */
export function make_lighting_state(device: GPUDevice, shadowed: boolean, environment: boolean, ambient_occlusion: boolean, code: string, format: GPUTextureFormat): LightingDeviceState {
    const F = GPUShaderStage.FRAGMENT;
    const variant = [shadowed ? "shadowed" : "", environment ? "environment" : "", ambient_occlusion ? "ambient occlusion" : ""].filter((v) => v !== "").join(", ");
    const label = variant === "" ? "lighting" : `lighting (${variant})`;
    const entries: GPUBindGroupLayoutEntry[] = [
            { binding: 0, visibility: F, buffer: { type: "uniform" } },
            { binding: 1, visibility: F, buffer: { type: "uniform" } },
            { binding: 2, visibility: F, texture: { sampleType: "unfilterable-float" } },
            { binding: 3, visibility: F, texture: { sampleType: "unfilterable-float" } },
            { binding: 4, visibility: F, texture: { sampleType: "uint" } },
            { binding: 5, visibility: F, texture: { sampleType: "depth" } },
            { binding: 6, visibility: F, buffer: { type: "read-only-storage" } },
            { binding: 10, visibility: F, texture: { sampleType: "unfilterable-float" } },
    ];
    if (shadowed) entries.push(...shadow_layout_entries(7, F));
    if (environment) entries.push(...environment_layout_entries(ENVIRONMENT_BINDING, F));
    if (ambient_occlusion) {
        entries.push(
            { binding: AMBIENT_OCCLUSION_BINDING, visibility: F, texture: { sampleType: "float" } },
            { binding: AMBIENT_OCCLUSION_BINDING + 1, visibility: F, sampler: { type: "filtering" } },
        );
    }
    const layout = device.createBindGroupLayout({ label: `${label} bind group layout`, entries });
    const module = device.createShaderModule({ label: `${label} shader`, code });
    const pipeline = device.createRenderPipeline({
        label: `${label} pipeline`,
        layout: device.createPipelineLayout({ label: `${label} pipeline layout`, bindGroupLayouts: [layout] }),
        vertex: { module, entryPoint: "vs_fullscreen" },
        fragment: { module, entryPoint: "fs_main", targets: [{ format }] },
        primitive: { topology: "triangle-list" },
    });
    const shadow_sampler = shadowed
        ? device.createSampler({ label: "shadow comparison sampler", compare: "less-equal", magFilter: "linear", minFilter: "linear" })
        : null;
    const ambient_occlusion_sampler = ambient_occlusion
        ? device.createSampler({ label: "ambient occlusion sampler", magFilter: "linear", minFilter: "linear" })
        : null;
    return { pipeline, layout, groups: new BindGroupCache(), shadow_sampler, ambient_occlusion_sampler, compute: null, shadowed, environment, ambient_occlusion, layout_entries: entries };
}
