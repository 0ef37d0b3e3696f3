import { CAMERA_WGSL } from "../scene/Camera.js";
import { FULLSCREEN_VERTEX_WGSL } from "../fullscreen/fullscreen_vertex_wgsl.js";

/**
 * The temporal resolve: one fragment per OUTPUT pixel. Reads this frame's internal-resolution colour with the
 * jitter taken out, reprojects the history (through depth and last frame's camera; or, `with_velocity`, by the
 * `Velocity` target's motion, which follows moving meshes too), clamps it to the current 3x3 neighbourhood
 * (YCoCg box) and blends. Bindings: camera, `TaaParams`, a linear clamp sampler, the current colour, the
 * current depth, the history, with velocity the velocity target (binding 6), and for `compute` the output as a
 * storage texture (binding 7; a compute entry `cs_main` instead of the fragment `fs_main`).
 */
export function taa_resolve_wgsl(with_velocity: boolean, compute = false): string {
    return /* wgsl */ `
${CAMERA_WGSL}

struct TaaParams {
    // where this frame's jitter moved the image, in uv: sampling at uv + this undoes it
    jitter_uv: vec2f,
    // where the history frame's jitter moved its image, in NDC: taken off the reprojected position
    history_jitter_ndc: vec2f,
    // weight of the current frame; 1 when the history is reset
    blend: f32,
    _pad: f32,
};

@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<uniform> params: TaaParams;
@group(0) @binding(2) var linear_clamp: sampler;
@group(0) @binding(3) var current_color: texture_2d<f32>;
@group(0) @binding(4) var current_depth: texture_depth_2d;
@group(0) @binding(5) var history_color: texture_2d<f32>;
${with_velocity ? "@group(0) @binding(6) var velocity: texture_2d<f32>;" : ""}
${compute ? "@group(0) @binding(7) var resolved_output: texture_storage_2d<rgba16float, write>;" : ""}

${FULLSCREEN_VERTEX_WGSL}

fn rgb_to_ycocg(c: vec3f) -> vec3f {
    return vec3f(
        dot(c, vec3f(0.25, 0.5, 0.25)),
        dot(c, vec3f(0.5, 0.0, -0.5)),
        dot(c, vec3f(-0.25, 0.5, -0.25)),
    );
}

fn ycocg_to_rgb(c: vec3f) -> vec3f {
    let t = c.x - c.z;
    return vec3f(t + c.y, c.x + c.z, t - c.y);
}

fn sample_history_at(uv: vec2f) -> vec3f {
    return textureSampleLevel(history_color, linear_clamp, uv, 0.0).rgb;
}

// Catmull-Rom through five bilinear taps (the four corner taps of the 4x4 kernel dropped, the rest
// renormalised): keeps the history sharp under motion where plain bilinear would blur it frame after frame.
// Exact at texel centres, so a still view reads its history back unchanged.
fn sample_history(uv: vec2f) -> vec3f {
    let size = vec2f(textureDimensions(history_color));
    let position = uv * size;
    let centre = floor(position - 0.5) + 0.5;
    let f = position - centre;
    let w0 = f * (-0.5 + f * (1.0 - 0.5 * f));
    let w1 = 1.0 + f * f * (-2.5 + 1.5 * f);
    let w2 = f * (0.5 + f * (2.0 - 1.5 * f));
    let w3 = f * f * (-0.5 + 0.5 * f);
    let w12 = w1 + w2;
    let uv0 = (centre - 1.0) / size;
    let uv3 = (centre + 2.0) / size;
    let uv12 = (centre + w2 / w12) / size;
    var sum = vec3f(0.0);
    sum += sample_history_at(vec2f(uv12.x, uv0.y)) * (w12.x * w0.y);
    sum += sample_history_at(vec2f(uv0.x, uv12.y)) * (w0.x * w12.y);
    sum += sample_history_at(uv12) * (w12.x * w12.y);
    sum += sample_history_at(vec2f(uv3.x, uv12.y)) * (w3.x * w12.y);
    sum += sample_history_at(vec2f(uv12.x, uv3.y)) * (w12.x * w3.y);
    let weight = w12.x * w0.y + w0.x * w12.y + w12.x * w12.y + w3.x * w12.y + w12.x * w3.y;
    return sum / weight;
}

// uv: the output pixel's centre in the un-jittered image
fn resolve(uv: vec2f) -> vec4f {
    // the same point in this frame's image:
    let sample_uv = uv + params.jitter_uv;
    let current = textureSampleLevel(current_color, linear_clamp, sample_uv, 0.0);

    // the 3x3 internal texels around the sample: colour box for the clamp, nearest depth for the reprojection
    // (the front-most depth keeps silhouettes reprojected with the object rather than what is behind it)
    let size = vec2i(textureDimensions(current_color));
    let texel = clamp(vec2i(floor(sample_uv * vec2f(size))), vec2i(0), size - 1);
    var low = vec3f(3.0e38);
    var high = vec3f(-3.0e38);
    var depth = 1.0;
    var nearest = texel;
    for (var dy = -1; dy <= 1; dy++) {
        for (var dx = -1; dx <= 1; dx++) {
            let p = clamp(texel + vec2i(dx, dy), vec2i(0), size - 1);
            let c = rgb_to_ycocg(textureLoad(current_color, p, 0).rgb);
            low = min(low, c);
            high = max(high, c);
            let d = textureLoad(current_depth, p, 0);
            if (d < depth) {
                depth = d;
                nearest = p;
            }
        }
    }
${with_velocity ? VELOCITY_REPROJECTION : DEPTH_REPROJECTION}

    let cur = rgb_to_ycocg(current.rgb);
    let history = clamp(rgb_to_ycocg(max(sample_history(history_uv), vec3f(0.0))), low, high);
    // select, not mix: a reset must not let whatever the history held (even a NaN) through
    let resolved = select(mix(history, cur, blend), cur, blend >= 1.0);
    return vec4f(max(ycocg_to_rgb(resolved), vec3f(0.0)), current.a);
}
${compute ? COMPUTE_ENTRY : FRAGMENT_ENTRY}
`;
}

