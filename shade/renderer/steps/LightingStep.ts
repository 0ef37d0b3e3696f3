import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { GBufferTextures } from "../extension/GBufferTextures.js";
import { SceneColor } from "../extension/SceneColor.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import { LightsBuffer } from "../mesh/LightsBuffer.js";
import { LightTiles } from "../mesh/LightTiles.js";
import { LIGHTING_WGSL } from "../mesh/mesh_wgsl.js";
import { CAMERA_WGSL } from "../scene/Camera.js";
import { FULLSCREEN_VERTEX_WGSL } from "../fullscreen/fullscreen_vertex_wgsl.js";
import type { Scene } from "../scene/Scene.js";
import { ShadowMap } from "../shadows/ShadowMap.js";
import { SHADOW_WGSL } from "../shadows/shadow_wgsl.js";
import { use_compute } from "../fullscreen/FullscreenPath.js";
import { environment_bindings_wgsl, ENVIRONMENT_WGSL } from "../environment/environment_wgsl.js";
import { AmbientOcclusion } from "../extension/AmbientOcclusion.js";
import {
    AMBIENT_OCCLUSION_BINDING,
    compute_group_for,
    COMPUTE_OUTPUT_BINDING,
    ENVIRONMENT_BINDING,
    group_for,
    key_count,
    make_lighting_compute,
    make_lighting_state,
    variant_of,
    type LightingDeviceState,
} from "./make_lighting_pipelines.js";

/** Format of the HDR scene colour. */
export const SCENE_COLOR_FORMAT: GPUTextureFormat = "rgba16float";
// storage too: the compute path writes it (FullscreenPath)
const SCENE_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x08 /* STORAGE_BINDING */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

const FRAGMENT_ENTRY = "@fragment\nfn fs_main(in: FullscreenVarying) -> @location(0) vec4f {";

/**
 * The deferred lighting as a compute shader: the fragment entry of `deferred_wgsl` becomes a function that each
 * invocation calls with the varying a fragment at its pixel's centre would get, and stores the result.
 */
export function deferred_compute_wgsl(shadows: boolean, environment = false, ambient_occlusion = false): string {
    const fragment = deferred_wgsl(shadows, environment, ambient_occlusion);
    if (!fragment.includes(FRAGMENT_ENTRY)) throw new Error("deferred_compute_wgsl: the lighting shader's fragment entry is not where it was");
    return `${fragment.replace(FRAGMENT_ENTRY, "fn shade_pixel(in: FullscreenVarying) -> vec4f {")}
@group(0) @binding(${COMPUTE_OUTPUT_BINDING}) var lit_output: texture_storage_2d<${SCENE_COLOR_FORMAT}, write>;

@compute @workgroup_size(8, 8)
fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(lit_output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    let centre = vec2f(id.xy) + 0.5;
    textureStore(lit_output, id.xy, shade_pixel(FullscreenVarying(vec4f(centre, 0.5, 1.0), centre / vec2f(size))));
}
`;
}

/**
 * The deferred lighting shader; `shadows` adds the sun's shadow map (bindings 7-9, `SHADOW_WGSL`). Without
 * shadows the text is the shader as it was before shadows existed. `environment` adds the scene's `Environment`
 * (bindings 16-20, `ENVIRONMENT_WGSL`): it replaces the flat ambient term and shows where no geometry is; without
 * it the text is the shader as it was before environments existed. `ambient_occlusion` adds the frame's
 * `AmbientOcclusion` texture (bindings 11-12), sampled at the pixel's uv and multiplied into the material's
 * occlusion (ambient and environment light only); without it the text is the shader as it was before.
 */
