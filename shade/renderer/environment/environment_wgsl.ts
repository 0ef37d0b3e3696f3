import { BRDF_LUT_SIZE } from "./brdf_lut.js";

/**
 * Image-based lighting from an `Environment`, for a shader that includes `LIGHTING_WGSL` (its `PI`) and
 * `environment_bindings_wgsl(first)` before this. `environment_light` is the ambient term of a surface: the split
 * sum, diffuse irradiance x albedo x (1 - metalness) x (1 - F) plus prefiltered radiance x (F0 x A + B), times
 * the environment's intensity. `environment_sky` is the radiance seen along a view ray (the specular image's
 * sharpest level).
 */
export const ENVIRONMENT_WGSL = /* wgsl */ `
// Where direction d falls on the environment's equirectangular images (u = 0.5 toward -Z, growing toward +X; v = 0 up).
fn environment_uv(d: vec3f) -> vec2f {
    return vec2f(0.5 + atan2(d.x, -d.z) / (2.0 * PI), acos(clamp(d.y, -1.0, 1.0)) / PI);
}

fn environment_light(n: vec3f, v: vec3f, albedo: vec3f, roughness: f32, metalness: f32) -> vec3f {
    let n_v = clamp(dot(n, v), 1e-4, 1.0);
    let r = clamp(roughness, 0.0, 1.0);
    let f0 = mix(vec3f(0.04), albedo, metalness);
    // the lookup's texel centres span 0.5 / size .. 1 - 0.5 / size; the sampler wraps, so stay inside them
    let lut_uv = clamp(vec2f(n_v, r), vec2f(${0.5 / BRDF_LUT_SIZE}), vec2f(${1 - 0.5 / BRDF_LUT_SIZE}));
    let ab = textureSampleLevel(environment_brdf, environment_sampler, lut_uv, 0.0).rg;
    // Fresnel at n.v, its grazing rise damped by roughness (Fdez-Aguera): the part reflected rather than diffused
    let f = f0 + (max(vec3f(1.0 - r), f0) - f0) * pow(1.0 - n_v, 5.0);
    let irradiance = textureSampleLevel(environment_irradiance, environment_sampler, environment_uv(n), 0.0).rgb;
    let diffuse = irradiance * albedo * (1.0 - metalness) * (vec3f(1.0) - f);
    let reflected = reflect(-v, n);
    let prefiltered = textureSampleLevel(environment_specular, environment_sampler, environment_uv(reflected), r * environment.params.y).rgb;
    return (diffuse + prefiltered * (f0 * ab.x + ab.y)) * environment.params.x;
}

fn environment_sky(direction: vec3f) -> vec3f {
    return textureSampleLevel(environment_specular, environment_sampler, environment_uv(direction), 0.0).rgb * environment.params.x;
}
`;

/** The environment's bindings, at `group` (default 0) from binding `first` on (five: see `environment_layout_entries`). */
export function environment_bindings_wgsl(first: number, group = 0): string {
    return /* wgsl */ `
struct EnvironmentUniforms {
    // x: intensity, y: the specular image's last mip level (roughness 1)
    params: vec4f,
};
@group(${group}) @binding(${first}) var environment_specular: texture_2d<f32>;
@group(${group}) @binding(${first + 1}) var environment_irradiance: texture_2d<f32>;
@group(${group}) @binding(${first + 2}) var environment_brdf: texture_2d<f32>;
@group(${group}) @binding(${first + 3}) var environment_sampler: sampler;
@group(${group}) @binding(${first + 4}) var<uniform> environment: EnvironmentUniforms;
`;
}

/** Bind group layout entries of `environment_bindings_wgsl(first)`, in the order `EnvironmentTextures.entries` fills. */
export function environment_layout_entries(first: number, visibility: number): GPUBindGroupLayoutEntry[] {
    return [
        { binding: first, visibility, texture: { sampleType: "float" } },
        { binding: first + 1, visibility, texture: { sampleType: "float" } },
        { binding: first + 2, visibility, texture: { sampleType: "float" } },
        { binding: first + 3, visibility, sampler: { type: "filtering" } },
        { binding: first + 4, visibility, buffer: { type: "uniform" } },
    ];
}
