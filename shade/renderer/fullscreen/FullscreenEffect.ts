import { BindGroupCache } from "../../device/BindGroupCache.js";
import type { FrameGraph } from "../../device/graph/FrameGraph.js";
import { FULLSCREEN_VERTEX_WGSL } from "./fullscreen_vertex_wgsl.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { WriteMode } from "../../device/graph/FramePassBuilder.js";
import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { check_fullscreen_path, is_storage_format, use_compute, type FullscreenPath } from "./FullscreenPath.js";

export interface FullscreenEffectOptions {
    /** Names the pass, the pipeline and the shader. */
    readonly label: string;
    /**
     * WGSL defining `fn effect(uv: vec2f) -> vec4f`. Inputs are `input_0 .. input_3` (`texture_2d<f32>`),
     * read with `sample_input_N(uv)` (bilinear, clamped) or `load_input_N(pixel)`; `texel_N()` gives 1/size.
     * `frag_coord` (the output pixel centre) is in scope as a private global.
     */
    readonly fragment: string;
    /** How many textures it samples, 0 to 4. */
    readonly inputs: number;
    /** The output's format. */
    readonly format: GPUTextureFormat;
    /** Blending over what the output held (which makes the write load it). Blended effects run raster. */
    readonly blend?: GPUBlendState;
    /**
     * Raster, compute, or "auto" (default): the device's `fullscreen_paths` setting, else the measured rule of
     * `FullscreenPath`. Compute writes the output as a storage texture, so it needs an output whose usage has
     * STORAGE_BINDING and a storage-capable format, and a fragment free of what only a fragment stage has
     * (`discard`, `textureSample` with implicit level, derivatives); "auto" takes raster without them, "compute"
     * is refused.
     */
    readonly path?: FullscreenPath;
}

interface DrawSlot {
    effect: FullscreenEffect;
    output: FrameGraphHandle;
    /** The output can be written as a storage texture (its usage has STORAGE_BINDING; not blended, not loaded). */
    storage: boolean;
    input_count: number;
    readonly inputs: FrameGraphHandle[];
    readonly views: GPUTextureView[];
}

interface DeviceState {
    readonly sampler: GPUSampler;
    /** Whether this effect runs compute on this device where the output allows it. */
    readonly compute: boolean;
    raster: RasterState | null;
    compute_state: ComputeState | null;
    /** Set once a shader's compilation info reports an error: drawing then throws it. */
    compile_error: Error | null;
}

interface RasterState {
    readonly pipeline: GPURenderPipeline;
    readonly layout: GPUBindGroupLayout;
    readonly bind_groups: BindGroupCache;
    readonly pass_descriptor: GPURenderPassDescriptor;
    readonly attachments: GPURenderPassColorAttachment[];
}

interface ComputeState {
    readonly pipeline: GPUComputePipeline;
    readonly layout: GPUBindGroupLayout;
    // keyed by the input views and the output's view
    readonly bind_groups: BindGroupCache;
    readonly pass_descriptor: GPUComputePassDescriptor;
}

const MAX_INPUTS = 4;
const STORAGE_BINDING = 0x08;
// what only a fragment stage has: an effect using any of them runs raster ("auto") or is refused ("compute")
const FRAGMENT_ONLY = /\b(discard|textureSample|textureSampleBias|textureSampleCompare|dpdx\w*|dpdy\w*|fwidth\w*)\b/;
const MAX_CACHED_BIND_GROUPS = 32;

/**
 * A pass that runs `effect(uv)` once over its whole output: composites, blurs, colour grades. Record it with
 * `graph_draw`; GPU objects are built per device on first use and rebuilt on a new device.
 */
export class FullscreenEffect {
    readonly label: string;
    readonly options: FullscreenEffectOptions;
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #slots: DrawSlot[] = [];
    #slot_cursor = 0;
    #slot_frame = -1;
    #destroyed = false;

