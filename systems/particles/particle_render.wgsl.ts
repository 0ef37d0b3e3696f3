import { CAMERA_WGSL } from "../../shade/renderer/scene/Camera.js";
import { FULLSCREEN_VERTEX_WGSL } from "../../shade/renderer/fullscreen/fullscreen_vertex_wgsl.js";
import { PARTICLE_STRUCTS_WGSL } from "./particle_simulate.wgsl.js";

/** McGuire and Bavoil's weight (their eq. 7): nearer layers count for more. `z`: view distance. */
const OIT_WEIGHT_WGSL = /* wgsl */ `
fn oit_weight(z: f32) -> f32 {
    return clamp(10.0 / (1e-5 + pow(z / 5.0, 2.0) + pow(z / 200.0, 6.0)), 1e-2, 3000.0); // 3000 = OIT_WEIGHT_MAX
}
`;

/** Bytes of the render uniforms (`RenderParams`): 4 words, then each atlas frame's mean alpha (8 floats). */
export const RENDER_PARAMS_BYTES = 48;
/** Fixed-point scale of the additive splat accumulation (1 = 2^10 units per colour channel). */
export const SPLAT_SCALE = 1024;
/** u32 words per pixel of the splat accumulation: additive RGB, OIT weighted RGBA (/ OIT_WEIGHT_MAX), OIT -ln(revealage). */
export const SPLAT_WORDS = 8;
/** Fixed-point scales of the OIT splat sums. */
export const OIT_SCALE = 65536;
export const REVEALAGE_SCALE = 4096;
/** The largest OIT weight: splatted weights are stored divided by it, and scaled back when composited. */
export const OIT_WEIGHT_MAX = 3000;
/** Threads per workgroup of the splat. */
export const SPLAT_WORKGROUP = 256;

/**
 * Camera-facing billboards, expanded in the vertex shader from the particle buffer: a non-indexed draw of
 * 6 vertices per particle whose vertex count the simulation wrote (drawIndirect); vertex `v` draws corner
 * `v % 6` of the particle at `draw_list[v / 6]` (additive) or `draw_list[capacity - 1 - v / 6]` (alpha).
 *
 * - `fs_additive`: premultiplied colour added to the scene colour (order-independent by nature).
 * - `fs_accumulate`: weighted blended order-independent transparency (McGuire and Bavoil 2013) for alpha
 *   particles: premultiplied colour x a depth weight summed into an accumulation target, the product of
 *   (1 - alpha) into a revealage target; `fs_composite` resolves both over the scene colour. No sorting,
 *   no CPU path.
 *
 * Soft particles fade as they approach the scene depth (`ViewTextures.depth`, linearised with the camera's
 * near and far planes) over the emitter's softness distance.
 */
export const PARTICLE_RENDER_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${PARTICLE_STRUCTS_WGSL}
${OIT_WEIGHT_WGSL}

struct RenderParams {
    capacity: u32,
    atlas_columns: u32,
    atlas_rows: u32,
    // workgroups per row of the splat's 2D dispatch
    splat_row: u32,
    // mean alpha of each atlas frame: a splatted particle's coverage
    frame_alpha: array<vec4f, 2>,
};

@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<storage, read> particles: array<Particle>;
@group(0) @binding(2) var<storage, read> emitters: array<Emitter>;
@group(0) @binding(3) var<storage, read> draw_list: array<u32>;
@group(0) @binding(4) var<uniform> render: RenderParams;
@group(0) @binding(5) var atlas: texture_2d<f32>;
@group(0) @binding(6) var atlas_sampler: sampler;
@group(0) @binding(7) var scene_depth: texture_depth_2d;

override ALPHA: bool = false;

struct Varying {
    @builtin(position) position: vec4f,
    @location(0) uv: vec2f,
    @location(1) color: vec4f,
    // view-space distance of the particle; softness (0: hard)
    @location(2) depth_softness: vec2f,
};

const CORNERS = array<vec2f, 6>(
    vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
    vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
);

@vertex
fn vs_billboard(@builtin(vertex_index) vertex: u32) -> Varying {
    let k = vertex / 6u;
    let corner = CORNERS[vertex % 6u];
    let slot = select(k, render.capacity - 1u - k, ALPHA);
    let p = particles[draw_list[slot]];
    let e = emitters[p.tag & 0xffffu];
    let t = clamp(p.age / p.lifetime, 0.0, 1.0);
    let size = mix(e.size_start, e.size_end, t);
    let right = vec3f(camera.view[0][0], camera.view[1][0], camera.view[2][0]);
    let up = vec3f(camera.view[0][1], camera.view[1][1], camera.view[2][1]);
    let world = p.position + (right * corner.x + up * corner.y) * (0.5 * size);

    let count = max(e.frame_count, 1.0);
    var f = floor(t * count);
    if (e.frame_rate > 0.0) {
        f = floor(p.age * e.frame_rate) % count;
    }
    let frame = u32(e.frame_start + min(f, count - 1.0));
    let cell = vec2f(f32(frame % render.atlas_columns), f32(frame / render.atlas_columns));
    let local = vec2f(corner.x * 0.5 + 0.5, 0.5 - corner.y * 0.5);

    var out: Varying;
    out.position = camera.view_projection * vec4f(world, 1.0);
    out.uv = (cell + local) / vec2f(f32(render.atlas_columns), f32(render.atlas_rows));
    out.color = mix(e.color_start, e.color_end, t);
    out.depth_softness = vec2f(-(camera.view * vec4f(world, 1.0)).z, e.softness);
    return out;
}

