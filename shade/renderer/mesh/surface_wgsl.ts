import { MESH_VERTEX_WGSL } from "./mesh_wgsl.js";
import { SKINNED_VERTICES_GROUP, skinned_vertices_wgsl } from "./skinned_vertices.js";

/**
 * Vertex buffer layouts of the passes that shade a material's surface (G-buffer, transparency): positions,
 * normals and uvs as every mesh pass has them, then tangents (buffer 3, location 4) and the second uv set
 * (buffer 4, location 5). Geometries without them bind zeros (a tangent with w = 0 means "none").
 */
export const SURFACE_VERTEX_BUFFERS: GPUVertexBufferLayout[] = [
    { arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: "float32x3" }] },
    { arrayStride: 12, attributes: [{ shaderLocation: 1, offset: 0, format: "float32x3" }] },
    { arrayStride: 8, attributes: [{ shaderLocation: 2, offset: 0, format: "float32x2" }] },
    { arrayStride: 16, attributes: [{ shaderLocation: 4, offset: 0, format: "float32x4" }] },
    { arrayStride: 8, attributes: [{ shaderLocation: 5, offset: 0, format: "float32x2" }] },
];

/** The material's texture slots in binding order (group 1: texture at 2i, its sampler at 2i + 1). */
export const MATERIAL_SLOTS = ["base_color_texture", "metallic_roughness_texture", "normal_texture", "occlusion_texture", "emissive_texture"] as const;

/**
 * The material's surface: `vs_surface` (the mesh vertex stage plus tangents and uv1) and `material_surface`,
 * which samples the five texture slots of group 1 and returns what lighting needs (with `masked`, coverage
 * below the material's cutoff is discarded). Includes `MESH_VERTEX_WGSL`.
 */
