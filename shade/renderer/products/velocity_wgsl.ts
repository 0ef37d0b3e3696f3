import { MESH_VERTEX_WGSL } from "../mesh/mesh_wgsl.js";
import { SKINNED_VERTICES_GROUP, skinned_vertices_wgsl } from "../mesh/skinned_vertices.js";
import { CAMERA_WGSL } from "../scene/Camera.js";
import { VELOCITY_FORMAT } from "./Velocity.js";

// last frame's jitter, the motion between two NDC positions, and a still world's motion at a pixel (reading
// `camera` and `scene_depth`, which the including module declares)
function motion_wgsl(group: number, binding: number): string {
    return /* wgsl */ `
struct VelocityParams {
    // last frame's clip-space jitter (this frame's is camera.jitter.xy)
    previous_jitter: vec2f,
    _pad: vec2f,
};
@group(${group}) @binding(${binding}) var<uniform> params: VelocityParams;

// NDC with the jitter taken out (a jitter j moves the image by -j in NDC) -> uv motion (y down)
fn motion(current_ndc: vec2f, previous_ndc: vec2f) -> vec2f {
    let d = (current_ndc + camera.jitter.xy) - (previous_ndc + params.previous_jitter);
    return vec2f(0.5 * d.x, -0.5 * d.y);
}

// every pixel as if the world under it stood still: its depth reprojected through last frame's camera (the sky
// at the far plane moves with the camera only)
fn still_motion(frag: vec2f) -> vec4f {
    let d = textureLoad(scene_depth, vec2i(frag), 0);
    let uv = frag * camera.viewport.zw;
    let ndc = vec2f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
    let world = camera.inverse_view_projection * vec4f(ndc, d, 1.0);
    let previous = camera.previous_view_projection * world;
    return vec4f(motion(ndc, previous.xy / previous.w), 0.0, 0.0);
}
`;
}

// Meshes bind the G-buffer's groups 0 (camera, objects) and 1 (material, unused here), 2 a skin batch's vertices
// (the pulling pipeline's; the rigid one shares its layout and ignores them) and 3 the params; the static draw's
// pipeline has a layout of its own whose group 0 binds the camera and the depth, and group 3 the same params. The depth is
// a read-only attachment and a texture at once: the static draw reads every pixel's depth, the meshes test
// "less-equal" against it and, repeating the G-buffer's (invariant) positions, land only on their visible surfaces.
/** @internal The velocity pass: a full-screen draw of the still world's motion, then each moving mesh's own. */
export const VELOCITY_WGSL = /* wgsl */ `
${MESH_VERTEX_WGSL}
${skinned_vertices_wgsl(SKINNED_VERTICES_GROUP)}

${motion_wgsl(3, 0)}

struct VelocityVarying {
    @builtin(position) @invariant clip: vec4f,
    @location(0) current: vec4f,
    @location(1) previous: vec4f,
};

@vertex
fn vs_velocity(
    @location(0) position: vec3f,
    // last frame's position in the mesh's space: the position itself, except for a skinned mesh
    @location(3) previous_position: vec3f,
    @builtin(instance_index) instance: u32,
) -> VelocityVarying {
    let o = objects[visible[instance]];
    let world = o.model * vec4f(position, 1.0);
    var out: VelocityVarying;
    out.clip = camera.view_projection * world;
    out.current = out.clip;
    out.previous = camera.previous_view_projection * (o.previous_model * vec4f(previous_position, 1.0));
    return out;
}

// a skin batch's mesh: this frame's and last frame's positions pulled from the batch at the object's base
@vertex
fn vs_velocity_pulled(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VelocityVarying {
    let o = objects[visible[instance]];
    let base = skin_base(o.normal_0);
    let world = o.model * vec4f(skinned_position(base, vertex), 1.0);
    var out: VelocityVarying;
    out.clip = camera.view_projection * world;
    out.current = out.clip;
    out.previous = camera.previous_view_projection * (o.previous_model * vec4f(skinned_previous(base, vertex), 1.0));
    return out;
}

@fragment
fn fs_velocity(in: VelocityVarying) -> @location(0) vec4f {
    return vec4f(motion(in.current.xy / in.current.w, in.previous.xy / in.previous.w), 0.0, 0.0);
}

@vertex
fn vs_static(@builtin(vertex_index) index: u32) -> @builtin(position) vec4f {
    let xy = vec2f(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4f(xy * 2.0 - 1.0, 0.0, 1.0);
}

@group(0) @binding(1) var scene_depth: texture_depth_2d;

// the still world on the raster path (\`still_motion\`); meshes then overwrite their own pixels with their motion
@fragment
fn fs_static(@builtin(position) frag: vec4f) -> @location(0) vec4f {
    return still_motion(frag.xy);
}
`;

// the still world on the compute path: the same, over 8x8 tiles into the target as a storage texture
/** @internal The still world's motion on the compute path. */
export const VELOCITY_STILL_WGSL = /* wgsl */ `
${CAMERA_WGSL}
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var scene_depth: texture_depth_2d;
@group(0) @binding(2) var motion_out: texture_storage_2d<${VELOCITY_FORMAT}, write>;
${motion_wgsl(0, 3)}

@compute @workgroup_size(8, 8)
fn cs_still(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(motion_out);
    if (id.x >= size.x || id.y >= size.y) { return; }
    textureStore(motion_out, id.xy, still_motion(vec2f(id.xy) + 0.5));
}
`;
