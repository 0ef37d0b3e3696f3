import { CAMERA_WGSL } from "../../shade/renderer/scene/Camera.js";

/** Bytes of the trails' parameter uniform: now (f32), segments, update count, pad. */
export const TRAIL_PARAMS_BYTES = 16;
/** Bytes per point update: the point (vec4f) and its global ring index, padded to the struct's 16-byte size. */
export const POINT_UPDATE_BYTES = 32;
export const POINT_UPDATE_WORDS = POINT_UPDATE_BYTES / 4;
export const SCATTER_WORKGROUP = 64;

const COMMON = /* wgsl */ `
struct TrailParams {
    now: f32,
    segments: u32,
    update_count: u32,
    pad: u32,
};
`;

/**
 * Scatters the ring points laid down this frame (`updates`, one per point: the point and its global index)
 * into the GPU ring pool: the CPU uploads 32 bytes per new point instead of the rings around it.
 */
export const TRAIL_SCATTER_WGSL = /* wgsl */ `
${COMMON}
struct PointUpdate {
    point: vec4f,
    index: u32,
};

@group(0) @binding(0) var<uniform> params: TrailParams;
@group(0) @binding(1) var<storage, read> updates: array<PointUpdate>;
@group(0) @binding(2) var<storage, read_write> points: array<vec4f>;

@compute @workgroup_size(${SCATTER_WORKGROUP})
fn cs_scatter(@builtin(global_invocation_id) id: vec3u) {
    if (id.x >= params.update_count) {
        return;
    }
    let update = updates[id.x];
    points[update.index] = update.point;
}
`;

/**
 * The ribbon. One instance per trail slot, a triangle strip of 2 vertices per point: point 0 is the live head
 * (in the record, rewritten every frame), points 1..count the ring from newest to oldest. Each point is
 * pushed sideways by half the width along cross(tangent, to camera), so the ribbon faces the camera. Colour:
 * `color * mix(head, tail, i / count)`, alpha times `1 - age / max_age`. Vertices past the ring's count
 * collapse onto its oldest point (zero-area triangles); an empty slot's strip is all outside the clip volume.
 */
export const TRAIL_DRAW_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${COMMON}
struct Trail {
    head: vec4f,
    color: vec4f,
    head_gradient: vec4f,
    tail_gradient: vec4f,
    newest: u32,
    count: u32,
    max_age: f32,
    width: f32,
};

@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<uniform> params: TrailParams;
@group(0) @binding(2) var<storage, read> trails: array<Trail>;
@group(0) @binding(3) var<storage, read> points: array<vec4f>;

struct TrailVarying {
    @builtin(position) position: vec4f,
    @location(0) color: vec4f,
};

fn trail_point(trail: Trail, base: u32, i: u32) -> vec4f {
    if (i == 0u) {
        return trail.head;
    }
    let segments = params.segments;
    // i = 1 is the newest ring point
    let ring = (trail.newest + segments - (i - 1u)) % segments;
    return points[base + ring];
}

fn direction(v: vec3f) -> vec3f {
    let l = length(v);
    if (l < 1e-6) {
        return vec3f(0.0);
    }
    return v / l;
}

@vertex
fn vs_main(@builtin(vertex_index) vertex: u32, @builtin(instance_index) slot: u32) -> TrailVarying {
    var out: TrailVarying;
    let trail = trails[slot];
    if (trail.count == 0u || trail.width <= 0.0 || trail.max_age <= 0.0) {
        out.position = vec4f(2.0, 2.0, 2.0, 1.0);
        out.color = vec4f(0.0);
        return out;
    }
    let base = slot * params.segments;
    let last = trail.count;
    let i = min(vertex >> 1u, last);
    let p = trail_point(trail, base, i);
    let previous = trail_point(trail, base, max(i, 1u) - 1u);
    let next = trail_point(trail, base, min(i + 1u, last));
    var tangent = direction(previous.xyz - p.xyz) + direction(p.xyz - next.xyz);
    if (dot(tangent, tangent) < 1e-12) {
        tangent = direction(previous.xyz - next.xyz);
    }
    let to_camera = camera.position.xyz - p.xyz;
    var side = cross(tangent, to_camera);
    if (dot(side, side) < 1e-12) {
        // no direction yet (a single point) or seen end on: any side the camera looks across
        side = vec3f(camera.view[0][0], camera.view[1][0], camera.view[2][0]);
    }
    side = normalize(side);
    let sign = f32(vertex & 1u) * 2.0 - 1.0;
    let world = p.xyz + side * (sign * 0.5 * trail.width);
    let age = params.now - p.w;
    let fade = clamp(1.0 - age / trail.max_age, 0.0, 1.0);
    let t = f32(i) / f32(last);
    var color = trail.color * mix(trail.head_gradient, trail.tail_gradient, t);
    color.a *= fade;
    out.position = camera.view_projection * vec4f(world, 1.0);
    out.color = color;
    return out;
}

@fragment
fn fs_main(in: TrailVarying) -> @location(0) vec4f {
    return vec4f(in.color.rgb * in.color.a, in.color.a);
}
`;
