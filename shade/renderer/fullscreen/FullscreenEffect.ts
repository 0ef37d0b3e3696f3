import { BindGroupCache } from "../../device/BindGroupCache.js";
import type { FrameGraph } from "../../device/graph/FrameGraph.js";
import { FULLSCREEN_VERTEX_WGSL } from "./fullscreen_vertex_wgsl.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { WriteMode } from "../../device/graph/FramePassBuilder.js";
import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";

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
    /** Blending over what the output held (which makes the write load it). */
    readonly blend?: GPUBlendState;
}

interface DrawSlot {
    effect: FullscreenEffect;
    output: FrameGraphHandle;
    input_count: number;
    readonly inputs: FrameGraphHandle[];
    readonly views: GPUTextureView[];
}

interface DeviceState {
    readonly pipeline: GPURenderPipeline;
    readonly layout: GPUBindGroupLayout;
    readonly sampler: GPUSampler;
    readonly bind_groups: BindGroupCache;
    readonly pass_descriptor: GPURenderPassDescriptor;
    readonly attachments: GPURenderPassColorAttachment[];
    /** Set once the shader's compilation info reports an error: drawing then throws it. */
    compile_error: Error | null;
}

const MAX_INPUTS = 4;
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
            slot = { effect: this, output: -1, input_count: 0, inputs: [-1, -1, -1, -1], views: [] };
            this.#slots.push(slot);
        }
        this.#slot_cursor++;
        return slot;
    }
}

function execute_fullscreen(slot: DrawSlot, resources: FrameGraphResources, execution: FrameExecution): void {
    const state = slot.effect.state(execution.graphics);
    if (state.compile_error !== null) throw state.compile_error;
    const views = slot.views;
    views.length = slot.input_count;
    for (let i = 0; i < slot.input_count; i++) views[i] = resources.view(slot.inputs[i]);
    state.attachments[0] = resources.color_attachment(slot.output);
    state.pass_descriptor.timestampWrites = execution.timestamp_writes;
    const pass = execution.encoder.beginRenderPass(state.pass_descriptor);
    pass.setPipeline(state.pipeline);
    pass.setBindGroup(0, bind_group_for(execution.graphics, state, slot.effect.label, views));
    pass.draw(3);
    pass.end();
}

function bind_group_for(device: GPUDevice, state: DeviceState, label: string, views: GPUTextureView[]): GPUBindGroup {
    const cached = state.bind_groups.find(views);
    if (cached !== null) return cached;
    // a miss: new pooled textures (first frames, a resize)
    const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: state.sampler }];
    for (let i = 0; i < views.length; i++) entries.push({ binding: 1 + i, resource: views[i] });
    const group = device.createBindGroup({ label: `${label} bind group`, layout: state.layout, entries });
    return state.bind_groups.add(views, group);
}

function build_device_state(device: GPUDevice, options: FullscreenEffectOptions): DeviceState {
    const code = fullscreen_wgsl(options);
    const module = device.createShaderModule({ label: `${options.label} shader`, code });
    // explicit, so that an effect using only load_input_N still matches the sampler binding
    const layout_entries: GPUBindGroupLayoutEntry[] = [
        { binding: 0, visibility: GPUShaderStage.FRAGMENT, sampler: { type: "filtering" } },
    ];
    for (let i = 0; i < options.inputs; i++) {
        layout_entries.push({ binding: 1 + i, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "float" } });
    }
    const layout = device.createBindGroupLayout({ label: `${options.label} bind group layout`, entries: layout_entries });
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
    const sampler = device.createSampler({
        label: `${options.label} sampler`,
        magFilter: "linear",
        minFilter: "linear",
        addressModeU: "clamp-to-edge",
        addressModeV: "clamp-to-edge",
    });
    const attachments: GPURenderPassColorAttachment[] = [];
    const state: DeviceState = {
        pipeline,
        layout,
        sampler,
        bind_groups: new BindGroupCache(MAX_CACHED_BIND_GROUPS),
        attachments,
        pass_descriptor: { label: options.label, colorAttachments: attachments },
        compile_error: null,
    };
    void module.getCompilationInfo().then(
        (info) => {
            const errors = info.messages.filter((m) => m.type === "error");
            if (errors.length > 0) state.compile_error = wgsl_error(options, code, errors);
        },
        () => {}, // a lost device: nothing to report here
    );
    return state;
}

// Names the effect and quotes each failing line. Lines inside the user's fragment are numbered as in the
// fragment they wrote (line 1 is its first line), not as in the generated WGSL around it.
function wgsl_error(options: FullscreenEffectOptions, code: string, errors: readonly GPUCompilationMessage[]): Error {
    const lines = code.split("\n");
    const first = fragment_first_line(options);
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
function fragment_first_line(options: FullscreenEffectOptions): number {
    const marked = fullscreen_wgsl({ ...options, fragment: FRAGMENT_MARKER });
    return marked.slice(0, marked.indexOf(FRAGMENT_MARKER)).split("\n").length;
}

/** The WGSL of a fullscreen effect: a covering triangle, the input bindings and their helpers. */
export function fullscreen_wgsl(options: FullscreenEffectOptions): string {
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

${FULLSCREEN_VERTEX_WGSL}

${options.fragment}

@fragment
fn fs_main(in: FullscreenVarying) -> @location(0) vec4f {
    frag_coord = in.position.xy;
    return effect(in.uv);
}
`;
}
