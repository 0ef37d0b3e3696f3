import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import { GPUGeometryCache } from "../mesh/GPUGeometryCache.js";
import { MaterialBindings } from "../mesh/MaterialBindings.js";
import { skinned_vertices_layout } from "../mesh/skinned_vertices.js";
import { MAX_SHADOW_CASCADES, SHADOW_CASCADES_FLOATS } from "./ShadowCascades.js";
import { CASTER_STRIDE, CASTER_WGSL } from "./shadow_casters_wgsl.js";

/** Format of the shadow atlas. */
export const SHADOW_MAP_FORMAT: GPUTextureFormat = "depth32float";

/** @internal A shadow extension's GPU objects on one device. */
export interface ShadowDeviceState {
    readonly pipeline: GPURenderPipeline;
    /** Casters of masked materials: the cutoff's holes in the shadow (positions, uvs, uv1; material at group 1). */
    readonly masked_pipeline: GPURenderPipeline;
    /** The two pulling a skin batch's vertices (group 1 the material's, 2 the batch's); made when first drawn. */
    pulled: ShadowPulledPipelines | null;
    readonly module: GPUShaderModule;
    readonly materials: MaterialBindings;
    readonly layout: GPUBindGroupLayout;
    readonly texture: GPUTexture;
    readonly texture_descriptor: TextureResourceDescriptor;
    /** The `ShadowCascades` block the lighting reads. */
    readonly uniforms: GPUBuffer;
    /** One light view-projection per cascade, `CASTER_STRIDE` apart. */
    readonly casters: GPUBuffer;
    readonly geometries: GPUGeometryCache;
    readonly groups: GPUBindGroup[];
    /** The object buffer `groups` bind (the G-buffer's, `SceneDraws`). */
    groups_objects: GPUBuffer | null;
    /** The culled object indices of every cascade, back to back (grow-only). */
    caster_indices: GPUBuffer;
    groups_indices: GPUBuffer | null;
}

/** @internal The pulling pipelines: rigid and masked. */
export interface ShadowPulledPipelines {
    readonly pipeline: GPURenderPipeline;
    readonly masked_pipeline: GPURenderPipeline;
}

/** @internal */
export function build_shadow_state(device: GPUDevice, width: number, height: number): ShadowDeviceState {
    const max = device.limits.maxTextureDimension2D;
    if (width > max) {
        throw new RangeError(`ShadowExtension: the shadow atlas would be ${width}x${height}, wider than this device's maxTextureDimension2D (${max}); use fewer cascades or a lower resolution`);
    }
    const layout = device.createBindGroupLayout({
        label: "shadow caster bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform" } },
            { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: "read-only-storage" } },
            { binding: 2, visibility: GPUShaderStage.VERTEX, buffer: { type: "read-only-storage" } },
        ],
    });
    const module = device.createShaderModule({ label: "shadow caster shader", code: CASTER_WGSL });
    const depth_stencil: GPUDepthStencilState = { format: SHADOW_MAP_FORMAT, depthWriteEnabled: true, depthCompare: "less", depthBiasSlopeScale: 1.5 };
    const position: GPUVertexBufferLayout = { arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: "float32x3" }] };
    const pipeline = device.createRenderPipeline({
        label: "shadow caster pipeline",
        layout: device.createPipelineLayout({ label: "shadow caster pipeline layout", bindGroupLayouts: [layout] }),
        vertex: { module, entryPoint: "vs_caster", buffers: [position] },
        primitive: { topology: "triangle-list", cullMode: "none" },
        depthStencil: depth_stencil,
    });
    const materials = new MaterialBindings(device);
    const uv = (location: number): GPUVertexBufferLayout => ({ arrayStride: 8, attributes: [{ shaderLocation: location, offset: 0, format: "float32x2" }] });
    const masked_pipeline = device.createRenderPipeline({
        label: "shadow caster pipeline (masked)",
        layout: device.createPipelineLayout({ label: "shadow caster pipeline layout (masked)", bindGroupLayouts: [layout, materials.layout] }),
        vertex: { module, entryPoint: "vs_masked_caster", buffers: [position, uv(1), uv(2)] },
        fragment: { module, entryPoint: "fs_masked_caster", targets: [] },
        primitive: { topology: "triangle-list", cullMode: "none" },
        depthStencil: depth_stencil,
    });
    const usage = GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING;
    const texture = device.createTexture({ label: "shadow map", size: [width, height], format: SHADOW_MAP_FORMAT, usage });
    const texture_descriptor = TextureResourceDescriptor.of(width, height, SHADOW_MAP_FORMAT, usage);
    const uniforms = device.createBuffer({ label: "shadow cascades", size: SHADOW_CASCADES_FLOATS * 4, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const casters = device.createBuffer({
        label: "shadow caster matrices",
        size: CASTER_STRIDE * MAX_SHADOW_CASCADES,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    return { pipeline, masked_pipeline, pulled: null, module, materials, layout, texture, texture_descriptor, uniforms, casters, geometries: GPUGeometryCache.of(device), groups: [], groups_objects: null,
        caster_indices: device.createBuffer({ label: "shadow caster indices", size: 1024, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }),
        groups_indices: null,
    };
}

/** @internal The pipelines drawing a skin batch's casters (positions pulled from its buffers). */
export function make_pulled_shadow_pipelines(device: GPUDevice, state: ShadowDeviceState): ShadowPulledPipelines {
    const module = state.module;
    const layout = device.createPipelineLayout({
        label: "shadow caster pipeline layout (skin batch)",
        bindGroupLayouts: [state.layout, state.materials.layout, skinned_vertices_layout(device)],
    });
    const depth_stencil: GPUDepthStencilState = { format: SHADOW_MAP_FORMAT, depthWriteEnabled: true, depthCompare: "less", depthBiasSlopeScale: 1.5 };
    const uv = (location: number): GPUVertexBufferLayout => ({ arrayStride: 8, attributes: [{ shaderLocation: location, offset: 0, format: "float32x2" }] });
    return {
        pipeline: device.createRenderPipeline({
            label: "shadow caster pipeline (skin batch)",
            layout,
            vertex: { module, entryPoint: "vs_caster_pulled" },
            primitive: { topology: "triangle-list", cullMode: "none" },
            depthStencil: depth_stencil,
        }),
        masked_pipeline: device.createRenderPipeline({
            label: "shadow caster pipeline (masked) (skin batch)",
            layout,
            vertex: { module, entryPoint: "vs_masked_caster_pulled", buffers: [null, uv(1), uv(2)] },
            fragment: { module, entryPoint: "fs_masked_caster", targets: [] },
            primitive: { topology: "triangle-list", cullMode: "none" },
            depthStencil: depth_stencil,
        }),
    };
}
