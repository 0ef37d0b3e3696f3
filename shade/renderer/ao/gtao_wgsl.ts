import { CAMERA_WGSL } from "../scene/Camera.js";
import { FULLSCREEN_VERTEX_WGSL } from "../fullscreen/fullscreen_vertex_wgsl.js";

/** Floats in the `GtaoParams` uniform block. */
export const GTAO_PARAMS_FLOATS = 12;

/**
 * The uniform block both passes read. View space here is GTAO's: x right, y up, z forward (positive depth), so
 * that a screen offset (x, -y) is the view direction (x, y).
 */
const PARAMS_WGSL = /* wgsl */ `
struct GtaoParams {
    // world units: the effect's radius, and where the falloff to no occlusion starts
    radius: f32,
    falloff_from: f32,
    // exponent on the visibility (1: as integrated)
    power: f32,
    // cap of the radius on screen, full-resolution pixels
    max_radius_pixels: f32,
    slices: u32,
    steps: u32,
    // full-resolution pixels per ambient occlusion texel along each axis (1 or 2)
    scale: u32,
    // the denoise's depth tolerance, relative to the pixel's depth
    depth_tolerance: f32,
    _pad: vec4f,
};
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<uniform> params: GtaoParams;
@group(0) @binding(2) var depth_target: texture_depth_2d;

// view depth of a depth value (0 at near, 1 at far)
fn gtao_view_depth(d: f32) -> f32 {
    let near = camera.jitter.z;
    let far = camera.jitter.w;
    return near * far / (far - d * (far - near));
}

// GTAO's view-space position of the full-resolution pixel's centre at depth value d (the jittered projection's
// off-centre terms undone, so it agrees with the lighting's world position)
fn gtao_view_position(pixel: vec2i, d: f32) -> vec3f {
    let uv = (vec2f(pixel) + 0.5) * camera.viewport.zw;
    let ndc = vec2f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
    let z = gtao_view_depth(d);
    return vec3f(
        (ndc.x + camera.projection[2][0]) * z / camera.projection[0][0],
        (ndc.y + camera.projection[2][1]) * z / camera.projection[1][1],
        z,
    );
}
`;

const BAYER_WGSL = /* wgsl */ `
// a 4x4 ordered pattern (values 0-15): the rotation of the slices, so that the denoise's 4x4 window sees each
// rotation once
const GTAO_BAYER = array<u32, 16>(0u, 8u, 2u, 10u, 12u, 4u, 14u, 6u, 3u, 11u, 1u, 9u, 15u, 7u, 13u, 5u);
`;

/**
 * Horizon-based ambient occlusion (GTAO, Jimenez et al. 2016, after XeGTAO's formulation) of one texel of the
 * ambient occlusion target: `params.slices` great circles around the view vector, rotated per pixel by a 4x4
 * pattern, each searched `params.steps` times on both sides for its highest horizon within `params.radius`,
 * the cosine-weighted visible arc between them integrated against the normal projected into the slice.
 * Returns (visibility, view depth, 0, 0), the visibility not yet clamped nor raised to `params.power` (the
 * denoise does both after averaging); the sky's texels are (1, its depth).
 */
