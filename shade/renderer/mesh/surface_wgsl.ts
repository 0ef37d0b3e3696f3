import { MESH_VERTEX_WGSL } from "./mesh_wgsl.js";

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

@vertex
fn vs_surface(
    @location(0) position: vec3f,
    @location(1) normal: vec3f,
    @location(2) uv: vec2f,
    @location(4) tangent: vec4f,
    @location(5) uv1: vec2f,
    @builtin(instance_index) object: u32,
) -> SurfaceVarying {
    let o = objects[object];
    let world = o.model * vec4f(position, 1.0);
    var out: SurfaceVarying;
    out.clip = camera.view_projection * world;
    out.world_position = world.xyz;
    out.normal = mat3x3f(o.normal_0.xyz, o.normal_1.xyz, o.normal_2.xyz) * normal;
    out.uv = uv;
    out.object = object;
    out.tangent = vec4f(mat3x3f(o.model[0].xyz, o.model[1].xyz, o.model[2].xyz) * tangent.xyz, tangent.w);
    out.uv1 = uv1;
    return out;
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

fn surface_uv(in: SurfaceVarying, bits: u32, slot: u32) -> vec2f {
    return select(in.uv, in.uv1, ((bits >> slot) & 1u) != 0u);
}

fn material_surface(in: SurfaceVarying, front: bool, masked: bool) -> Surface {
    let o = objects[in.object];
    let bits = o.ids.w;
    // every slot sampled and every derivative taken in uniform control flow; an empty slot binds a white texel
    let normal_uv = surface_uv(in, bits, 2u);
    let dp_dx = dpdx(in.world_position);
    let dp_dy = dpdy(in.world_position);
    let duv_dx = dpdx(normal_uv);
    let duv_dy = dpdy(normal_uv);
    let base = o.base_color * textureSample(base_color_texture, base_color_sampler, surface_uv(in, bits, 0u));
    let metallic_roughness = textureSample(metallic_roughness_texture, metallic_roughness_sampler, surface_uv(in, bits, 1u));
    let mapped = textureSample(normal_texture, normal_sampler, normal_uv).xyz;
    let occlusion = textureSample(occlusion_texture, occlusion_sampler, surface_uv(in, bits, 3u)).r;
    let emissive = textureSample(emissive_texture, emissive_sampler, surface_uv(in, bits, 4u)).rgb;
    if (masked && base.a < o.surface.w) { discard; }
    let facing = select(-1.0, 1.0, front);
    var n = normalize(in.normal) * facing;
    if ((bits & 256u) != 0u) {
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