fn soft_fade(frag: vec4f, depth_softness: vec2f) -> f32 {
    let softness = depth_softness.y;
    if (softness <= 0.0) {
        return 1.0;
    }
    let d = textureLoad(scene_depth, vec2i(frag.xy), 0);
    let near = camera.jitter.z;
    let far = camera.jitter.w;
    let scene = near * far / (far - d * (far - near));
    return clamp((scene - depth_softness.x) / softness, 0.0, 1.0);
}

@fragment
fn fs_additive(in: Varying) -> @location(0) vec4f {
    let c = in.color * textureSample(atlas, atlas_sampler, in.uv);
    let a = c.a * soft_fade(in.position, in.depth_softness);
    return vec4f(c.rgb * a, 0.0);
}

struct Accumulated {
    @location(0) accum: vec4f,
    @location(1) revealage: vec4f,
};

@fragment
fn fs_accumulate(in: Varying) -> Accumulated {
    let c = in.color * textureSample(atlas, atlas_sampler, in.uv);
    let a = c.a * soft_fade(in.position, in.depth_softness);
    let z = in.depth_softness.x;
    let w = oit_weight(z);
    var out: Accumulated;
    out.accum = vec4f(c.rgb * a, a) * w;
    out.revealage = vec4f(a);
    return out;
}
`;

/**
 * The compute path for small particles: below a couple of pixels a billboard costs the rasteriser two
 * triangles and a few fragments each, which is what the draw's time is spent on. `cs_splat` (one thread per
 * particle on the splat list) projects the particle, tests it against the scene depth (and fades it when
 * soft), and adds its colour x alpha x footprint (its area in pixels x the frame's mean alpha) to its pixel in
 * a fixed-point accumulation buffer with atomics; `fs_splat_resolve` adds the buffer onto the scene colour.
 * Additive blending is a sum, so the order of the atomics does not matter. Alpha particles add their weighted
 * OIT terms the same way (weighted colour and alpha, and -ln(1 - alpha) for the revealage, whose product
 * becomes a sum), and `fs_composite` folds them in with the rasterised ones.
 */
export const PARTICLE_SPLAT_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${PARTICLE_STRUCTS_WGSL}
${OIT_WEIGHT_WGSL}

struct RenderParams {
    capacity: u32,
    atlas_columns: u32,
    atlas_rows: u32,
    splat_row: u32,
    frame_alpha: array<vec4f, 2>,
};

struct Counters {
    dead_count: i32,
    dropped: u32,
    spawned: u32,
    alive: u32,
    splatted: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
};

@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<storage, read> particles: array<Particle>;
@group(0) @binding(2) var<storage, read> emitters: array<Emitter>;
@group(0) @binding(3) var<storage, read> splat_list: array<u32>;
@group(0) @binding(4) var<uniform> render: RenderParams;
@group(0) @binding(5) var<storage, read> counters: Counters;
@group(0) @binding(6) var scene_depth: texture_depth_2d;
@group(0) @binding(7) var<storage, read_write> accumulation: array<atomic<u32>>;

@compute @workgroup_size(${SPLAT_WORKGROUP})
fn cs_splat(@builtin(global_invocation_id) id: vec3u) {
    let k = id.x + id.y * render.splat_row * ${SPLAT_WORKGROUP}u;
    if (k >= counters.splatted) {
        return;
    }
    let p = particles[splat_list[k]];
    let e = emitters[p.tag & 0xffffu];
    let clip = camera.view_projection * vec4f(p.position, 1.0);
    if (clip.w <= 0.0) {
        return;
    }
    let ndc = clip.xyz / clip.w;
    let size = vec2u(camera.viewport.xy);
    let pixel_f = vec2f(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5) * camera.viewport.xy;
    if (any(pixel_f < vec2f(0.0)) || any(pixel_f >= camera.viewport.xy) || ndc.z < 0.0 || ndc.z > 1.0) {
        return;
    }
    let pixel = vec2u(pixel_f);
    let d = textureLoad(scene_depth, vec2i(pixel), 0);
    if (ndc.z >= d) {
        return;
    }
    let t = clamp(p.age / p.lifetime, 0.0, 1.0);
    let diameter = mix(e.size_start, e.size_end, t) * camera.projection[1][1] * 0.5 * camera.viewport.y / clip.w;
    let count = max(e.frame_count, 1.0);
    var f = floor(t * count);
    if (e.frame_rate > 0.0) {
        f = floor(p.age * e.frame_rate) % count;
    }
    let frame = u32(e.frame_start + min(f, count - 1.0));
    let c = mix(e.color_start, e.color_end, t);
    var fade = 1.0;
    if (e.softness > 0.0) {
        let near = camera.jitter.z;
        let far = camera.jitter.w;
        let scene = near * far / (far - d * (far - near));
        fade = clamp((scene - clip.w) / e.softness, 0.0, 1.0);
    }
    let coverage = diameter * diameter * render.frame_alpha[frame / 4u][frame % 4u];
    let at = (pixel.y * size.x + pixel.x) * ${SPLAT_WORDS}u;
    if ((e.flags & EMITTER_ALPHA) == 0u) {
        let energy = c.rgb * (c.a * fade * coverage * ${SPLAT_SCALE}.0);
        let units = vec3u(min(energy, vec3f(65535.0)) + 0.5);
        if (units.r > 0u) { atomicAdd(&accumulation[at], units.r); }
        if (units.g > 0u) { atomicAdd(&accumulation[at + 1u], units.g); }
        if (units.b > 0u) { atomicAdd(&accumulation[at + 2u], units.b); }
        return;
    }
    // weighted blended OIT, as fs_accumulate does it, with the particle's alpha spread over its footprint
    let a = min(c.a * fade * min(coverage, 1.0), 0.999);
    let w = oit_weight(clip.w) * (1.0 / ${OIT_WEIGHT_MAX}.0);
    let weighted = min(vec4f(c.rgb * a, a) * (w * ${OIT_SCALE}.0), vec4f(1048576.0)) + 0.5;
    let units = vec4u(weighted);
    if (units.r > 0u) { atomicAdd(&accumulation[at + 3u], units.r); }
    if (units.g > 0u) { atomicAdd(&accumulation[at + 4u], units.g); }
    if (units.b > 0u) { atomicAdd(&accumulation[at + 5u], units.b); }
    if (units.a > 0u) { atomicAdd(&accumulation[at + 6u], units.a); }
    let reveal = u32(-log(1.0 - a) * ${REVEALAGE_SCALE}.0 + 0.5);
    if (reveal > 0u) { atomicAdd(&accumulation[at + 7u], reveal); }
}

`;