const HORIZONS_WGSL = /* wgsl */ `
@group(0) @binding(3) var normal_target: texture_2d<f32>;
${BAYER_WGSL}
const GTAO_PI = 3.14159265;
const GTAO_HALF_PI = 1.57079633;

fn gtao_horizons(texel: vec2u) -> vec4f {
    let full = vec2i(textureDimensions(depth_target));
    let pixel = min(vec2i(texel) * i32(params.scale), full - 1);
    let d = textureLoad(depth_target, pixel, 0);
    if (d >= 1.0) { return vec4f(1.0, gtao_view_depth(d), 0.0, 0.0); }
    let p = gtao_view_position(pixel, d);
    let world_normal = textureLoad(normal_target, pixel, 0).xyz;
    let view_normal = (camera.view * vec4f(world_normal, 0.0)).xyz;
    let n_view = normalize(vec3f(view_normal.x, view_normal.y, -view_normal.z));
    let v = normalize(-p);
    // the radius on screen, in full-resolution pixels
    let radius_pixels = min(params.radius * camera.projection[1][1] * 0.5 * camera.viewport.y / p.z, params.max_radius_pixels);
    if (radius_pixels < 1.0) { return vec4f(1.0, p.z, 0.0, 0.0); }
    let falloff_range = params.radius - params.falloff_from;
    let falloff_mul = -1.0 / falloff_range;
    let falloff_add = params.falloff_from / falloff_range + 1.0;
    let pattern = GTAO_BAYER[(texel.y & 3u) * 4u + (texel.x & 3u)];
    let slice_noise = (f32(pattern) + 0.5) / 16.0;
    // another order of the same sixteen values: step jitter uncorrelated with the rotation
    let step_noise = (f32((pattern * 5u + 3u) & 15u) + 0.5) / 16.0;
    // the first step clears the pixel itself
    let min_s = 1.3 / radius_pixels;
    let slices = max(params.slices, 1u);
    let steps = max(params.steps, 1u);
    // slices turn evenly about the view vector (not about the screen's axis, whose slices bunch up off-centre
    // and leave an open face a little occluded): a basis of the plane across v; v.z is far from 0 in any view
    let across0 = normalize(vec3f(v.z, 0.0, -v.x));
    let across1 = cross(v, across0);
    var visibility = 0.0;
    for (var slice = 0u; slice < slices; slice++) {
        let phi = (f32(slice) + slice_noise) * GTAO_PI / f32(slices);
        let ortho = cos(phi) * across0 + sin(phi) * across1;
        // the slice's line on screen: where p + t ortho projects, t -> 0 (square pixels: one scale for x and y)
        let screen = ortho.xy * p.z - p.xy * ortho.z;
        let omega = normalize(vec2f(screen.x, -screen.y)) * radius_pixels;
        let axis = cross(ortho, v);
        let projected = n_view - axis * dot(n_view, axis);
        let projected_length = length(projected);
        if (projected_length < 1e-4) { visibility += 1.0; continue; }
        let sign_n = select(-1.0, 1.0, dot(ortho, projected) >= 0.0);
        let cos_n = clamp(dot(projected, v) / projected_length, 0.0, 1.0);
        let n = sign_n * acos(cos_n);
        let low0 = cos(n + GTAO_HALF_PI);
        let low1 = cos(n - GTAO_HALF_PI);
        var horizon0 = low0;
        var horizon1 = low1;
        for (var i = 0u; i < steps; i++) {
            var s = (f32(i) + step_noise) / f32(steps);
            s = s * s + min_s;
            let offset = vec2i(round(omega * s));
            let at0 = clamp(pixel + offset, vec2i(0), full - 1);
            let at1 = clamp(pixel - offset, vec2i(0), full - 1);
            // into the slice's plane: a rounded offset leaves it a little, and on a slanted face that part would
            // read as a horizon above the tangent
            var delta0 = gtao_view_position(at0, textureLoad(depth_target, at0, 0)) - p;
            var delta1 = gtao_view_position(at1, textureLoad(depth_target, at1, 0)) - p;
            delta0 -= axis * dot(delta0, axis);
            delta1 -= axis * dot(delta1, axis);
            let distance0 = length(delta0);
            let distance1 = length(delta1);
            let cos0 = dot(delta0, v) / max(distance0, 1e-6);
            let cos1 = dot(delta1, v) / max(distance1, 1e-6);
            // occluders past the radius fade out to the tangent plane (no occlusion)
            let weight0 = clamp(distance0 * falloff_mul + falloff_add, 0.0, 1.0);
            let weight1 = clamp(distance1 * falloff_mul + falloff_add, 0.0, 1.0);
            horizon0 = max(horizon0, mix(low0, cos0, weight0));
            horizon1 = max(horizon1, mix(low1, cos1, weight1));
        }
        var h0 = -acos(clamp(horizon1, -1.0, 1.0));
        var h1 = acos(clamp(horizon0, -1.0, 1.0));
        h0 = n + clamp(h0 - n, -GTAO_HALF_PI, GTAO_HALF_PI);
        h1 = n + clamp(h1 - n, -GTAO_HALF_PI, GTAO_HALF_PI);
        let arc0 = (cos_n + 2.0 * h0 * sin(n) - cos(2.0 * h0 - n)) * 0.25;
        let arc1 = (cos_n + 2.0 * h1 * sin(n) - cos(2.0 * h1 - n)) * 0.25;
        visibility += projected_length * (arc0 + arc1);
    }
    // unclamped: a slice tilted towards the normal integrates past 1 and one tilted away below it, which the
    // denoise's average over the rotation pattern evens out; clamping here would bias open faces dark
    return vec4f(max(visibility / f32(slices), 0.0), p.z, 0.0, 0.0);
}
`;