    constructor(options: FullscreenEffectOptions) {
        if (!(options.inputs >= 0 && options.inputs <= MAX_INPUTS)) {
            throw new RangeError(`FullscreenEffect '${options.label}': inputs must be 0..${MAX_INPUTS}, got ${options.inputs}`);
        }
        if (options.path !== undefined) check_fullscreen_path(options.path, `FullscreenEffect '${options.label}'`);
        if (options.path === "compute" && options.blend !== undefined) {
            throw new TypeError(`FullscreenEffect '${options.label}': path 'compute' cannot blend (a storage write replaces the output); use 'raster' or 'auto'`);
        }
        const fragment_only = options.path === "compute" ? FRAGMENT_ONLY.exec(options.fragment) : null;
        if (fragment_only !== null) {
            throw new TypeError(`FullscreenEffect '${options.label}': path 'compute' cannot run '${fragment_only[0]}' (fragment stage only); use 'raster' or 'auto'`);
        }
        this.label = options.label;
        this.options = options;
    }

    /**
     * Records a pass that reads the inputs and writes `output`; returns the output's new handle. With a
     * blend state the previous contents are loaded; otherwise the write follows `mode`.
     */
    graph_draw(
        graph: FrameGraph,
        output: FrameGraphHandle,
        input_0?: FrameGraphHandle,
        input_1?: FrameGraphHandle,
        input_2?: FrameGraphHandle,
        input_3?: FrameGraphHandle,
        mode: WriteMode = "auto",
    ): FrameGraphHandle {
        if (this.#destroyed) throw new Error(`FullscreenEffect '${this.label}' is used after destroy()`);
        const slot = this.#next_slot(graph);
        const builder = graph.add(this.label, slot, execute_fullscreen);
        slot.input_count = this.options.inputs;
        for (let i = 0; i < this.options.inputs; i++) {
            const h = i === 0 ? input_0 : i === 1 ? input_1 : i === 2 ? input_2 : input_3;
            if (h === undefined) {
                throw new Error(`FullscreenEffect '${this.label}' takes ${this.options.inputs} inputs; input_${i} is missing`);
            }
            slot.inputs[i] = builder.read(h);
        }
        slot.output = builder.write(output, this.options.blend !== undefined ? "load" : mode);
        slot.storage = this.options.blend === undefined && mode !== "load" && (graph.describe(output).usage & STORAGE_BINDING) !== 0;
        if (!slot.storage && this.options.path === "compute") {
            throw new Error(
                `FullscreenEffect '${this.label}': path 'compute' writes its output as a storage texture, but the output ` +
                    (mode === "load" ? "is written with mode 'load'" : "has no STORAGE_BINDING usage") + "; use 'raster' or 'auto'",
            );
        }
        return slot.output;
    }

    /** @internal the GPU half of a slot */
    state(device: GPUDevice): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_device_state(device, this.options);
            this.#per_device.set(device, state);
        }
        return state;
    }

    destroy(): void {
        this.#destroyed = true;
        this.#slots.length = 0;
    }

    #next_slot(graph: FrameGraph): DrawSlot {
        if (graph.frame_index !== this.#slot_frame) {
            this.#slot_frame = graph.frame_index;
            this.#slot_cursor = 0;
        }
        let slot = this.#slots[this.#slot_cursor];
        if (slot === undefined) {
            slot = { effect: this, output: -1, storage: false, input_count: 0, inputs: [-1, -1, -1, -1], views: [] };
            this.#slots.push(slot);
        }
        this.#slot_cursor++;
        return slot;
    }
}

function execute_fullscreen(slot: DrawSlot, resources: FrameGraphResources, execution: FrameExecution): void {
    const device = execution.graphics;
    const state = slot.effect.state(device);
    if (state.compile_error !== null) throw state.compile_error;
    const views = slot.views;
    if (slot.storage && state.compute) {
        const compute = state.compute_state ?? (state.compute_state = build_compute(device, slot.effect.options, state));
        views.length = slot.input_count + 1;
        for (let i = 0; i < slot.input_count; i++) views[i] = resources.view(slot.inputs[i]);
        views[slot.input_count] = resources.view(slot.output);
        const size = resources.texture(slot.output);
        compute.pass_descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginComputePass(compute.pass_descriptor);
        pass.setPipeline(compute.pipeline);
        pass.setBindGroup(0, bind_group_for(device, compute.layout, compute.bind_groups, state.sampler, slot.effect.label, views));
        // integer shifts, not Math.ceil: a double handed to the call would be boxed (16 bytes a frame)
        pass.dispatchWorkgroups((size.width + 7) >> 3, (size.height + 7) >> 3);
        pass.end();
        return;
    }
    const raster = state.raster ?? (state.raster = build_raster(device, slot.effect.options, state));
    views.length = slot.input_count;
    for (let i = 0; i < slot.input_count; i++) views[i] = resources.view(slot.inputs[i]);
    raster.attachments[0] = resources.color_attachment(slot.output);
    raster.pass_descriptor.timestampWrites = execution.timestamp_writes;
    const pass = execution.encoder.beginRenderPass(raster.pass_descriptor);
    pass.setPipeline(raster.pipeline);
    pass.setBindGroup(0, bind_group_for(device, raster.layout, raster.bind_groups, state.sampler, slot.effect.label, views));
    pass.draw(3);
    pass.end();
}

