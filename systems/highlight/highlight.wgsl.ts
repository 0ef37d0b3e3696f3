import { FULLSCREEN_VERTEX_WGSL } from "../../shade/renderer/fullscreen/fullscreen_vertex_wgsl.js";

/** Bytes per highlighted object in the entry buffer: id, width, 2 pad, RGBA. */
export const HIGHLIGHT_ENTRY_BYTES = 32;
/** Stride of the per-pass step uniforms (the minimum dynamic uniform offset alignment). */
export const STEP_STRIDE = 256;
/** A seed texel with no seed. */
export const NO_SEED = 0xffffffff;

const COMMON = /* wgsl */ `
${FULLSCREEN_VERTEX_WGSL}

struct Entry {
    id: u32,
    width: f32,
    pad0: u32,
    pad1: u32,
    color: vec4f,
};

const NO_SEED: u32 = 0xffffffffu;

fn seed_pixel(packed: u32) -> vec2f {
    return vec2f(f32(packed & 0xffffu), f32(packed >> 16u));
}
`;

/**
 * Seeds: each pixel of a highlighted object (its id in the G-buffer's object-id target is in the entry list)
 * becomes a seed holding its own coordinates (x | y << 16) and the entry's index; every other pixel none.
 */
export const HIGHLIGHT_SEED_WGSL = /* wgsl */ `
${COMMON}
struct SeedParams { count: u32, pad0: u32, pad1: u32, pad2: u32 };
@group(0) @binding(0) var ids: texture_2d<u32>;
@group(0) @binding(1) var<storage, read> entries: array<Entry>;
@group(0) @binding(2) var<uniform> params: SeedParams;

@fragment
fn fs_main(@builtin(position) position: vec4f) -> @location(0) vec2u {
    let pixel = vec2u(position.xy);
    let id = textureLoad(ids, pixel, 0).r;
    if (id != 0u) {
        for (var e = 0u; e < params.count; e++) {
            if (entries[e].id == id) { return vec2u(pixel.x | (pixel.y << 16u), e); }
        }
    }
    return vec2u(NO_SEED, 0u);
}
`;

/** One jump-flood step: the nearest seed among the 3x3 texels `step` pixels apart. */
export const HIGHLIGHT_FLOOD_WGSL = /* wgsl */ `
${COMMON}
struct StepParams { step: i32, pad0: u32, pad1: u32, pad2: u32 };
@group(0) @binding(0) var seeds: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: StepParams;

@fragment
fn fs_main(@builtin(position) position: vec4f) -> @location(0) vec2u {
    let pixel = vec2i(position.xy);
    let size = vec2i(textureDimensions(seeds));
    let here = vec2f(pixel);
    var best = vec2u(NO_SEED, 0u);
    var best_d = 3.0e38;
    for (var dy = -1; dy <= 1; dy++) {
        for (var dx = -1; dx <= 1; dx++) {
            let p = pixel + vec2i(dx, dy) * params.step;
            if (any(p < vec2i(0)) || any(p >= size)) { continue; }
            let s = textureLoad(seeds, p, 0).rg;
            if (s.x == NO_SEED) { continue; }
            let v = seed_pixel(s.x) - here;
            let d = dot(v, v);
            if (d < best_d) {
                best_d = d;
                best = s;
            }
        }
    }
    return best;
}
`;

/**
 * The outline: pixels outside their nearest seed's object within its width get the entry's colour
 * (premultiplied, a half-pixel soft edge), blended over the scene colour.
 */
export const HIGHLIGHT_COMPOSITE_WGSL = /* wgsl */ `
${COMMON}
@group(0) @binding(0) var seeds: texture_2d<u32>;
@group(0) @binding(1) var ids: texture_2d<u32>;
@group(0) @binding(2) var<storage, read> entries: array<Entry>;

@fragment
fn fs_main(@builtin(position) position: vec4f) -> @location(0) vec4f {
    let pixel = vec2i(position.xy);
    let s = textureLoad(seeds, pixel, 0).rg;
    if (s.x == NO_SEED) { discard; }
    let entry = entries[s.y];
    if (textureLoad(ids, pixel, 0).r == entry.id) { discard; }
    let d = distance(seed_pixel(s.x), vec2f(pixel));
    let coverage = clamp(entry.width + 0.5 - d, 0.0, 1.0) * entry.color.a;
    if (coverage <= 0.0) { discard; }
    return vec4f(entry.color.rgb * coverage, coverage);
}
`;