/**
 * The denoise and upsample to the full resolution: each pixel averages the 4x4 ambient occlusion texels around
 * it (one period of the rotation pattern), each weighted down to nothing as its depth departs from the pixel's
 * by more than `params.depth_tolerance` of it, so that occlusion does not cross silhouettes; then clamped to
 * [0, 1] and raised to `params.power`.
 */
const DENOISE_WGSL = /* wgsl */ `
@group(0) @binding(3) var horizons: texture_2d<f32>;

fn gtao_denoise(pixel: vec2u) -> vec4f {
    let at = vec2i(pixel);
    let d = textureLoad(depth_target, at, 0);
    if (d >= 1.0) { return vec4f(1.0); }
    let z = gtao_view_depth(d);
    let size = vec2i(textureDimensions(horizons));
    let centre = at / i32(params.scale);
    let base = centre - 1;
    let tolerance = params.depth_tolerance * z;
    var sum = 0.0;
    var weights = 0.0;
    for (var y = 0; y < 4; y++) {
        for (var x = 0; x < 4; x++) {
            let t = textureLoad(horizons, clamp(base + vec2i(x, y), vec2i(0), size - 1), 0);
            let w = max(1.0 - abs(t.y - z) / tolerance, 0.0);
            sum += t.x * w;
            weights += w;
        }
    }
    // no texel at this depth (a thin sliver): its own texel
    let visibility = select(textureLoad(horizons, clamp(centre, vec2i(0), size - 1), 0).x, sum / weights, weights > 1e-3);
    let ao = pow(clamp(visibility, 0.0, 1.0), params.power);
    return vec4f(ao, ao, ao, 1.0);
}
`;

/** Format of the horizons pass's target: visibility and view depth. */
export const GTAO_HORIZONS_FORMAT: GPUTextureFormat = "rgba16float";
/** Format of the published ambient occlusion (red: visibility); storage-capable on every device, filterable. */
export const GTAO_OUTPUT_FORMAT: GPUTextureFormat = "rgba8unorm";

/** The horizons pass: a fragment shader over the target, or (`compute`) 8x8 workgroups storing into it. */
export function gtao_horizons_wgsl(compute: boolean): string {
    return `${CAMERA_WGSL}${PARAMS_WGSL}${HORIZONS_WGSL}${entry(compute, "gtao_horizons", GTAO_HORIZONS_FORMAT)}`;
}

/** The denoise pass: a fragment shader over the full-resolution target, or (`compute`) 8x8 workgroups. */
export function gtao_denoise_wgsl(compute: boolean): string {
    return `${CAMERA_WGSL}${PARAMS_WGSL}${DENOISE_WGSL}${entry(compute, "gtao_denoise", GTAO_OUTPUT_FORMAT)}`;
}

function entry(compute: boolean, body: string, format: GPUTextureFormat): string {
    if (compute) {
        return /* wgsl */ `
@group(0) @binding(4) var gtao_output: texture_storage_2d<${format}, write>;

@compute @workgroup_size(8, 8)
fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(gtao_output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    textureStore(gtao_output, id.xy, ${body}(id.xy));
}
`;
    }
    return /* wgsl */ `
${FULLSCREEN_VERTEX_WGSL}

@fragment
fn fs_main(in: FullscreenVarying) -> @location(0) vec4f {
    return ${body}(vec2u(in.position.xy));
}
`;
}
