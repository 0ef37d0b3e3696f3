import { BindGroupCache } from "../../device/BindGroupCache.js";
import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import { AmbientOcclusion } from "../extension/AmbientOcclusion.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { FramePhase } from "../extension/FramePhase.js";
import { GBufferTextures } from "../extension/GBufferTextures.js";
import { RenderExtension } from "../extension/RenderExtension.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import { check_fullscreen_path, use_compute, type FullscreenPath } from "../fullscreen/FullscreenPath.js";
import { gtao_denoise_wgsl, gtao_horizons_wgsl, GTAO_HORIZONS_FORMAT, GTAO_OUTPUT_FORMAT, GTAO_PARAMS_FLOATS } from "./gtao_wgsl.js";

export interface GTAOExtensionOptions {
    /** World units around a pixel within which geometry occludes it (fading out over the outer 60 %). Default 0.5. */
    readonly radius?: number;
    /** Exponent on the visibility: above 1 darkens the occlusion, below 1 lightens it. Default 1.5. */
    readonly power?: number;
    /** Compute the horizons at half the internal resolution on each axis (the denoise upsamples). Default true. */
    readonly half_resolution?: boolean;
    /** Slices (directions) per pixel, 1 to 8. Default 2. */
    readonly slices?: number;
    /** Horizon search steps per side of a slice, 1 to 16. Default 4. */
    readonly steps?: number;
    /** Cap of the radius on screen, in full-resolution pixels. Default 128. */
    readonly max_radius_pixels?: number;
    /** Depth difference, relative to a pixel's depth, at which the denoise stops mixing a texel in. Default 0.1. */
    readonly depth_tolerance?: number;
    /** Raster, compute or "auto" (default: the device's `fullscreen_paths`, else compute on GPUs). */
    readonly path?: FullscreenPath;
}

// RENDER_ATTACHMENT | STORAGE_BINDING | TEXTURE_BINDING | COPY_SRC: either path can write them, the lighting
// samples the output, an ExtractExtension can copy it
const USAGE = 0x10 | 0x08 | 0x04 | 0x01;
const HORIZONS = 0;
const DENOISE = 1;

interface PassState {
    readonly raster: GPURenderPipeline;
    readonly raster_layout: GPUBindGroupLayout;
    compute: GPUComputePipeline | null;
    compute_layout: GPUBindGroupLayout | null;
    readonly groups: BindGroupCache;
    readonly keys: unknown[];
    readonly attachments: GPURenderPassColorAttachment[];
    readonly render_descriptor: GPURenderPassDescriptor;
    readonly compute_descriptor: GPUComputePassDescriptor;
}

interface DeviceState {
    readonly params: GPUBuffer;
    readonly passes: readonly [PassState, PassState];
}

/** One of the two passes, as the graph hands it back. */
interface PassSlot {
    readonly extension: GTAOExtension;
    readonly pass: number;
    /** The second texture the pass reads: the G-buffer normal (horizons) or the horizons (denoise). */
    input: FrameGraphHandle;
    output: FrameGraphHandle;
}

/**
 * Ground-truth ambient occlusion (GTAO): at AfterGBuffer, from the view's depth and the G-buffer normals, a
 * horizon search over a few slices per pixel (rotated by a 4x4 pattern) integrates the cosine-weighted visible
 * arc ("gtao / horizons", half resolution by default), then a depth-aware 4x4 denoise upsamples it to the
 * internal resolution ("gtao / denoise") and publishes it as the frame's `AmbientOcclusion`, which the deferred
 * lighting multiplies into the ambient and environment light. Runs compute on GPUs and raster on CPU devices
 * (`FullscreenPath`). Not registered, it costs nothing: no pass, the lighting's shader without occlusion.
 */
export class GTAOExtension extends RenderExtension {
    override name = "gtao";
    override phase = FramePhase.AfterGBuffer;