// binding 0 the sampler, then the views in order (the inputs, and for compute the output last)
function bind_group_for(
    device: GPUDevice,
    layout: GPUBindGroupLayout,
    cache: BindGroupCache,
    sampler: GPUSampler,
    label: string,
    views: GPUTextureView[],
): GPUBindGroup {
    const cached = cache.find(views);
    if (cached !== null) return cached;
    // a miss: new pooled textures (first frames, a resize)
    const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: sampler }];
    for (let i = 0; i < views.length; i++) entries.push({ binding: 1 + i, resource: views[i] });
    const group = device.createBindGroup({ label: `${label} bind group`, layout, entries });
    return cache.add(views, group);
}

function build_device_state(device: GPUDevice, options: FullscreenEffectOptions): DeviceState {
    const sampler = device.createSampler({
        label: `${options.label} sampler`,
        magFilter: "linear",
        minFilter: "linear",
        addressModeU: "clamp-to-edge",
        addressModeV: "clamp-to-edge",
    });
    const fragment_only = FRAGMENT_ONLY.exec(options.fragment);
    const compute = options.blend === undefined && fragment_only === null && use_compute(device, options.path ?? "auto") && is_storage_format(device, options.format);
    if (options.path === "compute" && !is_storage_format(device, options.format)) {
        throw new Error(`FullscreenEffect '${options.label}': path 'compute' needs a storage-capable output format; '${options.format}' is not one on this device`);
    }
    return { sampler, compute, raster: null, compute_state: null, compile_error: null };
}

function input_layout_entries(options: FullscreenEffectOptions, visibility: number): GPUBindGroupLayoutEntry[] {
    // explicit, so that an effect using only load_input_N still matches the sampler binding
    const entries: GPUBindGroupLayoutEntry[] = [{ binding: 0, visibility, sampler: { type: "filtering" } }];
    for (let i = 0; i < options.inputs; i++) entries.push({ binding: 1 + i, visibility, texture: { sampleType: "float" } });
    return entries;
}

function build_raster(device: GPUDevice, options: FullscreenEffectOptions, state: DeviceState): RasterState {
    const code = fullscreen_wgsl(options);
    const module = device.createShaderModule({ label: `${options.label} shader`, code });
    watch_compilation(module, options, code, state, fullscreen_wgsl);
    const layout = device.createBindGroupLayout({ label: `${options.label} bind group layout`, entries: input_layout_entries(options, GPUShaderStage.FRAGMENT) });
    const pipeline = device.createRenderPipeline({
        label: `${options.label} pipeline`,
        layout: device.createPipelineLayout({ label: `${options.label} pipeline layout`, bindGroupLayouts: [layout] }),
        vertex: { module, entryPoint: "vs_fullscreen" },
        fragment: {
            module,
            entryPoint: "fs_main",
            targets: [{ format: options.format, blend: options.blend }],
        },
        primitive: { topology: "triangle-list" },
    });
    const attachments: GPURenderPassColorAttachment[] = [];
    return {
        pipeline,
        layout,
        bind_groups: new BindGroupCache(MAX_CACHED_BIND_GROUPS),
        attachments,
        pass_descriptor: { label: options.label, colorAttachments: attachments },
    };
}

function build_compute(device: GPUDevice, options: FullscreenEffectOptions, state: DeviceState): ComputeState {
    const code = fullscreen_compute_wgsl(options);
    const module = device.createShaderModule({ label: `${options.label} compute shader`, code });
    watch_compilation(module, options, code, state, fullscreen_compute_wgsl);
    const entries = input_layout_entries(options, GPUShaderStage.COMPUTE);
    entries.push({ binding: 1 + options.inputs, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: "write-only", format: options.format } });
    const layout = device.createBindGroupLayout({ label: `${options.label} compute bind group layout`, entries });
    const pipeline = device.createComputePipeline({
        label: `${options.label} compute pipeline`,
        layout: device.createPipelineLayout({ label: `${options.label} compute pipeline layout`, bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: "cs_main" },
    });
    return {
        pipeline,
        layout,
        bind_groups: new BindGroupCache(MAX_CACHED_BIND_GROUPS),
        pass_descriptor: { label: `${options.label} (compute)` },
    };
}

