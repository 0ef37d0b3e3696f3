import { CAMERA_WGSL } from "../scene/Camera.js";

/** Floats per object in the object storage buffer (see `OBJECT_WGSL`). */
export const OBJECT_FLOATS = 60;
export const OBJECT_BYTES = OBJECT_FLOATS * 4;
/**
 * A bit of the object flags (`ids.z`) above the eight the G-buffer stores: the mesh casts shadows
 * (`Mesh.cast_shadows`). Read on the CPU by the passes that draw casters.
 */
export const OBJECT_CASTS_SHADOWS = 256;

/** Per-object data, one entry per drawn mesh, indexed by instance index. */
export const OBJECT_WGSL = /* wgsl */ `
struct ObjectData {
    model: mat4x4f,
    // columns of the normal matrix (inverse transpose of the model's 3x3)
    normal_0: vec4f,
    normal_1: vec4f,
    normal_2: vec4f,
    base_color: vec4f,
    // roughness, metalness, normal scale, occlusion strength
    params: vec4f,
    // object id, material id, flags (GBufferFlags: bit 0 lit, bit 1 textured, bit 2 receives decals; bit 8
    // OBJECT_CASTS_SHADOWS, not stored in the G-buffer),
    // texture bits (bit i: slot i samples uv set 1, slots base colour, metallic-roughness, normal, occlusion,
    // emissive; bit 8: a normal map is bound)
    ids: vec4u,
    // last frame's model matrix (this frame's for a mesh not drawn last frame): per-object motion (Velocity)
    previous_model: mat4x4f,
    // emissive radiance (rgb), alpha cutoff (w; 0 for materials that are not masked)
    surface: vec4f,
};
`;

/**
 * The vertex stage every mesh pass shares: camera at group 0 binding 0, objects at binding 1, and at binding 2 the
 * object slot each instance draws (`visible`: instance index to slot, written by `FrustumCulling`).
 */
export const MESH_VERTEX_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${OBJECT_WGSL}
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<storage, read> objects: array<ObjectData>;
@group(0) @binding(2) var<storage, read> visible: array<u32>;

struct MeshVarying {
    // invariant: passes that depth-test "less-equal" against the G-buffer's depth (velocity) need the same depth
    @builtin(position) @invariant clip: vec4f,
    @location(0) world_position: vec3f,
    @location(1) normal: vec3f,
    @location(2) uv: vec2f,
    @location(3) @interpolate(flat) object: u32,
};

@vertex
fn vs_mesh(
    @location(0) position: vec3f,
    @location(1) normal: vec3f,
    @location(2) uv: vec2f,
    @builtin(instance_index) instance: u32,
) -> MeshVarying {
    let object = visible[instance];
    let o = objects[object];
    let world = o.model * vec4f(position, 1.0);
    var out: MeshVarying;
    out.clip = camera.view_projection * world;
    out.world_position = world.xyz;
    out.normal = mat3x3f(o.normal_0.xyz, o.normal_1.xyz, o.normal_2.xyz) * normal;
    out.uv = uv;
    out.object = object;
    return out;
}
`;

/** Bytes of the lights uniform block. */
export const LIGHTS_BYTES = 64 + 256 * 32;

/** Lights, the physically based BRDF and tiled point lighting (the includer declares `lights` and `light_tiles`). */
export const LIGHTING_WGSL = /* wgsl */ `
struct PointLightData {
    // xyz position, w range
    position_range: vec4f,
    // rgb colour x intensity
    color: vec4f,
};
struct Lights {
    // xyz direction the light travels, w unused
    sun_direction: vec4f,
    sun_color: vec4f,
    ambient: vec4f,
    // x: point light count
    counts: vec4u,
    points: array<PointLightData, 256>,
};

const PI = 3.14159265358979;

// Cook-Torrance: GGX distribution, Smith-Schlick geometry, Schlick Fresnel; Lambert diffuse.
fn brdf(n: vec3f, v: vec3f, l: vec3f, albedo: vec3f, roughness: f32, metalness: f32) -> vec3f {
    let h = normalize(v + l);
    let n_l = max(dot(n, l), 0.0);
    let n_v = max(dot(n, v), 1e-4);
    let n_h = max(dot(n, h), 0.0);
    let v_h = max(dot(v, h), 0.0);
    let r = clamp(roughness, 0.04, 1.0);
    let a = r * r;
    let a2 = a * a;
    let d_denominator = n_h * n_h * (a2 - 1.0) + 1.0;
    let d = a2 / (PI * d_denominator * d_denominator);
    let k = (r + 1.0) * (r + 1.0) / 8.0;
    let g = (n_v / (n_v * (1.0 - k) + k)) * (n_l / (n_l * (1.0 - k) + k));
    let f0 = mix(vec3f(0.04), albedo, metalness);
    let f = f0 + (vec3f(1.0) - f0) * pow(1.0 - v_h, 5.0);
    let specular = d * g * f / (4.0 * n_v * n_l + 1e-4);
    let diffuse = (vec3f(1.0) - f) * (1.0 - metalness) * albedo / PI;
    return (diffuse + specular) * n_l;
}

// Inverse-square falloff windowed smoothly to zero at the light's range.
fn point_attenuation(distance: f32, range: f32) -> f32 {
    let ratio = distance / range;
    let window = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
    return window * window / max(distance * distance, 1e-4);
}

// The sun, times \`visible\` (1 in full sun, less where something stands between the sun and the point). The ambient term is the caller's
// (ambient * albedo * occlusion, or the environment's light).
fn shade_sun(lights: ptr<uniform, Lights>, n: vec3f, v: vec3f, albedo: vec3f, roughness: f32, metalness: f32, visible: f32) -> vec3f {
    let sun_l = -normalize((*lights).sun_direction.xyz);
    return brdf(n, v, sun_l, albedo, roughness, metalness) * (*lights).sun_color.rgb * visible;
}

// One point light; zero beyond its range.
fn shade_point(lights: ptr<uniform, Lights>, i: u32, p: vec3f, n: vec3f, v: vec3f, albedo: vec3f, roughness: f32, metalness: f32) -> vec3f {
    let light = (*lights).points[i];
    let to_light = light.position_range.xyz - p;
    let distance = length(to_light);
    if (distance >= light.position_range.w) { return vec3f(0.0); }
    let l = to_light / max(distance, 1e-4);
    return brdf(n, v, l, albedo, roughness, metalness) * light.color.rgb * point_attenuation(distance, light.position_range.w);
}

// The point lights binned into this pixel's screen tile (see LightTiles). The including shader declares
// \`light_tiles: array<u32>\` at its own binding.
fn shade_tile_points(lights: ptr<uniform, Lights>, pixel: vec2u, p: vec3f, n: vec3f, v: vec3f, albedo: vec3f, roughness: f32, metalness: f32) -> vec3f {
    let tile_size = light_tiles[2];
    let tile = min(pixel.y / tile_size, light_tiles[1] - 1u) * light_tiles[0] + min(pixel.x / tile_size, light_tiles[0] - 1u);
    let first = light_tiles[4u + tile * 2u];
    let count = light_tiles[5u + tile * 2u];
    var color = vec3f(0.0);
    for (var k = 0u; k < count; k++) {
        color += shade_point(lights, light_tiles[first + k], p, n, v, albedo, roughness, metalness);
    }
    return color;
}
`;
