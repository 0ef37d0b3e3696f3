import { BindGroupCache } from "../../device/BindGroupCache.js";
import { SCENE_COLOR_FORMAT } from "./LightingStep.js";
import { taa_resolve_wgsl } from "./taa_resolve.wgsl.js";

const PARAMS_FLOATS = 8;
const MAX_CACHED_BIND_GROUPS = 16;

/** The resolve's pipeline: raster or compute, with or without the velocity target. */
export interface ResolveVariant {
    readonly raster: GPURenderPipeline | null;
    readonly compute: GPUComputePipeline | null;
    readonly layout: GPUBindGroupLayout;
}

/** The TAA resolve's GPU state on one device. */
export interface ResolveState {
    /**
     * [0] raster with depth reprojection, [1] raster with velocity, [2] and [3] the same as compute; each built
     * on the first frame that needs it.
     */
    readonly variants: (ResolveVariant | null)[];
    readonly sampler: GPUSampler;
    readonly params: GPUBuffer;
    // keyed by camera buffer and the views: pooled inputs are stable and the history ping-pongs, so this hits
    readonly groups: BindGroupCache;
    /** The two output-size history textures, written alternately (null before the first frame). */
    readonly history: (GPUTexture | null)[];
    history_width: number;
    history_height: number;
    /** Which of `history` holds a valid resolve (-1: none), and of which frame, internal size and jitter. */
    valid: number;
    valid_frame: number;
    valid_internal_width: number;
    valid_internal_height: number;
    readonly valid_jitter: Float32Array;
}

/** (Re)creates the two history textures at the output size; what they held is gone, so the history is too. */
export function resize_history(device: GPUDevice, state: ResolveState, width: number, height: number): void {
    for (let i = 0; i < 2; i++) {
        // destroy waits for submitted work that still uses it
        state.history[i]?.destroy();
        state.history[i] = device.createTexture({
            label: `taa history ${i} (${width}x${height})`,
            size: { width, height },
            format: SCENE_COLOR_FORMAT,
            // storage: the compute resolve writes it
            usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC,
        });
    }
    state.history_width = width;
    state.history_height = height;
    state.valid = -1;
    // bind groups of the old textures would keep them alive
    state.groups.clear();
}

/** The bind group of `keys` (camera, colour, depth, history, [velocity], [storage output]) for a variant. */
export function resolve_group(device: GPUDevice, state: ResolveState, variant: number, keys: unknown[]): GPUBindGroup {
    const cached = state.groups.find(keys);
    if (cached !== null) return cached;
    // a miss: the first frames, a resize, a new pooled texture
    const entries: GPUBindGroupEntry[] = [
        { binding: 0, resource: { buffer: keys[0] as GPUBuffer } },
        { binding: 1, resource: { buffer: state.params } },
        { binding: 2, resource: state.sampler },
        { binding: 3, resource: keys[1] as GPUTextureView },
        { binding: 4, resource: keys[2] as GPUTextureView },
        { binding: 5, resource: keys[3] as GPUTextureView },
    ];
    if ((variant & 1) === 1) entries.push({ binding: 6, resource: keys[4] as GPUTextureView });
    if (variant >= 2) entries.push({ binding: 7, resource: keys[5] as GPUTextureView });
    const group = device.createBindGroup({ label: "taa resolve bind group", layout: state.variants[variant]!.layout, entries });
    return state.groups.add(keys, group);
}

/** A variant (bit 0: velocity, bit 1: compute), built on first use. */
export function resolve_variant(device: GPUDevice, state: ResolveState, variant: number): ResolveVariant {
    let built = state.variants[variant];
    if (built === null) built = state.variants[variant] = build_variant(device, (variant & 1) === 1, variant >= 2);
    return built;
}

function build_variant(device: GPUDevice, with_velocity: boolean, compute: boolean): ResolveVariant {
    const F = compute ? GPUShaderStage.COMPUTE : GPUShaderStage.FRAGMENT;
    const suffix = (with_velocity ? " (velocity)" : "") + (compute ? " (compute)" : "");
    const entries: GPUBindGroupLayoutEntry[] = [
        { binding: 0, visibility: F, buffer: { type: "uniform" } },
        { binding: 1, visibility: F, buffer: { type: "uniform" } },
        { binding: 2, visibility: F, sampler: { type: "filtering" } },
        { binding: 3, visibility: F, texture: { sampleType: "float" } },
        { binding: 4, visibility: F, texture: { sampleType: "depth" } },
        { binding: 5, visibility: F, texture: { sampleType: "float" } },
    ];
    // the velocity is filterable, but the resolve only loads it
    if (with_velocity) entries.push({ binding: 6, visibility: F, texture: { sampleType: "float" } });
    if (compute) entries.push({ binding: 7, visibility: F, storageTexture: { access: "write-only", format: SCENE_COLOR_FORMAT } });
    const layout = device.createBindGroupLayout({ label: `taa resolve bind group layout${suffix}`, entries });
    const module = device.createShaderModule({ label: `taa resolve shader${suffix}`, code: taa_resolve_wgsl(with_velocity, compute) });
    const pipeline_layout = device.createPipelineLayout({ label: `taa resolve pipeline layout${suffix}`, bindGroupLayouts: [layout] });
    if (compute) {
        const pipeline = device.createComputePipeline({ label: `taa resolve pipeline${suffix}`, layout: pipeline_layout, compute: { module, entryPoint: "cs_main" } });
        return { raster: null, compute: pipeline, layout };
    }
    const pipeline = device.createRenderPipeline({
        label: `taa resolve pipeline${suffix}`,
        layout: pipeline_layout,
        vertex: { module, entryPoint: "vs_fullscreen" },
        fragment: { module, entryPoint: "fs_main", targets: [{ format: SCENE_COLOR_FORMAT }] },
        primitive: { topology: "triangle-list" },
    });
    return { raster: pipeline, compute: null, layout };
}

/** The resolve's sampler, parameters and caches on a device (pipelines follow on first use). */
export function build_resolve_state(device: GPUDevice): ResolveState {
    const sampler = device.createSampler({
        label: "taa resolve sampler",
        magFilter: "linear",
        minFilter: "linear",
        addressModeU: "clamp-to-edge",
        addressModeV: "clamp-to-edge",
    });
    const params = device.createBuffer({
        label: "taa resolve params",
        size: PARAMS_FLOATS * 4,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    return {
        variants: [null, null, null, null],
        sampler,
        params,
        groups: new BindGroupCache(MAX_CACHED_BIND_GROUPS),
        history: [null, null],
        history_width: 0,
        history_height: 0,
        valid: -1,
        valid_frame: -1,
        valid_internal_width: 0,
        valid_internal_height: 0,
        valid_jitter: new Float32Array(2),
    };
}

