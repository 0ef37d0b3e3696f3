import { GBufferFlags } from "../../shade/renderer/extension/GBufferFlags.js";
import { CAMERA_WGSL } from "../../shade/renderer/scene/Camera.js";
import { TERRAIN_NOISE_SIZE } from "./terrain_noise.js";

/** Bytes of one terrain's uniform block (`TerrainUniforms`). */
export const TERRAIN_UNIFORM_BYTES = 48;

/** G-buffer flag bit 0: the lighting step shades the pixel (as `ObjectData.ids.z` for meshes; `GBufferFlags.lit`). */
export const GBUFFER_FLAG_LIT = GBufferFlags.lit;

/**
 * The terrain's G-buffer pass: grid vertices (world position, normal) in, the four G-buffer targets out with
 * the mesh encoding (`GBufferStep`): albedo rgb (linear) with coverage 1; normal xyz with roughness in w;
 * material (metalness x 255, flags, material index, 0); object id.
 *
 * The ground is four procedural layers blended by height and slope - sand below `sand_level`, grass, rock
 * where the slope passes `rock_slope`, snow above `snow_level` - each broken up by world-space value noise so
 * that the borders wander and no layer looks flat-coloured.
 */
export const TERRAIN_WGSL = /* wgsl */ `
${CAMERA_WGSL}
struct TerrainUniforms {
    // xyz: centre of the square at height 0, w: size
    origin_size: vec4f,
    // height_scale, sand_level, snow_level, rock_slope
    params: vec4f,
    // object id, flags, material index, unused
    ids: vec4u,
};
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<uniform> terrain: TerrainUniforms;
@group(0) @binding(2) var noise_lattice: texture_2d<f32>;
@group(0) @binding(3) var noise_sampler: sampler;

struct Varying {
    @builtin(position) clip: vec4f,
    @location(0) world: vec3f,
    @location(1) normal: vec3f,
};

@vertex
fn vs_terrain(@location(0) position: vec3f, @location(1) normal: vec3f) -> Varying {
    var out: Varying;
    out.clip = camera.view_projection * vec4f(position, 1.0);
    out.world = position;
    out.normal = normal;
    return out;
}

// value noise: the lattice (terrain_noise.ts) fetched once, bilinearly, at the smoothstep of the fraction
fn value_noise(p: vec2f) -> f32 {
    let i = floor(p);
    let f = p - i;
    let u = f * f * (3.0 - 2.0 * f);
    return textureSampleLevel(noise_lattice, noise_sampler, (i + u + 0.5) / ${TERRAIN_NOISE_SIZE}.0, 0.0).r;
}

fn fbm3(p: vec2f) -> f32 {
    return 0.5 * value_noise(p) + 0.3 * value_noise(p * 2.03 + 17.1) + 0.2 * value_noise(p * 4.01 + 31.7);
}

struct GBufferOut {
    @location(0) albedo: vec4f,
    @location(1) normal: vec4f,
    @location(2) material: vec4u,
    @location(3) object_id: u32,
};

@fragment
fn fs_terrain(in: Varying) -> GBufferOut {
    let n = normalize(in.normal);
    let xz = in.world.xz;
    let height_scale = max(abs(terrain.params.x), 1e-4);
    let h = (in.world.y - terrain.origin_size.y) / height_scale;
    let slope = 1.0 - n.y;
    let broad = fbm3(xz * 0.35);
    let fine = fbm3(xz * 2.7);
    let grain = value_noise(xz * 11.0);

    // linear-space albedos (the tonemap converts to sRGB)
    let grass = mix(vec3f(0.045, 0.10, 0.018), vec3f(0.11, 0.15, 0.03), broad) * (0.8 + 0.4 * fine);
    let dry = vec3f(0.16, 0.14, 0.05) * (0.85 + 0.3 * fine);
    let meadow = mix(grass, dry, smoothstep(0.62, 0.8, broad));
    let sand = vec3f(0.42, 0.34, 0.2) * (0.88 + 0.2 * grain + 0.1 * fine);
    // strata: bands along the height, warped by noise
    let strata = 0.5 + 0.5 * sin(in.world.y * 5.0 + fine * 4.0);
    let rock = mix(vec3f(0.10, 0.09, 0.085), vec3f(0.2, 0.18, 0.16), strata * 0.6 + grain * 0.4);
    let snow = vec3f(0.8, 0.83, 0.88) * (0.95 + 0.05 * grain);

    let sand_w = 1.0 - smoothstep(terrain.params.y - 0.03, terrain.params.y + 0.03, h + (broad - 0.5) * 0.06);
    let rock_w = smoothstep(terrain.params.w - 0.07, terrain.params.w + 0.07, slope + (fine - 0.5) * 0.12);
    let snow_w = smoothstep(terrain.params.z - 0.03, terrain.params.z + 0.03, h + (fine - 0.5) * 0.08) * (1.0 - 0.8 * rock_w);
    var albedo = mix(meadow, sand, sand_w);
    var roughness = mix(0.92, 0.97, sand_w);
    albedo = mix(albedo, rock, rock_w);
    roughness = mix(roughness, 0.78, rock_w);
    albedo = mix(albedo, snow, snow_w);
    roughness = mix(roughness, 0.55, snow_w);

    var out: GBufferOut;
    out.albedo = vec4f(albedo, 1.0);
    out.normal = vec4f(n, roughness);
    out.material = vec4u(0u, terrain.ids.y & 255u, terrain.ids.z & 255u, 0u);
    out.object_id = terrain.ids.x;
    return out;
}
`;
