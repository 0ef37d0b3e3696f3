import { OBJECT_WGSL } from "../mesh/mesh_wgsl.js";
import { SKINNED_VERTICES_GROUP, skinned_vertices_wgsl } from "../mesh/skinned_vertices.js";

/** Bytes between the cascades' light matrices in their uniform buffer (minUniformBufferOffsetAlignment's largest allowed value). */
export const CASTER_STRIDE = 256;

/** The shadow casters' shader: rigid and masked casters, and both pulling a skin batch's vertices. */
export const CASTER_WGSL = /* wgsl */ `
${OBJECT_WGSL}
@group(0) @binding(0) var<uniform> light_view_projection: mat4x4f;
@group(0) @binding(1) var<storage, read> objects: array<ObjectData>;
// the objects of each cascade that survived culling; instance_index walks this list
@group(0) @binding(2) var<storage, read> casters: array<u32>;

@vertex
fn vs_caster(@location(0) position: vec3f, @builtin(instance_index) instance: u32) -> @builtin(position) vec4f {
    return light_view_projection * (objects[casters[instance]].model * vec4f(position, 1.0));
}

// masked materials cut their holes into the shadow too: the base colour's coverage against the cutoff, as the
// G-buffer does (group 1: the material's bindings, of which only the base colour is read)
@group(1) @binding(0) var base_color_texture: texture_2d<f32>;
@group(1) @binding(1) var base_color_sampler: sampler;

struct MaskedVarying {
    @builtin(position) clip: vec4f,
    @location(0) uv: vec2f,
    // base colour alpha, alpha cutoff, whether the base colour texture is bound (1) or not (0)
    @location(1) @interpolate(flat) coverage: vec3f,
};

@vertex
fn vs_masked_caster(@location(0) position: vec3f, @location(1) uv: vec2f, @location(2) uv1: vec2f, @builtin(instance_index) instance: u32) -> MaskedVarying {
    let o = objects[casters[instance]];
    var out: MaskedVarying;
    out.clip = light_view_projection * (o.model * vec4f(position, 1.0));
    // texture bits: bit 0 the base colour on uv set 1, bit 9 it is bound
    out.uv = select(uv, uv1, (o.ids.w & 1u) != 0u);
    out.coverage = vec3f(o.base_color.a, o.surface.w, select(0.0, 1.0, (o.ids.w & 512u) != 0u));
    return out;
}

@fragment
fn fs_masked_caster(in: MaskedVarying) {
    let texel = textureSample(base_color_texture, base_color_sampler, in.uv).a;
    if (in.coverage.x * mix(1.0, texel, in.coverage.z) < in.coverage.y) { discard; }
}

// a skin batch's casters: positions pulled from the batch at the object's base (group 1 is the material's)
${skinned_vertices_wgsl(SKINNED_VERTICES_GROUP)}
@vertex
fn vs_caster_pulled(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> @builtin(position) vec4f {
    let o = objects[casters[instance]];
    return light_view_projection * (o.model * vec4f(skinned_position(skin_base(o.normal_0), vertex), 1.0));
}

@vertex
fn vs_masked_caster_pulled(@builtin(vertex_index) vertex: u32, @location(1) uv: vec2f, @location(2) uv1: vec2f, @builtin(instance_index) instance: u32) -> MaskedVarying {
    let o = objects[casters[instance]];
    var out: MaskedVarying;
    out.clip = light_view_projection * (o.model * vec4f(skinned_position(skin_base(o.normal_0), vertex), 1.0));
    out.uv = select(uv, uv1, (o.ids.w & 1u) != 0u);
    out.coverage = vec3f(o.base_color.a, o.surface.w, select(0.0, 1.0, (o.ids.w & 512u) != 0u));
    return out;
}
`;
