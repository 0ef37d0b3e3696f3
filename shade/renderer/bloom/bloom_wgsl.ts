import { FULLSCREEN_VERTEX_WGSL } from "../fullscreen/fullscreen_vertex_wgsl.js";

/** Format of the bloom mip chain (and of the scene colour it writes): storage and render on every device. */
export const BLOOM_FORMAT: GPUTextureFormat = "rgba16float";

/** Floats in the bloom's uniform block: intensity, radius, level weight, padding. */
export const BLOOM_PARAMS_FLOATS = 4;

// Bindings shared by the three kinds of pass (downsample, upsample, composite) on both paths; a downsample
// binds its input as both `input_a` and `input_b`. The compute path adds the output at binding 4.
const BLOOM_COMMON_WGSL = /* wgsl */ `
struct BloomParams {
    // the mix of the bloom into the scene: 0 leaves the scene as it was
    intensity: f32,
    // the upsample tent's reach, in texels of the smaller level
    radius: f32,
    // 1 / levels: the upsampled chain sums one blurred image per level; this makes it their average
    level_weight: f32,
    _pad: f32,
};

@group(0) @binding(0) var bloom_sampler: sampler;
@group(0) @binding(1) var<uniform> bloom: BloomParams;
@group(0) @binding(2) var input_a: texture_2d<f32>;
@group(0) @binding(3) var input_b: texture_2d<f32>;

// clamped to what half floats hold: one pixel of infinity or NaN (an overflowing highlight) would otherwise reach
// every texel of the small levels, and the whole picture through them (min/max return the number beside a NaN)
fn tap_a(uv: vec2f) -> vec3f { return clamp(textureSampleLevel(input_a, bloom_sampler, uv, 0.0).rgb, vec3f(0.0), vec3f(65504.0)); }
fn tap_b(uv: vec2f) -> vec3f { return textureSampleLevel(input_b, bloom_sampler, uv, 0.0).rgb; }

// Jimenez 2014, "Next generation post processing in Call of Duty: Advanced Warfare": 13 bilinear taps of the
// larger level, five overlapping 2x2 boxes (the centre one weighted 0.5, the four corner ones 0.125 each).
// Weights sum to 1, so a level keeps the mean of the one above it.
fn bloom_downsample(uv: vec2f) -> vec3f {
    let t = 1.0 / vec2f(textureDimensions(input_a));
    let a = tap_a(uv + t * vec2f(-2.0, -2.0));
    let b = tap_a(uv + t * vec2f(0.0, -2.0));
    let c = tap_a(uv + t * vec2f(2.0, -2.0));
    let d = tap_a(uv + t * vec2f(-2.0, 0.0));
    let e = tap_a(uv);
    let f = tap_a(uv + t * vec2f(2.0, 0.0));
    let g = tap_a(uv + t * vec2f(-2.0, 2.0));
    let h = tap_a(uv + t * vec2f(0.0, 2.0));
    let i = tap_a(uv + t * vec2f(2.0, 2.0));
    let j = tap_a(uv + t * vec2f(-1.0, -1.0));
    let k = tap_a(uv + t * vec2f(1.0, -1.0));
    let l = tap_a(uv + t * vec2f(-1.0, 1.0));
    let m = tap_a(uv + t * vec2f(1.0, 1.0));
    return e * 0.125 + (a + c + g + i) * 0.03125 + (b + d + f + h) * 0.0625 + (j + k + l + m) * 0.125;
}

// 3x3 tent (1 2 1 / 2 4 2 / 1 2 1, over 16) of the smaller level, 'radius' of its texels apart.
fn bloom_tent(uv: vec2f) -> vec3f {
    let t = bloom.radius / vec2f(textureDimensions(input_b));
    var sum = tap_b(uv) * 4.0;
    sum += (tap_b(uv + vec2f(-t.x, 0.0)) + tap_b(uv + vec2f(t.x, 0.0)) + tap_b(uv + vec2f(0.0, -t.y)) + tap_b(uv + vec2f(0.0, t.y))) * 2.0;
    sum += tap_b(uv - t) + tap_b(uv + t) + tap_b(uv + vec2f(-t.x, t.y)) + tap_b(uv + vec2f(t.x, -t.y));
    return sum * (1.0 / 16.0);
}

// A level of the chain plus the tent-filtered sum of all smaller levels.
fn bloom_upsample(pixel: vec2i, uv: vec2f) -> vec3f {
    return textureLoad(input_a, pixel, 0).rgb + bloom_tent(uv);
}

// mix, not add: the picture keeps its energy; the bloom only moves a share of it to the neighbours.
fn bloom_composite(pixel: vec2i, uv: vec2f) -> vec4f {
    let scene = textureLoad(input_a, pixel, 0);
    let glow = bloom_tent(uv) * bloom.level_weight;
    return vec4f(mix(scene.rgb, glow, bloom.intensity), scene.a);
}
`;

/** The raster path: `vs_fullscreen` and one fragment entry point per kind of pass. */
export const BLOOM_RASTER_WGSL = /* wgsl */ `${BLOOM_COMMON_WGSL}
${FULLSCREEN_VERTEX_WGSL}

@fragment
fn fs_downsample(in: FullscreenVarying) -> @location(0) vec4f {
    return vec4f(bloom_downsample(in.uv), 1.0);
}

@fragment
fn fs_upsample(in: FullscreenVarying) -> @location(0) vec4f {
    return vec4f(bloom_upsample(vec2i(in.position.xy), in.uv), 1.0);
}

@fragment
fn fs_composite(in: FullscreenVarying) -> @location(0) vec4f {
    return bloom_composite(vec2i(in.position.xy), in.uv);
}
`;

/** The compute path: one invocation per output texel in 8x8 workgroups, one entry point per kind of pass. */
export const BLOOM_COMPUTE_WGSL = /* wgsl */ `${BLOOM_COMMON_WGSL}
@group(0) @binding(4) var bloom_output: texture_storage_2d<${BLOOM_FORMAT}, write>;

fn output_uv(id: vec2u, size: vec2u) -> vec2f { return (vec2f(id) + 0.5) / vec2f(size); }

@compute @workgroup_size(8, 8)
fn cs_downsample(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(bloom_output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    textureStore(bloom_output, id.xy, vec4f(bloom_downsample(output_uv(id.xy, size)), 1.0));
}

@compute @workgroup_size(8, 8)
fn cs_upsample(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(bloom_output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    textureStore(bloom_output, id.xy, vec4f(bloom_upsample(vec2i(id.xy), output_uv(id.xy, size)), 1.0));
}

@compute @workgroup_size(8, 8)
fn cs_composite(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(bloom_output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    textureStore(bloom_output, id.xy, bloom_composite(vec2i(id.xy), output_uv(id.xy, size)));
}
`;
