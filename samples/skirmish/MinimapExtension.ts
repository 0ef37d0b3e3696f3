import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { PresentTarget } from "../../shade/renderer/extension/PresentTarget.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";

/** Where the minimap's dots come from: `count` units, xz and team (0 or 1) at `xzt[i * 3 ..]`. */
export interface MinimapSource {
    readonly count: number;
    readonly xzt: Float32Array;
}

const WGSL = /* wgsl */ `
struct Map { rect: vec4f, bounds: vec4f, dot: vec2f, count: u32, pad: u32 }
@group(0) @binding(0) var<uniform> map: Map;
@group(0) @binding(1) var<storage, read> units: array<vec4f>;
struct Out { @builtin(position) position: vec4f, @location(0) colour: vec4f, @location(1) local: vec2f }
const CORNERS = array<vec2f, 6>(vec2f(-1, -1), vec2f(1, -1), vec2f(1, 1), vec2f(-1, -1), vec2f(1, 1), vec2f(-1, 1));
@vertex fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> Out {
    var out: Out;
    let corner = CORNERS[v];
    out.local = corner;
    if (i == 0u) {
        // the map's background
        let p = map.rect.xy + (corner * 0.5 + 0.5) * map.rect.zw;
        out.position = vec4f(p, 0.0, 1.0);
        out.colour = vec4f(0.06, 0.08, 0.1, 0.72);
        return out;
    }
    let u = units[i - 1u];
    let t = clamp((u.xy - map.bounds.xy) / map.bounds.zw, vec2f(0.0), vec2f(1.0));
    let centre = map.rect.xy + vec2f(t.x, 1.0 - t.y) * map.rect.zw;
    out.position = vec4f(centre + corner * map.dot, 0.0, 1.0);
    out.colour = select(vec4f(1.0, 0.42, 0.28, 1.0), vec4f(0.4, 0.7, 1.0, 1.0), u.z < 0.5);
    return out;
}
@fragment fn fs(in: Out) -> @location(0) vec4f {
    if (in.colour.a > 0.9 && dot(in.local, in.local) > 1.0) { discard; }
    return in.colour;
}`;

interface DeviceState {
    readonly pipeline: GPURenderPipeline;
    readonly uniforms: GPUBuffer;
    units: GPUBuffer;
    group: GPUBindGroup;
    readonly layout: GPUBindGroupLayout;
    capacity: number;
}

/** A minimap in the canvas's top-right corner at Overlay: the ground seen from above and every unit as a dot. */
export class MinimapExtension extends RenderExtension {
    name = "minimap";
    phase = FramePhase.Overlay;
    readonly #source: MinimapSource;
    /** World-space xz rectangle the map shows: min x, min z, width, depth. */
    readonly bounds = new Float32Array([-20, -20, 40, 40]);
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #uniform_data = new Float32Array(12);
    readonly #uniform_u32 = new Uint32Array(this.#uniform_data.buffer);
    readonly #pass = { extension: this, target: -1 as FrameGraphHandle, width: 1, height: 1, format: "rgba8unorm" as GPUTextureFormat };
    readonly #attachments: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "minimap / draw", colorAttachments: this.#attachments };

    constructor(source: MinimapSource) {
        super();
        this.#source = source;
    }

    record(frame: FrameContext): void {
        const present = frame.get(PresentTarget);
        const pass = this.#pass;
        const b = frame.graph.add("minimap / draw", pass, execute_minimap);
        pass.target = b.write(present.target, "load");
        pass.width = frame.resolution[0];
        pass.height = frame.resolution[1];
        pass.format = frame.describe(present.target).format;
        present.target = pass.target;
    }

    /** @internal the pass's GPU work */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const pass = this.#pass;
        const device = execution.graphics;
        const state = this.#state(device, pass.format);
        const source = this.#source;
        if (state.capacity < source.count) this.#grow(device, state, source.count);
        // the map: a square of a quarter of the height, in the top-right corner, in clip space
        const size_px = Math.round(pass.height * 0.28);
        const margin_px = 12;
        const w = (size_px / pass.width) * 2;
        const h = (size_px / pass.height) * 2;
        const u = this.#uniform_data;
        u[0] = 1 - (margin_px / pass.width) * 2 - w;
        u[1] = 1 - (margin_px / pass.height) * 2 - h;
        u[2] = w;
        u[3] = h;
        u.set(this.bounds, 4);
        u[8] = (2.2 / pass.width) * 2;
        u[9] = (2.2 / pass.height) * 2;
        this.#uniform_u32[10] = source.count;
        device.queue.writeBuffer(state.uniforms, 0, u);
        if (source.count > 0) device.queue.writeBuffer(state.units, 0, unit_data(source), 0, source.count * 4);
        this.#attachments[0] = resources.color_attachment(pass.target);
        const encoder = execution.encoder.beginRenderPass(this.#descriptor);
        encoder.setPipeline(state.pipeline);
        encoder.setBindGroup(0, state.group);
        encoder.draw(6, source.count + 1);
        encoder.end();
    }

    #state(device: GPUDevice, format: GPUTextureFormat): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            const module = device.createShaderModule({ label: "minimap shader", code: WGSL });
            const layout = device.createBindGroupLayout({
                label: "minimap bind group layout",
                entries: [
                    { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform" } },
                    { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: "read-only-storage" } },
                ],
            });
            const pipeline = device.createRenderPipeline({
                label: "minimap pipeline",
                layout: device.createPipelineLayout({ label: "minimap pipeline layout", bindGroupLayouts: [layout] }),
                vertex: { module, entryPoint: "vs" },
                fragment: {
                    module,
                    entryPoint: "fs",
                    targets: [{ format, blend: { color: { srcFactor: "src-alpha", dstFactor: "one-minus-src-alpha" }, alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha" } } }],
                },
            });
            const uniforms = device.createBuffer({ label: "minimap uniforms", size: 48, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
            state = { pipeline, uniforms, layout, units: null as unknown as GPUBuffer, group: null as unknown as GPUBindGroup, capacity: 0 };
            this.#grow(device, state, 256);
            this.#per_device.set(device, state);
        }
        return state;
    }

    #grow(device: GPUDevice, state: DeviceState, count: number): void {
        let capacity = Math.max(state.capacity, 256);
        while (capacity < count) capacity *= 2;
        state.units?.destroy();
        state.units = device.createBuffer({ label: "minimap units", size: capacity * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        state.group = device.createBindGroup({
            label: "minimap bind group",
            layout: state.layout,
            entries: [
                { binding: 0, resource: { buffer: state.uniforms } },
                { binding: 1, resource: { buffer: state.units } },
            ],
        });
        state.capacity = capacity;
    }
}

let packed = new Float32Array(1024);

// xz + team into vec4s for the GPU, in a buffer kept between frames
function unit_data(source: MinimapSource): Float32Array {
    if (packed.length < source.count * 4) packed = new Float32Array(source.count * 8);
    for (let i = 0; i < source.count; i++) {
        packed[i * 4] = source.xzt[i * 3];
        packed[i * 4 + 1] = source.xzt[i * 3 + 1];
        packed[i * 4 + 2] = source.xzt[i * 3 + 2];
        packed[i * 4 + 3] = 1;
    }
    return packed;
}

function execute_minimap(pass: { extension: MinimapExtension }, resources: FrameGraphResources, execution: FrameExecution): void {
    pass.extension.execute(resources, execution);
}