export const SURFACE_WGSL = /* wgsl */ `
${MESH_VERTEX_WGSL}
@group(1) @binding(0) var base_color_texture: texture_2d<f32>;
@group(1) @binding(1) var base_color_sampler: sampler;
@group(1) @binding(2) var metallic_roughness_texture: texture_2d<f32>;
@group(1) @binding(3) var metallic_roughness_sampler: sampler;
@group(1) @binding(4) var normal_texture: texture_2d<f32>;
@group(1) @binding(5) var normal_sampler: sampler;
@group(1) @binding(6) var occlusion_texture: texture_2d<f32>;
@group(1) @binding(7) var occlusion_sampler: sampler;
@group(1) @binding(8) var emissive_texture: texture_2d<f32>;
@group(1) @binding(9) var emissive_sampler: sampler;

struct SurfaceVarying {
    @builtin(position) @invariant clip: vec4f,
    @location(0) world_position: vec3f,
    @location(1) normal: vec3f,
    @location(2) uv: vec2f,
    @location(3) @interpolate(flat) object: u32,
    // world tangent (xyz) and handedness (w; 0: the geometry has none)
    @location(4) tangent: vec4f,
    @location(5) uv1: vec2f,
};

// the mesh vertex stage's work, shared by both vertex entries
fn surface_varying(position: vec3f, normal: vec3f, uv: vec2f, object: u32) -> SurfaceVarying {
    let o = objects[object];
    let world = o.model * vec4f(position, 1.0);
    var out: SurfaceVarying;
    out.clip = camera.view_projection * world;
    out.world_position = world.xyz;
    // (a flat geometry's fragments take the face normal: nothing to carry, nor to read, below)
    out.normal = vec3f(0.0);
    if (!FLAT_NORMALS) { out.normal = mat3x3f(o.normal_0.xyz, o.normal_1.xyz, o.normal_2.xyz) * normal; }
    out.uv = uv;
    out.object = object;
    out.tangent = vec4f(0.0);
    out.uv1 = uv;
    return out;
}

// the tangent (to world space) and the second uv set, for the vertex entries that read them
fn with_tangent(surface: SurfaceVarying, tangent: vec4f, uv1: vec2f) -> SurfaceVarying {
    var out = surface;
    let model = objects[out.object].model;
    out.tangent = vec4f(mat3x3f(model[0].xyz, model[1].xyz, model[2].xyz) * tangent.xyz, tangent.w);
    out.uv1 = uv1;
    return out;
}

@vertex
fn vs_surface(
    @location(0) position: vec3f,
    @location(1) normal: vec3f,
    @location(2) uv: vec2f,
    @location(4) tangent: vec4f,
    @location(5) uv1: vec2f,
    @builtin(instance_index) instance: u32,
) -> SurfaceVarying {
    return with_tangent(surface_varying(position, normal, uv, visible[instance]), tangent, uv1);
}

// geometries drawn with materials that need neither tangents nor uv1 (no normal map, every slot on uv set 0):
// three vertex buffers, as every other mesh pass binds
@vertex
fn vs_surface_basic(
    @location(0) position: vec3f,
    @location(1) normal: vec3f,
    @location(2) uv: vec2f,
    @builtin(instance_index) instance: u32,
) -> SurfaceVarying {
    return surface_varying(position, normal, uv, visible[instance]);
}

struct Surface {
    albedo: vec3f,
    alpha: f32,
    normal: vec3f,
    roughness: f32,
    metalness: f32,
    occlusion: f32,
    emissive: vec3f,
};

// texture bits (ObjectData.ids.w): bit i the slot samples uv set 1, bit 8 a normal map, bit 9 + i the slot is bound
fn slot_bound(bits: u32, slot: u32) -> bool {
    return ((bits >> (9u + slot)) & 1u) != 0u;
}

// pipelines drawing flat-shaded geometries set it (draw_runs' FLAT_VARIANT)
override FLAT_NORMALS: bool = false;

fn material_surface(in: SurfaceVarying, front: bool, masked: bool) -> Surface {
    let o = objects[in.object];
    let bits = o.ids.w;
    // derivatives in uniform control flow; the slots bound are sampled with them (explicit gradients may be taken
    // in the per-object branches), the empty ones cost nothing
    let dp_dx = dpdx(in.world_position);
    let dp_dy = dpdy(in.world_position);
    let duv0_dx = dpdx(in.uv);
    let duv0_dy = dpdy(in.uv);
    let duv1_dx = dpdx(in.uv1);
    let duv1_dy = dpdy(in.uv1);
    var base = o.base_color;
    if (slot_bound(bits, 0u)) {
        let on1 = ((bits >> 0u) & 1u) != 0u;
        base *= textureSampleGrad(base_color_texture, base_color_sampler, select(in.uv, in.uv1, on1), select(duv0_dx, duv1_dx, on1), select(duv0_dy, duv1_dy, on1));
    }
    if (masked && base.a < o.surface.w) { discard; }
    var metallic_roughness = vec4f(1.0);
    if (slot_bound(bits, 1u)) {
        let on1 = ((bits >> 1u) & 1u) != 0u;
        metallic_roughness = textureSampleGrad(metallic_roughness_texture, metallic_roughness_sampler, select(in.uv, in.uv1, on1), select(duv0_dx, duv1_dx, on1), select(duv0_dy, duv1_dy, on1));
    }
    var occlusion = 1.0;
    if (slot_bound(bits, 3u)) {
        let on1 = ((bits >> 3u) & 1u) != 0u;
        occlusion = textureSampleGrad(occlusion_texture, occlusion_sampler, select(in.uv, in.uv1, on1), select(duv0_dx, duv1_dx, on1), select(duv0_dy, duv1_dy, on1)).r;
    }
    var emissive = vec3f(1.0);
    if (slot_bound(bits, 4u)) {
        let on1 = ((bits >> 4u) & 1u) != 0u;
        emissive = textureSampleGrad(emissive_texture, emissive_sampler, select(in.uv, in.uv1, on1), select(duv0_dx, duv1_dx, on1), select(duv0_dy, duv1_dy, on1)).rgb;
    }
    let facing = select(-1.0, 1.0, front);
    // a flat-shaded geometry drawn with vertices glued across normals: the face's normal, which screen derivatives
    // of the position give towards the viewer (x right and y down on the screen: dp_dy x dp_dx points out of it),
    // as a front face's vertex normals, or a double-sided back face's turned round, would
    var n = select(normalize(in.normal) * facing, normalize(cross(dp_dy, dp_dx)), FLAT_NORMALS);
    if ((bits & 256u) != 0u) {
        let normal_on1 = ((bits >> 2u) & 1u) != 0u;
        let normal_uv = select(in.uv, in.uv1, normal_on1);
        let duv_dx = select(duv0_dx, duv1_dx, normal_on1);
        let duv_dy = select(duv0_dy, duv1_dy, normal_on1);
        let mapped = textureSampleGrad(normal_texture, normal_sampler, normal_uv, duv_dx, duv_dy).xyz;
        var t: vec3f;
        var b: vec3f;
        if (in.tangent.w != 0.0) {
            t = normalize(in.tangent.xyz - n * dot(n, in.tangent.xyz));
            b = cross(n, t) * in.tangent.w;
            t *= facing;
            b *= facing;
        } else {
            // no tangents in the geometry: the cotangent frame from screen derivatives of position and uv. The
            // framebuffer's y grows downwards, which turns the frame's tangent (towards +u) around; glTF's
            // bitangent points up the image (towards smaller v), which turns it around a second time
            let dp2_perp = cross(dp_dy, n);
            let dp1_perp = cross(n, dp_dx);
            let tangent = dp2_perp * duv_dx.x + dp1_perp * duv_dy.x;
            let bitangent = dp2_perp * duv_dx.y + dp1_perp * duv_dy.y;
            let scale = inverseSqrt(max(max(dot(tangent, tangent), dot(bitangent, bitangent)), 1e-24));
            t = -tangent * scale;
            b = bitangent * scale;
        }
        let m = (mapped * 2.0 - 1.0) * vec3f(o.params.z, o.params.z, 1.0);
        let perturbed = t * m.x + b * m.y + n * m.z;
        if (dot(perturbed, perturbed) > 1e-12) { n = normalize(perturbed); }
    }
    var s: Surface;
    s.albedo = base.rgb;
    s.alpha = base.a;
    s.normal = n;
    s.roughness = o.params.x * metallic_roughness.g;
    s.metalness = o.params.y * metallic_roughness.b;
    s.occlusion = 1.0 + o.params.w * (occlusion - 1.0);
    s.emissive = o.surface.rgb * emissive;
    return s;
}
`;

