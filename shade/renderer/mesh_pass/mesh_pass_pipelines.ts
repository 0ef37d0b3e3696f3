import type { PipelineKey } from "../pipeline/PipelineKey.js";
import { MESH_VERTEX_BUFFERS } from "../steps/GBufferStep.js";
import type { MeshPassBlend } from "./MeshPassExtension.js";

/** @internal One shader of a mesh pass and the meshes drawn with it this frame (`start`..`end` of the drawn list). */
export interface MeshPassVariant {
    readonly name: string;
    readonly code: string;
    readonly key: PipelineKey;
    readonly modules: WeakMap<GPUDevice, GPUShaderModule>;
    start: number;
    end: number;
}

// key parts
/** @internal The key part that names a variant's shader (`shader_id` of its code). */
export const KEY_SHADER = 0;
const KEY_BLEND = 1;
const KEY_CULL = 2;
const KEY_DEPTH_COMPARE = 3;
const KEY_COLOR_FORMAT = 4;
const KEY_DEPTH_FORMAT = 5;
const KEY_SAMPLES = 6;
const KEY_DEPTH_WRITE = 7;
/** @internal How many parts a mesh pass's pipeline key has. */
export const KEY_PARTS = 8;

const NO_DEPTH = "no depth";

let next_shader_id = 1;
const shader_ids = new Map<string, number>();

/** @internal A number per distinct shader text, shared by every mesh pass (so passes sharing a cache share pipelines). */
export function shader_id(code: string): number {
    let id = shader_ids.get(code);
    if (id === undefined) shader_ids.set(code, (id = next_shader_id++));
    return id;
}

const BLENDS: Record<MeshPassBlend, GPUBlendState | undefined> = {
    replace: undefined,
    alpha: {
        color: { srcFactor: "src-alpha", dstFactor: "one-minus-src-alpha" },
        alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha" },
    },
    // the scene colour's alpha is left as it was
    additive: {
        color: { srcFactor: "one", dstFactor: "one" },
        alpha: { srcFactor: "zero", dstFactor: "one" },
    },
};

/**
 * @internal What a mesh pass's pipeline is built from besides its shader: the parts of its key. The pass keeps
 * one and fills it from its settings wherever it sets a key or builds a pipeline.
 */
export interface MeshPassPipelineState {
    blend: MeshPassBlend;
    cull: GPUCullMode;
    depth_compare: GPUCompareFunction;
    color_format: GPUTextureFormat;
    /** Null: no depth attachment. */
    depth_format: GPUTextureFormat | null;
    /** Whether the pass writes depth (into a target's own depth buffer; the scene depth is only read). */
    depth_write: boolean;
}

/** @internal Sets every part of `key` but the shader's from `state`. */
export function set_mesh_pass_key(key: PipelineKey, state: MeshPassPipelineState): void {
    key.set(KEY_BLEND, state.blend);
    key.set(KEY_CULL, state.cull);
    key.set(KEY_DEPTH_COMPARE, state.depth_compare);
    key.set(KEY_COLOR_FORMAT, state.color_format);
    key.set(KEY_DEPTH_FORMAT, state.depth_format ?? NO_DEPTH);
    key.set(KEY_DEPTH_WRITE, state.depth_write ? 1 : 0);
    key.set(KEY_SAMPLES, 1); // graph textures are single-sampled
}

/**
 * @internal The pipeline of `variant` in `state` on `device` (its shader module made once per device), labelled
 * after the pass `name`. `targets` is the pass's one colour target state, patched here and reused.
 */
export function make_mesh_pass_pipeline(
    device: GPUDevice,
    name: string,
    variant: MeshPassVariant,
    layout: GPUPipelineLayout,
    targets: GPUColorTargetState[],
    state: MeshPassPipelineState,
): GPURenderPipeline {
    let module = variant.modules.get(device);
    if (module === undefined) {
        module = device.createShaderModule({ label: `${name} shader (${variant.name})`, code: variant.code });
        variant.modules.set(device, module);
    }
    const target = targets[0];
    target.format = state.color_format;
    target.blend = BLENDS[state.blend];
    const depth_format = state.depth_format;
    return device.createRenderPipeline({
        label: `${name} pipeline ${variant.name} (${variant.key.value})`,
        layout,
        vertex: { module, entryPoint: "vs_main", buffers: MESH_VERTEX_BUFFERS },
        fragment: { module, entryPoint: "fs_main", targets },
        primitive: { topology: "triangle-list", cullMode: state.cull, frontFace: "ccw" },
        depthStencil: depth_format === null ? undefined : { format: depth_format, depthWriteEnabled: state.depth_write, depthCompare: state.depth_compare },
    });
}
