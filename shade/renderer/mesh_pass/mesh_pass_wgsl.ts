import { OBJECT_WGSL } from "../mesh/mesh_wgsl.js";
import { CAMERA_WGSL } from "../scene/Camera.js";

/**
 * What a mesh pass's shader is given, prepended to its code: `camera` (`CameraUniforms`), `objects` (one
 * `ObjectData` per joined mesh, indexed by the vertex's `object`), `values` (the pass's per-frame uniform block
 * as `vec4_count` vec4s), the vertex input `MeshPassVertex` (position, normal, uv, object) and
 * `mesh_pass_normal(o, n)`, the world-space normal.
 */
export function mesh_pass_wgsl(vec4_count: number): string {
    return /* wgsl */ `
${CAMERA_WGSL}
${OBJECT_WGSL}
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<storage, read> objects: array<ObjectData>;
@group(0) @binding(2) var<uniform> values: array<vec4f, ${vec4_count}>;

struct MeshPassVertex {
    @location(0) position: vec3f,
    @location(1) normal: vec3f,
    @location(2) uv: vec2f,
    @builtin(instance_index) object: u32,
};

fn mesh_pass_normal(o: ObjectData, n: vec3f) -> vec3f {
    return mat3x3f(o.normal_0.xyz, o.normal_1.xyz, o.normal_2.xyz) * n;
}
`;
}

/**
 * An ink outline (pixi3d's `OutlinePass`): each joined mesh again as a shell pushed out along its normals by
 * `values[1].x` world units, in the flat colour `values[0]`. Draw it with the front faces culled: the mesh hides
 * all of the shell but a rim.
 */
export const OUTLINE_WGSL = /* wgsl */ `
@vertex
fn vs_main(v: MeshPassVertex) -> @builtin(position) vec4f {
    let o = objects[v.object];
    let n = normalize(mesh_pass_normal(o, v.normal));
    let world = (o.model * vec4f(v.position, 1.0)).xyz + n * values[1].x;
    return camera.view_projection * vec4f(world, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return values[0];
}
`;

/**
 * A hover rim: a fresnel glow `values[0].rgb * values[0].a * (1 - n.v)^values[1].x` over each joined mesh, to be
 * added to the scene colour. The surface is drawn where the mesh already is, pulled towards the camera by
 * `values[1].y` of clip depth so that the depth test keeps it.
 */
export const RIM_WGSL = /* wgsl */ `
struct RimVarying {
    @builtin(position) clip: vec4f,
    @location(0) world_position: vec3f,
    @location(1) normal: vec3f,
};

@vertex
fn vs_main(v: MeshPassVertex) -> RimVarying {
    let o = objects[v.object];
    let world = o.model * vec4f(v.position, 1.0);
    var out: RimVarying;
    out.clip = camera.view_projection * world;
    out.clip.z -= values[1].y * out.clip.w;
    out.world_position = world.xyz;
    out.normal = mesh_pass_normal(o, v.normal);
    return out;
}

@fragment
fn fs_main(in: RimVarying, @builtin(front_facing) front: bool) -> @location(0) vec4f {
    var n = normalize(in.normal);
    if (!front) { n = -n; }
    let view = normalize(camera.position.xyz - in.world_position);
    let fresnel = pow(1.0 - clamp(dot(n, view), 0.0, 1.0), values[1].x);
    return vec4f(values[0].rgb * values[0].a * fresnel, 0.0);
}
`;

/**
 * Each mesh in the flat colour `values[0]`, where it is (a silhouette mask, an ID colour): the shader of
 * pixi3d's "draw the opaque meshes in white from a second camera" pass.
 */
export const FLAT_WGSL = /* wgsl */ `
@vertex
fn vs_main(v: MeshPassVertex) -> @builtin(position) vec4f {
    return camera.view_projection * (objects[v.object].model * vec4f(v.position, 1.0));
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return values[0];
}
`;