/** `SURFACE_VERTEX_BUFFERS` of a pipeline that pulls a skin batch's positions and normals: uvs, tangents, uv1. */
export const SURFACE_VERTEX_BUFFERS_PULLED: (GPUVertexBufferLayout | null)[] = [null, null, ...SURFACE_VERTEX_BUFFERS.slice(2)];

/** The uvs alone (buffer 2), for pulling pipelines of the three-buffer layout. */
export const UV_VERTEX_BUFFERS_PULLED: (GPUVertexBufferLayout | null)[] = [null, null, SURFACE_VERTEX_BUFFERS[2]];

/**
 * The surface's vertex entries for a skin batch's meshes (`vs_surface_pulled`, `vs_surface_basic_pulled`): as
 * `vs_surface` and `vs_surface_basic`, with positions and normals pulled from the batch's buffers at the object's
 * vertex base (`skinned_vertices_wgsl` at `SKINNED_VERTICES_GROUP`). Append to a shader that includes `SURFACE_WGSL`.
 */
export const SURFACE_PULLED_WGSL = /* wgsl */ `
${skinned_vertices_wgsl(SKINNED_VERTICES_GROUP)}
@vertex
fn vs_surface_pulled(
    @builtin(vertex_index) vertex: u32,
    @location(2) uv: vec2f,
    @location(4) tangent: vec4f,
    @location(5) uv1: vec2f,
    @builtin(instance_index) instance: u32,
) -> SurfaceVarying {
    let object = visible[instance];
    let base = skin_base(objects[object].normal_0);
    var normal = vec3f(0.0);
    if (!FLAT_NORMALS) { normal = skinned_normal(base, vertex); }
    return with_tangent(surface_varying(skinned_position(base, vertex), normal, uv, object), tangent, uv1);
}

@vertex
fn vs_surface_basic_pulled(
    @builtin(vertex_index) vertex: u32,
    @location(2) uv: vec2f,
    @builtin(instance_index) instance: u32,
) -> SurfaceVarying {
    let object = visible[instance];
    let base = skin_base(objects[object].normal_0);
    var normal = vec3f(0.0);
    if (!FLAT_NORMALS) { normal = skinned_normal(base, vertex); }
    return surface_varying(skinned_position(base, vertex), normal, uv, object);
}
`;
