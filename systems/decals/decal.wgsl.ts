import { GBufferFlags } from "../../shade/renderer/extension/GBufferFlags.js";
import { CAMERA_WGSL } from "../../shade/renderer/scene/Camera.js";

/** Bytes of the decal parameters uniform. */
export const DECAL_PARAMS_BYTES = 16;

/**
 * Box-projected decals. One instanced draw of a unit cube per decal (its back faces, so a camera inside a box
 * still covers the box's pixels, each pixel shaded once); the fragment rebuilds the world position of the
 * surface already in the G-buffer from depth (the inverse view-projection, as the lighting step does), moves
 * it into the box's frame, discards outside the box, samples the atlas frame by the box's local x and z, and
 * fades by the angle between the surface normal and the box's projection axis (local y) and toward the box's
 * top and bottom. The result is blended over the albedo target; its alpha (coverage) is left as it was.
 */
export const DECAL_WGSL = /* wgsl */ `
${CAMERA_WGSL}
struct DecalInstance {
    // xyz: box centre
    center: vec4f,
    // unit axes of the box with the half extent in w; y is the projection axis (the decal faces +y)
    axis_x: vec4f,
    axis_y: vec4f,
    axis_z: vec4f,
    color: vec4f,
    // atlas rectangle: u0, v0, width, height
    rect: vec4f,
};
struct DecalParams {
    // cosines of the angles between normal and axis where the fade starts and where it is complete;
    // the fraction of the half depth from which the box's top and bottom fade out; unused
    fade: vec4f,
};
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<uniform> params: DecalParams;
@group(0) @binding(2) var<storage, read> decals: array<DecalInstance>;
@group(0) @binding(3) var atlas: texture_2d<f32>;
@group(0) @binding(4) var atlas_sampler: sampler;
@group(0) @binding(5) var depth_target: texture_depth_2d;
@group(0) @binding(6) var normal_target: texture_2d<f32>;
@group(0) @binding(7) var material_target: texture_2d<u32>;

// 12 triangles of the cube of corners (c & 1, c >> 1 & 1, c >> 2 & 1), counter-clockwise seen from outside
const CUBE = array<u32, 36>(4u, 6u, 2u, 4u, 2u, 0u, 1u, 3u, 7u, 1u, 7u, 5u, 0u, 1u, 5u, 0u, 5u, 4u,
                            6u, 7u, 3u, 6u, 3u, 2u, 2u, 3u, 1u, 2u, 1u, 0u, 4u, 5u, 7u, 4u, 7u, 6u);

struct Varying {
    @builtin(position) clip: vec4f,
    @location(0) @interpolate(flat) decal: u32,
};

@vertex
fn vs_decal(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> Varying {
    let c = CUBE[vertex];
    let local = vec3f(f32(c & 1u), f32((c >> 1u) & 1u), f32((c >> 2u) & 1u)) * 2.0 - 1.0;
    let d = decals[instance];
    let world = d.center.xyz + d.axis_x.xyz * (d.axis_x.w * local.x) + d.axis_y.xyz * (d.axis_y.w * local.y) + d.axis_z.xyz * (d.axis_z.w * local.z);
    var out: Varying;
    out.clip = camera.view_projection * vec4f(world, 1.0);
    out.decal = instance;
    return out;
}

@fragment
fn fs_decal(in: Varying) -> @location(0) vec4f {
    let pixel = vec2i(in.clip.xy);
    let depth = textureLoad(depth_target, pixel, 0);
    if (depth >= 1.0) { discard; }
    // receivers only (GBufferFlags.receives_decals): units standing in a selection circle keep their colour
    if ((textureLoad(material_target, pixel, 0).y & ${GBufferFlags.receives_decals}u) == 0u) { discard; }
    let uv = in.clip.xy * camera.viewport.zw;
    let ndc = vec4f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, depth, 1.0);
    let world = camera.inverse_view_projection * ndc;
    let p = world.xyz / world.w;
    let d = decals[in.decal];
    let r = p - d.center.xyz;
    let local = vec3f(dot(r, d.axis_x.xyz) / d.axis_x.w, dot(r, d.axis_y.xyz) / d.axis_y.w, dot(r, d.axis_z.xyz) / d.axis_z.w);
    if (any(abs(local) > vec3f(1.0))) { discard; }
    let n = normalize(textureLoad(normal_target, pixel, 0).xyz);
    let facing = dot(n, d.axis_y.xyz);
    let angle_fade = smoothstep(params.fade.y, params.fade.x, facing);
    let depth_fade = 1.0 - smoothstep(params.fade.z, 1.0, abs(local.y));
    let t = local.xz * 0.5 + 0.5;
    let texel = textureSampleLevel(atlas, atlas_sampler, d.rect.xy + t * d.rect.zw, 0.0);
    let color = texel * d.color;
    let alpha = clamp(color.a * angle_fade * depth_fade, 0.0, 1.0);
    if (alpha <= 0.0) { discard; }
    return vec4f(color.rgb, alpha);
}
`;