type WgslOf = (options: FullscreenEffectOptions) => string;

function watch_compilation(module: GPUShaderModule, options: FullscreenEffectOptions, code: string, state: DeviceState, wgsl_of: WgslOf): void {
    void module.getCompilationInfo().then(
        (info) => {
            const errors = info.messages.filter((m) => m.type === "error");
            if (errors.length > 0) state.compile_error = wgsl_error(options, code, errors, wgsl_of);
        },
        () => {}, // a lost device: nothing to report here
    );
}

// Names the effect and quotes each failing line. Lines inside the user's fragment are numbered as in the
// fragment they wrote (line 1 is its first line), not as in the generated WGSL around it.
function wgsl_error(options: FullscreenEffectOptions, code: string, errors: readonly GPUCompilationMessage[], wgsl_of: WgslOf): Error {
    const lines = code.split("\n");
    const first = fragment_first_line(options, wgsl_of);
    const count = options.fragment.split("\n").length;
    const detail = errors
        .map((m) => {
            const quoted = (lines[m.lineNum - 1] ?? "").trim();
            const own = m.lineNum - first + 1;
            const where = own >= 1 && own <= count ? `fragment line ${own}:${m.linePos}` : `generated WGSL line ${m.lineNum}:${m.linePos}`;
            return `  ${where}: ${m.message}\n    ${quoted}`;
        })
        .join("\n");
    return new Error(`FullscreenEffect '${options.label}': its WGSL does not compile:\n${detail}`);
}

const FRAGMENT_MARKER = "\u0000fragment\u0000";

// The 1-based line of the generated WGSL on which the user's fragment starts.
function fragment_first_line(options: FullscreenEffectOptions, wgsl_of: WgslOf): number {
    const marked = wgsl_of({ ...options, fragment: FRAGMENT_MARKER });
    return marked.slice(0, marked.indexOf(FRAGMENT_MARKER)).split("\n").length;
}

function input_wgsl(options: FullscreenEffectOptions): string {
    let inputs = "";
    for (let i = 0; i < options.inputs; i++) {
        inputs += `
@group(0) @binding(${1 + i}) var input_${i}: texture_2d<f32>;
fn sample_input_${i}(uv: vec2f) -> vec4f { return textureSampleLevel(input_${i}, fullscreen_sampler, uv, 0.0); }
fn load_input_${i}(pixel: vec2i) -> vec4f {
    let size = vec2i(textureDimensions(input_${i}));
    return textureLoad(input_${i}, clamp(pixel, vec2i(0), size - 1), 0);
}
fn texel_${i}() -> vec2f { return 1.0 / vec2f(textureDimensions(input_${i})); }
`;
    }
    return `
@group(0) @binding(0) var fullscreen_sampler: sampler;
${inputs}
var<private> frag_coord: vec2f;
`;
}

/** The WGSL of a fullscreen effect: a covering triangle, the input bindings and their helpers. */
export function fullscreen_wgsl(options: FullscreenEffectOptions): string {
    return `${input_wgsl(options)}
${FULLSCREEN_VERTEX_WGSL}

${options.fragment}

@fragment
fn fs_main(in: FullscreenVarying) -> @location(0) vec4f {
    frag_coord = in.position.xy;
    return effect(in.uv);
}
`;
}

/**
 * The same effect as a compute shader: one invocation per output pixel in 8x8 workgroups, `frag_coord` and
 * `uv` as the fragment stage would see them at the pixel's centre, the result stored into the output.
 */
export function fullscreen_compute_wgsl(options: FullscreenEffectOptions): string {
    return `${input_wgsl(options)}
@group(0) @binding(${1 + options.inputs}) var fullscreen_output: texture_storage_2d<${options.format}, write>;

${options.fragment}

@compute @workgroup_size(8, 8)
fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(fullscreen_output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    frag_coord = vec2f(id.xy) + 0.5;
    textureStore(fullscreen_output, id.xy, effect(frag_coord / vec2f(size)));
}
`;
}