export function deferred_wgsl(shadows: boolean, environment = false, ambient_occlusion = false): string {
    return /* wgsl */ `
${CAMERA_WGSL}
${LIGHTING_WGSL}
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<uniform> lights: Lights;
@group(0) @binding(2) var albedo_target: texture_2d<f32>;
@group(0) @binding(3) var normal_target: texture_2d<f32>;
@group(0) @binding(4) var material_target: texture_2d<u32>;
@group(0) @binding(5) var depth_target: texture_depth_2d;
@group(0) @binding(6) var<storage, read> light_tiles: array<u32>;
// emitted radiance (rgb) and ambient occlusion (a) of the surface
@group(0) @binding(10) var emissive_target: texture_2d<f32>;
${shadows ? SHADOW_BINDINGS_WGSL : ""}${environment ? ENVIRONMENT_BINDINGS_WGSL : ""}${ambient_occlusion ? AMBIENT_OCCLUSION_BINDINGS_WGSL : ""}
${FULLSCREEN_VERTEX_WGSL}

@fragment
fn fs_main(in: FullscreenVarying) -> @location(0) vec4f {
    let position = in.position;
    let pixel = vec2i(position.xy);
    let albedo = textureLoad(albedo_target, pixel, 0).rgb;
    let material = textureLoad(material_target, pixel, 0);
    if ((material.y & 1u) == 0u) {${environment ? ENVIRONMENT_SKY_WGSL : ""}
        // nothing lit here (the sky, unlit surfaces): albedo is the radiance
        return vec4f(albedo, 1.0);
    }
    let normal_roughness = textureLoad(normal_target, pixel, 0);
    let depth = textureLoad(depth_target, pixel, 0);
    let uv = (position.xy) * camera.viewport.zw;
    let ndc = vec4f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, depth, 1.0);
    let world = camera.inverse_view_projection * ndc;
    let p = world.xyz / world.w;
    let n = normalize(normal_roughness.xyz);
    let v = normalize(camera.position.xyz - p);
    let metalness = f32(material.x) / 255.0;
    let roughness = normal_roughness.w;
    let emissive_occlusion = textureLoad(emissive_target, pixel, 0);
    ${ambient_occlusion ? AMBIENT_OCCLUSION_WGSL : "let occlusion = emissive_occlusion.a;"}
    ${shadows ? SHADOWED_SUN_WGSL : "var color = shade_sun(&lights, n, v, albedo, roughness, metalness, 1.0);"}
    ${environment ? "color += environment_light(n, v, albedo, roughness, metalness) * occlusion;" : "color += lights.ambient.rgb * albedo * occlusion;"}
    color += shade_tile_points(&lights, vec2u(pixel), p, n, v, albedo, roughness, metalness);
    color += emissive_occlusion.rgb;
    return vec4f(color, 1.0);
}
`;
}

const SHADOW_BINDINGS_WGSL = /* wgsl */ `@group(0) @binding(7) var shadow_map: texture_depth_2d;
@group(0) @binding(8) var shadow_sampler: sampler_comparison;
@group(0) @binding(9) var<uniform> shadow: ShadowCascades;
${SHADOW_WGSL}
`;

const SHADOWED_SUN_WGSL = /* wgsl */ `let view_depth = -(camera.view * vec4f(p, 1.0)).z;
    let sun = sun_shadow(p, n, view_depth);
    var color = shade_sun(&lights, n, v, albedo, roughness, metalness, sun);`;

const ENVIRONMENT_BINDINGS_WGSL = /* wgsl */ `${environment_bindings_wgsl(ENVIRONMENT_BINDING)}${ENVIRONMENT_WGSL}`;

const AMBIENT_OCCLUSION_BINDINGS_WGSL = /* wgsl */ `@group(0) @binding(${AMBIENT_OCCLUSION_BINDING}) var ambient_occlusion: texture_2d<f32>;
@group(0) @binding(${AMBIENT_OCCLUSION_BINDING + 1}) var ambient_occlusion_sampler: sampler;
`;

// the screen-space term times the material's: both scale the indirect light only
const AMBIENT_OCCLUSION_WGSL = /* wgsl */ `let occlusion = emissive_occlusion.a * textureSampleLevel(ambient_occlusion, ambient_occlusion_sampler, uv, 0.0).r;`;

// where the G-buffer holds no geometry (albedo alpha 0: its clear value), the environment along the view ray
const ENVIRONMENT_SKY_WGSL = /* wgsl */ `
        if (textureLoad(albedo_target, pixel, 0).a == 0.0) {
            let sky_uv = position.xy * camera.viewport.zw;
            let far = camera.inverse_view_projection * vec4f(sky_uv.x * 2.0 - 1.0, 1.0 - sky_uv.y * 2.0, 1.0, 1.0);
            return vec4f(environment_sky(normalize(far.xyz / far.w - camera.position.xyz)), 1.0);
        }`;

/**
 * Deferred lighting: shades every G-buffer pixel with the scene's directional light, the point lights binned
 * into its screen tile (up to 256 in the scene; Cook-Torrance GGX) and the ambient term into the HDR scene colour at the internal resolution, published
 * as `SceneColor`.
 */
export class LightingStep {
    readonly lights = new LightsBuffer();
    /** Point lights binned per screen tile for this frame. */
    readonly tiles = new LightTiles();
    #albedo = -1;
    #normal = -1;
    #material = -1;
    #depth = -1;
    #emissive = -1;
    #output = -1;
    #shadow_map = -1;
    #shadow_cascades: GPUBuffer | null = null;
    #ambient_occlusion = -1;
    #scene: Scene | null = null;
    #camera: GPUBuffer | null = null;
    // per variant (variant_of): bindings 0-6, the emissive target (10), then the shadow map's three (7-9) when
    // shadowed, the scene environment's five, the ambient occlusion's texture and sampler
    readonly #keys: unknown[][] = Array.from({ length: 8 }, (_, variant) => Array<unknown>(key_count(variant)).fill(null));
    readonly #per_device: WeakMap<GPUDevice, LightingDeviceState>[] = Array.from({ length: 8 }, () => new WeakMap<GPUDevice, LightingDeviceState>());
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "lighting", colorAttachments: this.#colors };
    readonly #compute_descriptor: GPUComputePassDescriptor = { label: "lighting (compute)" };