/** Adds the splat accumulation onto the scene colour (blended one + one). */
export const PARTICLE_SPLAT_RESOLVE_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${FULLSCREEN_VERTEX_WGSL}
@group(0) @binding(0) var<uniform> resolve_camera: CameraUniforms;
@group(0) @binding(1) var<storage, read> resolved: array<u32>;

@fragment
fn fs_splat_resolve(in: FullscreenVarying) -> @location(0) vec4f {
    let pixel = vec2u(in.position.xy);
    let at = (pixel.y * u32(resolve_camera.viewport.x) + pixel.x) * ${SPLAT_WORDS}u;
    return vec4f(f32(resolved[at]), f32(resolved[at + 1u]), f32(resolved[at + 2u]), 0.0) * (1.0 / ${SPLAT_SCALE}.0);
}
`;

/** The resolve of the alpha particles' accumulation over the scene colour. */
export const PARTICLE_COMPOSITE_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${FULLSCREEN_VERTEX_WGSL}
@group(0) @binding(0) var accum_texture: texture_2d<f32>;
@group(0) @binding(1) var revealage_texture: texture_2d<f32>;
@group(0) @binding(2) var<uniform> camera: CameraUniforms;
// the splat's sums (SPLAT_WORDS per pixel; words 3-7 are the alpha particles')
@group(0) @binding(3) var<storage, read> splatted: array<u32>;

@fragment
fn fs_composite(in: FullscreenVarying) -> @location(0) vec4f {
    let pixel = vec2i(in.position.xy);
    let at = (u32(pixel.y) * u32(camera.viewport.x) + u32(pixel.x)) * ${SPLAT_WORDS}u;
    let splat_accum = vec4f(f32(splatted[at + 3u]), f32(splatted[at + 4u]), f32(splatted[at + 5u]), f32(splatted[at + 6u]))
        * (${OIT_WEIGHT_MAX}.0 / ${OIT_SCALE}.0);
    let revealage = textureLoad(revealage_texture, pixel, 0).r * exp(-f32(splatted[at + 7u]) * (1.0 / ${REVEALAGE_SCALE}.0));
    if (revealage >= 0.9999) {
        discard;
    }
    let accum = textureLoad(accum_texture, pixel, 0) + splat_accum;
    // blended as colour * (1 - revealage) + scene * revealage
    return vec4f(accum.rgb / max(accum.a, 1e-5), revealage);
}
`;
