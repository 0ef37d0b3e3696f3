import { CAMERA_WGSL } from "../../shade/renderer/scene/Camera.js";

/** Bytes of the line parameter uniform: width in pixels, pad. */
export const LINE_PARAMS_BYTES = 16;

/**
 * Debug lines: one instance per line (vertex buffer, instance step: a, b, RGBA8), a 4-vertex strip per
 * instance. Both ends are projected, the one behind the near plane is moved onto it along the line, and the
 * strip is pushed `width / 2` pixels to either side of the projected line, so lines keep their pixel width
 * at any distance.
 */
export const DEBUG_LINE_WGSL = /* wgsl */ `
${CAMERA_WGSL}
struct LineParams {
    width: f32,
    pad0: f32,
    pad1: f32,
    pad2: f32,
};

@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<uniform> params: LineParams;

struct LineVarying {
    @builtin(position) position: vec4f,
    @location(0) color: vec4f,
};

@vertex
fn vs_main(@builtin(vertex_index) vertex: u32, @location(0) a: vec3f, @location(1) b: vec3f, @location(2) color: vec4f) -> LineVarying {
    var out: LineVarying;
    var clip_a = camera.view_projection * vec4f(a, 1.0);
    var clip_b = camera.view_projection * vec4f(b, 1.0);
    let near = camera.jitter.z;
    if (clip_a.w < near && clip_b.w < near) {
        out.position = vec4f(2.0, 2.0, 2.0, 1.0);
        out.color = vec4f(0.0);
        return out;
    }
    if (clip_a.w < near) {
        clip_a = mix(clip_a, clip_b, (near - clip_a.w) / (clip_b.w - clip_a.w));
    } else if (clip_b.w < near) {
        clip_b = mix(clip_b, clip_a, (near - clip_b.w) / (clip_a.w - clip_b.w));
    }
    let half_viewport = camera.viewport.xy * 0.5;
    let screen_a = clip_a.xy / clip_a.w * half_viewport;
    let screen_b = clip_b.xy / clip_b.w * half_viewport;
    var along = screen_b - screen_a;
    let l = length(along);
    along = select(vec2f(1.0, 0.0), along / l, l > 1e-6);
    let normal = vec2f(-along.y, along.x);
    let end_b = (vertex >> 1u) == 1u;
    let side = f32(vertex & 1u) * 2.0 - 1.0;
    var clip = select(clip_a, clip_b, end_b);
    clip = vec4f(clip.xy + normal * (side * 0.5 * params.width) / half_viewport * clip.w, clip.zw);
    out.position = clip;
    out.color = color;
    return out;
}

@fragment
fn fs_main(in: LineVarying) -> @location(0) vec4f {
    return vec4f(in.color.rgb * in.color.a, in.color.a);
}
`;