    record(frame: FrameContext, scene: Scene): void {
        const g = frame.get(GBufferTextures);
        this.#scene = scene;
        this.#camera = frame.view.camera.buffer;
        this.tiles.build(scene, frame.view.camera.view_projection as Float32Array, frame.resolution[0], frame.resolution[1]);
        const pass = frame.graph.add("lighting", this, execute_lighting);
        this.#albedo = pass.read(g.albedo);
        this.#normal = pass.read(g.normal);
        this.#material = pass.read(g.material);
        this.#emissive = pass.read(g.emissive);
        this.#depth = pass.read(frame.get(ViewTextures).depth);
        // the sun's shadow map when a shadow extension published one; otherwise the shadowless shader
        if (frame.has(ShadowMap)) {
            const shadows = frame.get(ShadowMap);
            this.#shadow_map = pass.read(shadows.map);
            this.#shadow_cascades = shadows.cascades;
        } else {
            this.#shadow_map = -1;
            this.#shadow_cascades = null;
        }
        // an AfterGBuffer extension's ambient occlusion; otherwise the shader without it
        this.#ambient_occlusion = -1;
        if (frame.has(AmbientOcclusion)) {
            const occlusion = frame.get(AmbientOcclusion);
            if (occlusion.published) this.#ambient_occlusion = pass.read(occlusion.texture);
        }
        const target = pass.create(
            "scene colour",
            TextureResourceDescriptor.of(frame.resolution[0], frame.resolution[1], SCENE_COLOR_FORMAT, SCENE_USAGE),
        );
        this.#output = pass.write(target);
        frame.create(SceneColor).color = this.#output;
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const shadowed = this.#shadow_map !== -1;
        const environment = this.#scene!.environment;
        const occluded = this.#ambient_occlusion !== -1;
        const variant = variant_of(shadowed, environment !== null, occluded);
        const states = this.#per_device[variant];
        let state = states.get(device);
        if (state === undefined) {
            state = make_lighting_state(device, shadowed, environment !== null, occluded, deferred_wgsl(shadowed, environment !== null, occluded), SCENE_COLOR_FORMAT);
            states.set(device, state);
        }
        const lights = this.lights.upload(device, this.#scene!);
        const keys = this.#keys[variant];
        keys[0] = this.#camera;
        keys[1] = lights;
        keys[2] = resources.view(this.#albedo);
        keys[3] = resources.view(this.#normal);
        keys[4] = resources.view(this.#material);
        keys[5] = resources.view(this.#depth);
        keys[6] = this.tiles.upload(device);
        keys[7] = resources.view(this.#emissive);
        if (shadowed) {
            keys[8] = resources.view(this.#shadow_map);
            keys[9] = state.shadow_sampler;
            keys[10] = this.#shadow_cascades;
        }
        if (environment !== null) {
            // prefiltered on this device the first time (its own submission, ahead of this frame's)
            const t = environment.textures(device);
            const first = shadowed ? 11 : 8;
            keys[first] = t.specular_view;
            keys[first + 1] = t.irradiance_view;
            keys[first + 2] = t.brdf_lut_view;
            keys[first + 3] = t.sampler;
            keys[first + 4] = t.uniforms;
        }
        if (occluded) {
            const first = keys.length - 2;
            keys[first] = resources.view(this.#ambient_occlusion);
            keys[first + 1] = state.ambient_occlusion_sampler;
        }
        if (use_compute(device, "auto")) {
            const compute = state.compute ?? (state.compute = make_lighting_compute(device, state, deferred_compute_wgsl(state.shadowed, state.environment, state.ambient_occlusion), SCENE_COLOR_FORMAT));
            const output = resources.texture(this.#output);
            this.#compute_descriptor.timestampWrites = execution.timestamp_writes;
            const pass = execution.encoder.beginComputePass(this.#compute_descriptor);
            pass.setPipeline(compute.pipeline);
            pass.setBindGroup(0, compute_group_for(device, compute, keys, resources.view(this.#output)));
            // integer shifts, not Math.ceil: a double handed to the call would be boxed (16 bytes a frame)
            pass.dispatchWorkgroups((output.width + 7) >> 3, (output.height + 7) >> 3);
            pass.end();
            return;
        }
        this.#colors[0] = resources.color_attachment(this.#output);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setPipeline(state.pipeline);
        pass.setBindGroup(0, group_for(device, state, keys));
        pass.draw(3);
        pass.end();
    }
}

function execute_lighting(step: LightingStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}
