import { environment_bindings_wgsl, environment_layout_entries, ENVIRONMENT_WGSL } from "../environment/environment_wgsl.js";
import type { Environment } from "../environment/Environment.js";
import type { Scene } from "../scene/Scene.js";
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

/** First binding of the scene environment in the lights group (group 2), past the shadow map's. */
const ENVIRONMENT_BINDING = 5;

/**
 * The forward shader; `shadows` adds the sun's shadow map at group 2, bindings 2-4; `environment` the scene's
 * environment at bindings 5-9, as the ambient light (what the deferred lighting does for opaque surfaces).
 */
function forward_wgsl(shadows: boolean, environment: boolean): string {
    return /* wgsl */ `
${SURFACE_WGSL}
${LIGHTING_WGSL}
@group(2) @binding(0) var<uniform> lights: Lights;
@group(2) @binding(1) var<storage, read> light_tiles: array<u32>;
${shadows ? SHADOW_BINDINGS_WGSL : ""}${environment ? `${environment_bindings_wgsl(ENVIRONMENT_BINDING, 2)}${ENVIRONMENT_WGSL}` : ""}
@fragment
fn fs_forward(in: SurfaceVarying, @builtin(front_facing) front: bool) -> @location(0) vec4f {
    let s = material_surface(in, front, false);
    let n = s.normal;
    let v = normalize(camera.position.xyz - in.world_position);
    ${shadows ? SHADOWED_SUN_WGSL : "var color = shade_sun(&lights, n, v, s.albedo, s.roughness, s.metalness, 1.0);"}
    ${environment ? "color += environment_light(n, v, s.albedo, s.roughness, s.metalness) * s.occlusion;" : "color += lights.ambient.rgb * s.albedo * s.occlusion;"}
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
    /** The environment's uniforms the lights group was made with (they change with the environment and its device). */
    environment_uniforms: GPUBuffer | null;
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
    // by variant: bit 0 shadowed, bit 1 the scene's environment
    readonly #per_device = [new WeakMap<GPUDevice, DeviceState>(), new WeakMap<GPUDevice, DeviceState>(), new WeakMap<GPUDevice, DeviceState>(), new WeakMap<GPUDevice, DeviceState>()];
    #environment: Environment | null = null;

    constructor(gbuffer: GBufferStep, lights: LightsBuffer, tiles: LightTiles) {
        this.#gbuffer = gbuffer;
        this.#lights = lights;
        this.#tiles = tiles;
    }

    /** Records the forward pass when the scene has blended meshes this frame; otherwise records nothing. */
    record(frame: FrameContext, scene: Scene): void {
        if (this.#gbuffer.draw_list.blended_run_count === 0) return;
        this.#environment = scene.environment;
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
        const environment = this.#environment;
        const states = this.#per_device[(shadowed ? 1 : 0) | (environment !== null ? 2 : 0)];
        let state = states.get(device);
        if (state === undefined) {
            state = build_state(device, gbuffer_state.scene_layout, gbuffer_state.materials.layout, shadowed, environment !== null);
            states.set(device, state);
        }
        // prefiltered on this device the first time (its own submission, ahead of this frame's)
        const textures = environment !== null ? environment.textures(device) : null;
        const shadow_view = shadowed ? resources.view(this.#shadow_map) : null;
        // uploaded by the lighting pass earlier this frame
        const lights = this.#lights.buffer(device);
        const tiles = this.#tiles.buffer(device);
        const environment_uniforms = textures !== null ? textures.uniforms : null;
        if (state.lights_buffer !== lights || state.tiles_buffer !== tiles || state.shadow_view !== shadow_view || state.shadow_cascades !== this.#shadow_cascades || state.environment_uniforms !== environment_uniforms) {
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
            if (textures !== null) {
                entries.push(
                    { binding: ENVIRONMENT_BINDING, resource: textures.specular_view },
                    { binding: ENVIRONMENT_BINDING + 1, resource: textures.irradiance_view },
                    { binding: ENVIRONMENT_BINDING + 2, resource: textures.brdf_lut_view },
                    { binding: ENVIRONMENT_BINDING + 3, resource: textures.sampler },
                    { binding: ENVIRONMENT_BINDING + 4, resource: { buffer: textures.uniforms } },
                );
            }
            state.lights_group = device.createBindGroup({ label: `transparency lights bind group${shadowed ? " (shadowed)" : ""}${textures !== null ? " (environment)" : ""}`, layout: state.lights_layout, entries });
            state.lights_buffer = lights;
            state.tiles_buffer = tiles;
            state.shadow_view = shadow_view;
            state.shadow_cascades = this.#shadow_cascades;
            state.environment_uniforms = environment_uniforms;
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

function build_state(device: GPUDevice, scene_layout: GPUBindGroupLayout, material_layout: GPUBindGroupLayout, shadowed: boolean, environment: boolean): DeviceState {
    const label = `transparency${shadowed ? " (shadowed)" : ""}${environment ? " (environment)" : ""}`;
    const entries: GPUBindGroupLayoutEntry[] = [
        { binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } },
        { binding: 1, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "read-only-storage" } },
    ];
    if (shadowed) entries.push(...shadow_layout_entries(2, GPUShaderStage.FRAGMENT));
    if (environment) entries.push(...environment_layout_entries(ENVIRONMENT_BINDING, GPUShaderStage.FRAGMENT));
    const lights_layout = device.createBindGroupLayout({ label: `${label} lights bind group layout`, entries });
    const module = device.createShaderModule({ label: `${label} shader`, code: forward_wgsl(shadowed, environment) });
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
    return { pipeline, lights_layout, lights_group: null, lights_buffer: null, tiles_buffer: null, shadow_sampler, shadow_view: null, shadow_cascades: null, environment_uniforms: null };
}

function execute_transparency(step: TransparencyStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}
