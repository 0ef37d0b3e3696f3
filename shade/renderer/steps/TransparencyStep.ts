import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import type { LightsBuffer } from "../mesh/LightsBuffer.js";
import type { LightTiles } from "../mesh/LightTiles.js";
import { LIGHTING_WGSL, MESH_VERTEX_WGSL } from "../mesh/mesh_wgsl.js";
import { GBUFFER_FORMATS, MESH_VERTEX_BUFFERS, draw_runs, type GBufferStep } from "./GBufferStep.js";
import { SCENE_COLOR_FORMAT } from "./LightingStep.js";

const FORWARD_WGSL = /* wgsl */ `
${MESH_VERTEX_WGSL}
${LIGHTING_WGSL}
@group(1) @binding(0) var base_sampler: sampler;
@group(1) @binding(1) var base_texture: texture_2d<f32>;
@group(2) @binding(0) var<uniform> lights: Lights;
@group(2) @binding(1) var<storage, read> light_tiles: array<u32>;

@fragment
fn fs_forward(in: MeshVarying, @builtin(front_facing) front: bool) -> @location(0) vec4f {
    let o = objects[in.object];
    let texel = textureSample(base_texture, base_sampler, in.uv);
    let base = o.base_color * texel;
    var n = normalize(in.normal);
    if (!front) { n = -n; }
    let v = normalize(camera.position.xyz - in.world_position);
    var color = shade_ambient_sun(&lights, n, v, base.rgb, o.params.x, o.params.y);
    color += shade_tile_points(&lights, vec2u(in.clip.xy), in.world_position, n, v, base.rgb, o.params.x, o.params.y);
    return vec4f(color, base.a);
}
`;

interface DeviceState {
    readonly pipeline: GPURenderPipeline;
    readonly lights_layout: GPUBindGroupLayout;
    lights_group: GPUBindGroup | null;
    tiles_buffer: GPUBuffer | null;
    lights_buffer: GPUBuffer | null;
}

/**
 * Forward transparency: blended meshes, sorted back to front, lit like the deferred pass and composed over
 * the scene colour (straight alpha), depth-tested against the opaque depth without writing it.
 */
export class TransparencyStep {
    readonly #gbuffer: GBufferStep;
    readonly #lights: LightsBuffer;
    readonly #tiles: LightTiles;
    #color = -1;
    #depth = -1;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "transparency", colorAttachments: this.#colors };
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();

    constructor(gbuffer: GBufferStep, lights: LightsBuffer, tiles: LightTiles) {
        this.#gbuffer = gbuffer;
        this.#lights = lights;
        this.#tiles = tiles;
    }

    /** Records the forward pass when the scene has blended meshes this frame; otherwise records nothing. */
    record(frame: FrameContext): void {
        if (this.#gbuffer.draw_list.blended_run_count === 0) return;
        const scene_color = frame.get(SceneColor);
        const pass = frame.graph.add("transparency", this, execute_transparency);
        this.#depth = pass.read(frame.get(ViewTextures).depth);
        this.#color = pass.write(scene_color.color, "load");
        scene_color.color = this.#color;
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const gbuffer_state = this.#gbuffer.device_state(device);
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_state(device, gbuffer_state.scene_layout, gbuffer_state.materials.layout);
            this.#per_device.set(device, state);
        }
        // uploaded by the lighting pass earlier this frame
        const lights = this.#lights.buffer(device);
        const tiles = this.#tiles.buffer(device);
        if (state.lights_buffer !== lights || state.tiles_buffer !== tiles) {
            state.lights_group = device.createBindGroup({
                label: "transparency lights bind group",
                layout: state.lights_layout,
                entries: [
                    { binding: 0, resource: { buffer: lights } },
                    { binding: 1, resource: { buffer: tiles } },
                ],
            });
            state.lights_buffer = lights;
            state.tiles_buffer = tiles;
        }
        this.#colors[0] = resources.color_attachment(this.#color);
        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#depth);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setPipeline(state.pipeline);
        // uploaded and built by the G-buffer pass earlier this frame
        pass.setBindGroup(0, gbuffer_state.scene_group!);
        pass.setBindGroup(2, state.lights_group!);
        const list = this.#gbuffer.draw_list;
        draw_runs(pass, gbuffer_state, list.blended_runs, list.blended_run_count);
        pass.end();
    }
}

function build_state(device: GPUDevice, scene_layout: GPUBindGroupLayout, material_layout: GPUBindGroupLayout): DeviceState {
    const lights_layout = device.createBindGroupLayout({
        label: "transparency lights bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } },
            { binding: 1, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "read-only-storage" } },
        ],
    });
    const module = device.createShaderModule({ label: "transparency shader", code: FORWARD_WGSL });
    const pipeline = device.createRenderPipeline({
        label: "transparency pipeline",
        layout: device.createPipelineLayout({
            label: "transparency pipeline layout",
            bindGroupLayouts: [scene_layout, material_layout, lights_layout],
        }),
        vertex: { module, entryPoint: "vs_mesh", buffers: MESH_VERTEX_BUFFERS },
        fragment: {
            module,
            entryPoint: "fs_forward",
            targets: [
                {
                    format: SCENE_COLOR_FORMAT,
                    blend: {
                        color: { srcFactor: "src-alpha", dstFactor: "one-minus-src-alpha" },
                        alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha" },
                    },
                },
            ],
        },
        primitive: { topology: "triangle-list", cullMode: "none" },
        depthStencil: { format: GBUFFER_FORMATS.depth, depthWriteEnabled: false, depthCompare: "less" },
    });
    return { pipeline, lights_layout, lights_group: null, lights_buffer: null, tiles_buffer: null };
}

function execute_transparency(step: TransparencyStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}