const FRAGMENT_ENTRY = /* wgsl */ `
@fragment
fn fs_main(in: FullscreenVarying) -> @location(0) vec4f {
    return resolve(in.uv);
}`;

// one invocation per output pixel, its centre as the fragment stage sees it
const COMPUTE_ENTRY = /* wgsl */ `
@compute @workgroup_size(8, 8)
fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(resolved_output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    textureStore(resolved_output, id.xy, resolve((vec2f(id.xy) + 0.5) / vec2f(size)));
}`;


// reprojection: this frame's (jittered) clip position -> world -> last frame's (jittered) clip position, then
// last frame's jitter taken off. A still camera lands exactly on uv.
const DEPTH_REPROJECTION = /* wgsl */ `
    let ndc = vec2f(sample_uv.x * 2.0 - 1.0, 1.0 - sample_uv.y * 2.0);
    let world = camera.inverse_view_projection * vec4f(ndc, depth, 1.0);
    let previous = camera.previous_view_projection * world;
    let history_ndc = previous.xy / previous.w - params.history_jitter_ndc;
    let history_uv = vec2f(history_ndc.x * 0.5 + 0.5, 0.5 - history_ndc.y * 0.5);

    var blend = params.blend;
    // behind last frame's camera, or off last frame's screen: nothing to reuse
    let outside = any(history_uv < vec2f(0.0)) || any(history_uv > vec2f(1.0)) || previous.w * world.w <= 0.0;
    if (outside) { blend = 1.0; }
`;

// reprojection by the motion of the front-most surface of the 3x3 (silhouettes move with the object): the
// velocity is jitter-free and in uv, so the history sits at uv minus it. A still pixel lands on uv.
const VELOCITY_REPROJECTION = /* wgsl */ `
    let history_uv = uv - textureLoad(velocity, nearest, 0).xy;

    var blend = params.blend;
    // off last frame's screen: nothing to reuse
    let outside = any(history_uv < vec2f(0.0)) || any(history_uv > vec2f(1.0));
    if (outside) { blend = 1.0; }
`;

/** The resolve without velocity (depth and camera reprojection). */
export const TAA_RESOLVE_WGSL = taa_resolve_wgsl(false);
