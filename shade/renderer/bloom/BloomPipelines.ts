import { BindGroupCache } from "../../device/BindGroupCache.js";
import { BLOOM_COMPUTE_WGSL, BLOOM_FORMAT, BLOOM_PARAMS_FLOATS, BLOOM_RASTER_WGSL } from "./bloom_wgsl.js";

/** The kinds of bloom pass, indexing the pipelines: 0 downsample, 1 upsample, 2 composite. */
export type BloomPassKind = 0 | 1 | 2;

const KIND_NAMES = ["downsample", "upsample", "composite"] as const;
// a resize brings new pooled textures: room for the groups of two sizes of a 12-level chain
const MAX_CACHED_BIND_GROUPS = 64;

/**
 * The bloom's GPU objects on one device: the uniform block, a sampler, and the raster and compute pipelines of
 * each kind of pass (each path built on first use), with their bind groups cached by the views they bind.
 */
export class BloomPipelines {
    readonly device: GPUDevice;
    readonly params: GPUBuffer;
    readonly sampler: GPUSampler;
    #raster: RasterPipelines | null = null;
    #compute: ComputePipelines | null = null;
    readonly #raster_keys: unknown[] = [null, null];
    readonly #compute_keys: unknown[] = [null, null, null];
    readonly #label: string;

    constructor(device: GPUDevice, label: string) {
        this.device = device;
        this.#label = label;
        this.params = device.createBuffer({ label: `${label} params`, size: BLOOM_PARAMS_FLOATS * 4, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        // mirrored, not clamped: what a filter near the edge spreads beyond it comes back as its mirror image
        // brings it, so the levels keep their energy (clamped, a 64x64 chain of six levels lost 6% of it)
        this.sampler = device.createSampler({
            label: `${label} sampler`,
            magFilter: "linear",
            minFilter: "linear",
            addressModeU: "mirror-repeat",
            addressModeV: "mirror-repeat",
        });
    }

    get raster(): RasterPipelines {
        return this.#raster ?? (this.#raster = build_raster(this.device, this.#label));
    }

    get compute(): ComputePipelines {
        return this.#compute ?? (this.#compute = build_compute(this.device, this.#label));
    }

    /** The raster bind group of inputs `a` and `b`. */
    raster_group(a: GPUTextureView, b: GPUTextureView): GPUBindGroup {
        const raster = this.raster;
        const keys = this.#raster_keys;
        keys[0] = a;
        keys[1] = b;
        return raster.groups.find(keys) ?? raster.groups.add(keys, this.#group(raster.layout, a, b, null, "bind group"));
    }

    /** The compute bind group of inputs `a` and `b` and the storage `output`. */
    compute_group(a: GPUTextureView, b: GPUTextureView, output: GPUTextureView): GPUBindGroup {
        const compute = this.compute;
        const keys = this.#compute_keys;
        keys[0] = a;
        keys[1] = b;
        keys[2] = output;
        return compute.groups.find(keys) ?? compute.groups.add(keys, this.#group(compute.layout, a, b, output, "compute bind group"));
    }

    destroy(): void {
        this.params.destroy();
        this.#raster?.groups.clear();
        this.#compute?.groups.clear();
    }

    // a miss: the first frames, or new pooled textures after a resize
    #group(layout: GPUBindGroupLayout, a: GPUTextureView, b: GPUTextureView, output: GPUTextureView | null, what: string): GPUBindGroup {
        const entries: GPUBindGroupEntry[] = [
            { binding: 0, resource: this.sampler },
            { binding: 1, resource: { buffer: this.params } },
            { binding: 2, resource: a },
            { binding: 3, resource: b },
        ];
        if (output !== null) entries.push({ binding: 4, resource: output });
        return this.device.createBindGroup({ label: `${this.#label} ${what}`, layout, entries });
    }
}

export interface RasterPipelines {
    readonly layout: GPUBindGroupLayout;
    /** By `BloomPassKind`. */
    readonly pipelines: readonly GPURenderPipeline[];
    /** By `BloomPassKind`, all drawing into `attachments[0]`; it and `timestampWrites` are set per pass. */
    readonly descriptors: readonly GPURenderPassDescriptor[];
    readonly attachments: GPURenderPassColorAttachment[];
    readonly groups: BindGroupCache;
}

export interface ComputePipelines {
    readonly layout: GPUBindGroupLayout;
    /** By `BloomPassKind`. */
    readonly pipelines: readonly GPUComputePipeline[];
    /** By `BloomPassKind`; `timestampWrites` is set per pass. */
    readonly descriptors: readonly GPUComputePassDescriptor[];
    readonly groups: BindGroupCache;
}

function layout_entries(visibility: number): GPUBindGroupLayoutEntry[] {
    return [
        { binding: 0, visibility, sampler: { type: "filtering" } },
        { binding: 1, visibility, buffer: { type: "uniform" } },
        { binding: 2, visibility, texture: { sampleType: "float" } },
        { binding: 3, visibility, texture: { sampleType: "float" } },
    ];
}

function build_raster(device: GPUDevice, label: string): RasterPipelines {
    const module = device.createShaderModule({ label: `${label} shader`, code: BLOOM_RASTER_WGSL });
    const layout = device.createBindGroupLayout({ label: `${label} bind group layout`, entries: layout_entries(GPUShaderStage.FRAGMENT) });
    const pipeline_layout = device.createPipelineLayout({ label: `${label} pipeline layout`, bindGroupLayouts: [layout] });
    const pipelines = KIND_NAMES.map((kind) =>
        device.createRenderPipeline({
            label: `${label} ${kind} pipeline`,
            layout: pipeline_layout,
            vertex: { module, entryPoint: "vs_fullscreen" },
            fragment: { module, entryPoint: `fs_${kind}`, targets: [{ format: BLOOM_FORMAT }] },
            primitive: { topology: "triangle-list" },
        }),
    );
    const attachments: GPURenderPassColorAttachment[] = [];
    const descriptors = KIND_NAMES.map((kind): GPURenderPassDescriptor => ({ label: `${label} ${kind}`, colorAttachments: attachments }));
    return { layout, pipelines, descriptors, attachments, groups: new BindGroupCache(MAX_CACHED_BIND_GROUPS) };
}

function build_compute(device: GPUDevice, label: string): ComputePipelines {
    const module = device.createShaderModule({ label: `${label} compute shader`, code: BLOOM_COMPUTE_WGSL });
    const entries = layout_entries(GPUShaderStage.COMPUTE);
    entries.push({ binding: 4, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: "write-only", format: BLOOM_FORMAT } });
    const layout = device.createBindGroupLayout({ label: `${label} compute bind group layout`, entries });
    const pipeline_layout = device.createPipelineLayout({ label: `${label} compute pipeline layout`, bindGroupLayouts: [layout] });
    const pipelines = KIND_NAMES.map((kind) =>
        device.createComputePipeline({ label: `${label} ${kind} compute pipeline`, layout: pipeline_layout, compute: { module, entryPoint: `cs_${kind}` } }),
    );
    const descriptors = KIND_NAMES.map((kind): GPUComputePassDescriptor => ({ label: `${label} ${kind} (compute)` }));
    return { layout, pipelines, descriptors, groups: new BindGroupCache(MAX_CACHED_BIND_GROUPS) };
}
