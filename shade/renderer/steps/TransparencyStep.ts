import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import type { LightsBuffer } from "../mesh/LightsBuffer.js";
import type { LightTiles } from "../mesh/LightTiles.js";
import { LIGHTING_WGSL } from "../mesh/mesh_wgsl.js";
import { SURFACE_VERTEX_BUFFERS, SURFACE_WGSL } from "../mesh/surface_wgsl.js";
import { GBUFFER_FORMATS, draw_runs, type GBufferStep } from "./GBufferStep.js";
import { SCENE_COLOR_FORMAT } from "./LightingStep.js";
import { ShadowMap } from "../shadows/ShadowMap.js";
import { shadow_layout_entries, SHADOW_WGSL } from "../shadows/shadow_wgsl.js";

/** The forward shader; `shadows` adds the sun's shadow map at group 2, bindings 2-4. */
function forward_wgsl(shadows: boolean): string {
    return /* wgsl */ `
${SURFACE_WGSL}
${LIGHTING_WGSL}
@group(2) @binding(0) var<uniform> lights: Lights;
@group(2) @binding(1) var<storage, read> light_tiles: array<u32>;
${shadows ? SHADOW_BINDINGS_WGSL : ""}
@fragment
fn fs_forward(in: SurfaceVarying, @builtin(front_facing) front: bool) -> @location(0) vec4f {
    let s = material_surface(in, front, false);
    let n = s.normal;
    let v = normalize(camera.position.xyz - in.world_position);
    ${shadows ? SHADOWED_SUN_WGSL : "var color = shade_sun(&lights, n, v, s.albedo, s.roughness, s.metalness, 1.0);"}
    color += lights.ambient.rgb * s.albedo * s.occlusion;
    color += shade_tile_points(&lights, vec2u(in.clip.xy), in.world_position, n, v, s.albedo, s.roughness, s.metalness);
    color += s.emissive;
    return vec4f(color, s.alpha);
}
`;
}

const SHADOW_BINDINGS_WGSL = /* wgsl */ `@group(2) @binding(2) var shadow_map: texture_depth_2d;
@group(2) @binding(3) var shadow_sampler: sampler_comparison;
@group(2) @binding(4) var<uniform> shadow: ShadowCascades;
${SHADOW_WGSL}
`;

const SHADOWED_SUN_WGSL = /* wgsl */ `let sun = sun_shadow(in.world_position, n, -(camera.view * vec4f(in.world_position, 1.0)).z);
    var color = shade_sun(&lights, n, v, s.albedo, s.roughness, s.metalness, sun);`;

interface DeviceState {
    readonly pipeline: GPURenderPipeline;
    readonly lights_layout: GPUBindGroupLayout;
    lights_group: GPUBindGroup | null;
    tiles_buffer: GPUBuffer | null;
    lights_buffer: GPUBuffer | null;
    readonly shadow_sampler: GPUSampler | null;
    shadow_view: GPUTextureView | null;
    shadow_cascades: GPUBuffer | null;
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
    #shadow_map = -1;
    #shadow_cascades: GPUBuffer | null = null;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "transparency", colorAttachments: this.#colors };
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #per_device_shadowed = new WeakMap<GPUDevice, DeviceState>();

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
        if (frame.has(ShadowMap)) {
            const shadows = frame.get(ShadowMap);
            this.#shadow_map = pass.read(shadows.map);
            this.#shadow_cascades = shadows.cascades;
        } else {
            this.#shadow_map = -1;
            this.#shadow_cascades = null;
        }
        this.#color = pass.write(scene_color.color, "load");
        scene_color.color = this.#color;
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const gbuffer_state = this.#gbuffer.device_state(device);
        const shadowed = this.#shadow_map !== -1;
        const states = shadowed ? this.#per_device_shadowed : this.#per_device;
        let state = states.get(device);
        if (state === undefined) {
            state = build_state(device, gbuffer_state.scene_layout, gbuffer_state.materials.layout, shadowed);
            states.set(device, state);
        }
        const shadow_view = shadowed ? resources.view(this.#shadow_map) : null;
        // uploaded by the lighting pass earlier this frame
        const lights = this.#lights.buffer(device);
        const tiles = this.#tiles.buffer(device);
        if (state.lights_buffer !== lights || state.tiles_buffer !== tiles || state.shadow_view !== shadow_view || state.shadow_cascades !== this.#shadow_cascades) {
            const entries: GPUBindGroupEntry[] = [
                { binding: 0, resource: { buffer: lights } },
                { binding: 1, resource: { buffer: tiles } },
            ];
            if (shadowed) {
                entries.push(
                    { binding: 2, resource: shadow_view! },
                    { binding: 3, resource: state.shadow_sampler! },
                    { binding: 4, resource: { buffer: this.#shadow_cascades! } },
                );
            }
            state.lights_group = device.createBindGroup({ label: shadowed ? "transparency lights bind group (shadowed)" : "transparency lights bind group", layout: state.lights_layout, entries });
            state.lights_buffer = lights;
            state.tiles_buffer = tiles;
            state.shadow_view = shadow_view;
            state.shadow_cascades = this.#shadow_cascades;
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
        draw_runs(pass, gbuffer_state, list.blended_runs, list.blended_run_count, "surface");
        pass.end();
    }
}

function build_state(device: GPUDevice, scene_layout: GPUBindGroupLayout, material_layout: GPUBindGroupLayout, shadowed: boolean): DeviceState {
    const label = shadowed ? "transparency (shadowed)" : "transparency";
    const entries: GPUBindGroupLayoutEntry[] = [
        { binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } },
        { binding: 1, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "read-only-storage" } },
    ];
    if (shadowed) entries.push(...shadow_layout_entries(2, GPUShaderStage.FRAGMENT));
    const lights_layout = device.createBindGroupLayout({ label: `${label} lights bind group layout`, entries });
    const module = device.createShaderModule({ label: `${label} shader`, code: forward_wgsl(shadowed) });
    const pipeline = device.createRenderPipeline({
        label: `${label} pipeline`,
        layout: device.createPipelineLayout({
            label: `${label} pipeline layout`,
            bindGroupLayouts: [scene_layout, material_layout, lights_layout],
        }),
        vertex: { module, entryPoint: "vs_surface", buffers: SURFACE_VERTEX_BUFFERS },
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
    const shadow_sampler = shadowed
        ? device.createSampler({ label: "transparency shadow comparison sampler", compare: "less-equal", magFilter: "linear", minFilter: "linear" })
        : null;
    return { pipeline, lights_layout, lights_group: null, lights_buffer: null, tiles_buffer: null, shadow_sampler, shadow_view: null, shadow_cascades: null };
}

function execute_transparency(step: TransparencyStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}