    radius: number;
    power: number;
    half_resolution: boolean;
    slices: number;
    steps: number;
    max_radius_pixels: number;
    depth_tolerance: number;
    readonly path: FullscreenPath;

    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #states: DeviceState[] = [];
    readonly #data = new ArrayBuffer(GTAO_PARAMS_FLOATS * 4);
    readonly #floats = new Float32Array(this.#data);
    readonly #uints = new Uint32Array(this.#data);
    readonly #slots: readonly [PassSlot, PassSlot] = [
        { extension: this, pass: HORIZONS, input: -1, output: -1 },
        { extension: this, pass: DENOISE, input: -1, output: -1 },
    ];
    #depth: FrameGraphHandle = -1;
    #camera: GPUBuffer | null = null;

    constructor(options: GTAOExtensionOptions = {}) {
        super();
        this.radius = positive(options.radius ?? 0.5, "radius");
        this.power = positive(options.power ?? 1.5, "power");
        this.half_resolution = options.half_resolution ?? true;
        this.slices = whole(options.slices ?? 2, 1, 8, "slices");
        this.steps = whole(options.steps ?? 4, 1, 16, "steps");
        this.max_radius_pixels = positive(options.max_radius_pixels ?? 128, "max_radius_pixels");
        this.depth_tolerance = positive(options.depth_tolerance ?? 0.1, "depth_tolerance");
        this.path = check_fullscreen_path(options.path ?? "auto", "GTAOExtension");
    }

    override record(frame: FrameContext): void {
        const g = frame.get(GBufferTextures);
        const graph = frame.graph;
        const width = frame.resolution[0];
        const height = frame.resolution[1];
        const half = this.half_resolution;
        this.#camera = frame.view.camera.buffer;
        const horizons = this.#slots[HORIZONS];
        const first = graph.add("gtao / horizons", horizons, execute_pass);
        this.#depth = first.read(frame.get(ViewTextures).depth);
        horizons.input = first.read(g.normal);
        const raw = first.create(
            "gtao horizons",
            TextureResourceDescriptor.of(half ? (width + 1) >> 1 : width, half ? (height + 1) >> 1 : height, GTAO_HORIZONS_FORMAT, USAGE),
        );
        horizons.output = first.write(raw);
        const denoise = this.#slots[DENOISE];
        const second = graph.add("gtao / denoise", denoise, execute_pass);
        second.read(this.#depth);
        denoise.input = second.read(horizons.output);
        denoise.output = second.write(second.create("ambient occlusion", TextureResourceDescriptor.of(width, height, GTAO_OUTPUT_FORMAT, USAGE)));
        frame.create(AmbientOcclusion).texture = denoise.output;
    }

    /** @internal */
    execute(pass: number, input: FrameGraphHandle, output: FrameGraphHandle, resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        if (pass === HORIZONS) {
            const f = this.#floats;
            const u = this.#uints;
            f[0] = this.radius;
            f[1] = this.radius * (1 - 0.615);
            f[2] = this.power;
            f[3] = this.max_radius_pixels;
            u[4] = this.slices;
            u[5] = this.steps;
            u[6] = this.half_resolution ? 2 : 1;
            f[7] = this.depth_tolerance;
            device.queue.writeBuffer(state.params, 0, this.#data);
        }
        const p = state.passes[pass];
        const keys = p.keys;
        keys[0] = this.#camera;
        keys[1] = state.params;
        keys[2] = resources.view(this.#depth);
        keys[3] = resources.view(input);
        if (use_compute(device, this.path)) {
            const label = pass === HORIZONS ? "gtao horizons (compute)" : "gtao denoise (compute)";
            if (p.compute === null) build_compute(device, p, pass, label);
            keys[4] = resources.view(output);
            keys.length = 5;
            const size = resources.texture(output);
            p.compute_descriptor.timestampWrites = execution.timestamp_writes;
            const encoder = execution.encoder.beginComputePass(p.compute_descriptor);
            encoder.setPipeline(p.compute!);
            encoder.setBindGroup(0, group_for(device, p, p.compute_layout!, label));
            // integer shifts, not Math.ceil: a double handed to the call would be boxed
            encoder.dispatchWorkgroups((size.width + 7) >> 3, (size.height + 7) >> 3);
            encoder.end();
            return;
        }
        keys.length = 4;
        p.attachments[0] = resources.color_attachment(output);
        p.render_descriptor.timestampWrites = execution.timestamp_writes;
        const encoder = execution.encoder.beginRenderPass(p.render_descriptor);
        encoder.setPipeline(p.raster);
        encoder.setBindGroup(0, group_for(device, p, p.raster_layout, pass === HORIZONS ? "gtao horizons" : "gtao denoise"));
        encoder.draw(3);
        encoder.end();
    }

    override destroy(): void {
        for (const state of this.#states) state.params.destroy();
        this.#states.length = 0;
    }

    #state(device: GPUDevice): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            const params = device.createBuffer({ label: "gtao params", size: GTAO_PARAMS_FLOATS * 4, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
            state = { params, passes: [build_pass(device, HORIZONS, "gtao horizons"), build_pass(device, DENOISE, "gtao denoise")] };
            this.#per_device.set(device, state);
            this.#states.push(state);
        }
        return state;
    }
}

function execute_pass(slot: PassSlot, resources: FrameGraphResources, execution: FrameExecution): void {
    slot.extension.execute(slot.pass, slot.input, slot.output, resources, execution);
}

function layout_entries(visibility: number): GPUBindGroupLayoutEntry[] {
    return [
        { binding: 0, visibility, buffer: { type: "uniform" } },
        { binding: 1, visibility, buffer: { type: "uniform" } },
        { binding: 2, visibility, texture: { sampleType: "depth" } },
        // the G-buffer normal (horizons) or the horizons (denoise), both read with textureLoad
        { binding: 3, visibility, texture: { sampleType: "unfilterable-float" } },
    ];
}

function build_pass(device: GPUDevice, pass: number, label: string): PassState {
    const layout = device.createBindGroupLayout({ label: `${label} bind group layout`, entries: layout_entries(GPUShaderStage.FRAGMENT) });
    const module = device.createShaderModule({ label: `${label} shader`, code: pass === HORIZONS ? gtao_horizons_wgsl(false) : gtao_denoise_wgsl(false) });
    const raster = device.createRenderPipeline({
        label: `${label} pipeline`,
        layout: device.createPipelineLayout({ label: `${label} pipeline layout`, bindGroupLayouts: [layout] }),
        vertex: { module, entryPoint: "vs_fullscreen" },
        fragment: { module, entryPoint: "fs_main", targets: [{ format: pass === HORIZONS ? GTAO_HORIZONS_FORMAT : GTAO_OUTPUT_FORMAT }] },
        primitive: { topology: "triangle-list" },
    });
    const attachments: GPURenderPassColorAttachment[] = [];
    return {
        raster,
        raster_layout: layout,
        compute: null,
        compute_layout: null,
        // raster and compute groups differ in their key count (the compute output's view last)
        groups: new BindGroupCache(16),
        keys: [],
        attachments,
        render_descriptor: { label, colorAttachments: attachments },
        compute_descriptor: { label: `${label} (compute)` },
    };
}

function build_compute(device: GPUDevice, p: PassState, pass: number, label: string): void {
    const entries = layout_entries(GPUShaderStage.COMPUTE);
    entries.push({ binding: 4, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: "write-only", format: pass === HORIZONS ? GTAO_HORIZONS_FORMAT : GTAO_OUTPUT_FORMAT } });
    const layout = device.createBindGroupLayout({ label: `${label} bind group layout`, entries });
    const module = device.createShaderModule({ label: `${label} shader`, code: pass === HORIZONS ? gtao_horizons_wgsl(true) : gtao_denoise_wgsl(true) });
    p.compute_layout = layout;
    p.compute = device.createComputePipeline({
        label: `${label} pipeline`,
        layout: device.createPipelineLayout({ label: `${label} pipeline layout`, bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: "cs_main" },
    });
}

function group_for(device: GPUDevice, p: PassState, layout: GPUBindGroupLayout, label: string): GPUBindGroup {
    const keys = p.keys;
    const cached = p.groups.find(keys);
    if (cached !== null) return cached;
    const entries: GPUBindGroupEntry[] = [
        { binding: 0, resource: { buffer: keys[0] as GPUBuffer } },
        { binding: 1, resource: { buffer: keys[1] as GPUBuffer } },
        { binding: 2, resource: keys[2] as GPUTextureView },
        { binding: 3, resource: keys[3] as GPUTextureView },
    ];
    if (keys.length === 5) entries.push({ binding: 4, resource: keys[4] as GPUTextureView });
    return p.groups.add(keys, device.createBindGroup({ label: `${label} bind group`, layout, entries }));
}

function positive(value: number, name: string): number {
    if (!(typeof value === "number" && value > 0 && Number.isFinite(value))) {
        throw new RangeError(`GTAOExtension: ${name} must be a finite number above 0, got ${String(value)}`);
    }
    return value;
}

function whole(value: number, min: number, max: number, name: string): number {
    if (!(Number.isInteger(value) && value >= min && value <= max)) {
        throw new RangeError(`GTAOExtension: ${name} must be an integer in [${min}, ${max}], got ${String(value)}`);
    }
    return value;
}
