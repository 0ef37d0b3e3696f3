/**
 * WGSL helpers for any shader that reads the frame's depth (`ViewTextures.depth`, depth32float, 0 at the near
 * plane and 1 at the far plane, perspective): paste into the shader's code. With the camera uniform
 * (`CAMERA_WGSL`, `frame.view.camera.buffer`) bound as `camera`, near and far are `camera.jitter.z` and
 * `camera.jitter.w`, and the inverse view-projection is `camera.inverse_view_projection`; the TAA jitter moves
 * x and y only, so depth needs no correction for it.
 *
 * - `linear_depth(d, near, far)`: the view-space depth of a depth value, in world units along the view axis
 *   (near at d = 0, far at d = 1).
 * - `world_position_from_depth(uv, d, inverse_view_projection)`: the world position seen at `uv` (0,0 top-left,
 *   the uv of this frame's jittered image, i.e. pixel centre / resolution) with depth `d`.
 * - `view_distance_from_depth(uv, d, inverse_view_projection, eye)`: its Euclidean distance from the eye.
 */
export const LINEAR_DEPTH_WGSL = /* wgsl */ `
fn linear_depth(d: f32, near: f32, far: f32) -> f32 {
    return near * far / (far - d * (far - near));
}

fn world_position_from_depth(uv: vec2f, d: f32, inverse_view_projection: mat4x4f) -> vec3f {
    let ndc = vec4f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, d, 1.0);
    let world = inverse_view_projection * ndc;
    return world.xyz / world.w;
}

fn view_distance_from_depth(uv: vec2f, d: f32, inverse_view_projection: mat4x4f, eye: vec3f) -> f32 {
    return distance(world_position_from_depth(uv, d, inverse_view_projection), eye);
}
`;
