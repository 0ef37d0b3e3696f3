/** Vertices a skinning workgroup handles. */
export const SKINNING_WORKGROUP = 64;

// a skin group's uniform block (SkinGroup's params), read by the blend and the skinning
const SKIN_PARAMS_WGSL = /* wgsl */ `
struct SkinParams {
    vertex_count: u32,
    joint_count: u32,
    // matrices per instance: joint_count + 1 (the inverse world first)
    stride: u32,
    // the frame being skinned
    frame: u32,
};`;

/**
 * Linear blend skinning of every instance of one geometry in one dispatch: x runs over the vertices, y over the
 * instances (the skinned meshes sharing the geometry). Each instance's block of the palette is its mesh's inverse
 * world matrix followed by its joint matrices (world space), so the output is in the mesh's own space and every
 * pass drawing the mesh applies its world matrix as for a rigid mesh (its bounds and motion keep meaning what
 * they mean for one). Instance `k`'s vertices land at `k * vertex_count` in the output buffers. An instance whose
 * slot took a new owner this frame (`fresh[k]` is the frame) writes its positions as last frame's too: no motion
 * from the slot's previous owner.
 */
export const SKINNING_WGSL = /* wgsl */ `
${SKIN_PARAMS_WGSL}

@group(0) @binding(0) var<uniform> params: SkinParams;
@group(0) @binding(1) var<storage, read> palette: array<mat4x4f>;
@group(0) @binding(2) var<storage, read> positions: array<f32>;
@group(0) @binding(3) var<storage, read> normals: array<f32>;
// joints (as floats) of every vertex, then weights (one buffer: a compute stage has eight storage bindings)
@group(0) @binding(4) var<storage, read> skin_attributes: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> out_positions: array<f32>;
@group(0) @binding(7) var<storage, read_write> out_normals: array<f32>;
@group(0) @binding(8) var<storage, read> fresh: array<u32>;
@group(0) @binding(9) var<storage, read_write> out_previous: array<f32>;

@compute @workgroup_size(${SKINNING_WORKGROUP})
fn cs_skin(@builtin(global_invocation_id) id: vec3u) {
    let i = id.x;
    if (i >= params.vertex_count) { return; }
    let instance = id.y;
    let base = instance * params.stride;
    // a joint index past the skin reads its last joint (a file's fault, checked at load; never out of bounds here)
    let j = base + 1u + min(vec4u(skin_attributes[i]), vec4u(params.joint_count - 1u));
    let w = skin_attributes[params.vertex_count + i];
    let blended = palette[j.x] * w.x + palette[j.y] * w.y + palette[j.z] * w.z + palette[j.w] * w.w;
    let m = palette[base] * blended;
    let p = m * vec4f(positions[3u * i], positions[3u * i + 1u], positions[3u * i + 2u], 1.0);
    let n = mat3x3f(m[0].xyz, m[1].xyz, m[2].xyz) * vec3f(normals[3u * i], normals[3u * i + 1u], normals[3u * i + 2u]);
    let unit = n * inverseSqrt(max(dot(n, n), 1e-20));
    let o = 3u * (instance * params.vertex_count + i);
    out_positions[o] = p.x;
    out_positions[o + 1u] = p.y;
    out_positions[o + 2u] = p.z;
    out_normals[o] = unit.x;
    out_normals[o + 1u] = unit.y;
    out_normals[o + 2u] = unit.z;
    if (fresh[instance] == params.frame) {
        out_previous[o] = p.x;
        out_previous[o + 1u] = p.y;
        out_previous[o + 2u] = p.z;
    }
}
`;

/**
 * A skin group's palettes blended from a `SkinPaletteTable` on the GPU: x runs over the matrices of a slot (the
 * identity where the inverse world goes, then the joints), y over the slots. Each slot's blend record is two vec4u:
 * four frames of the table, then four weights (as bits).
 */
export const SKIN_BLEND_WGSL = /* wgsl */ `
${SKIN_PARAMS_WGSL}

@group(0) @binding(0) var<uniform> params: SkinParams;
@group(0) @binding(1) var<storage, read_write> palette: array<mat4x4f>;
@group(0) @binding(2) var<storage, read> table: array<mat4x4f>;
@group(0) @binding(3) var<storage, read> blends: array<vec4u>;

@compute @workgroup_size(${SKINNING_WORKGROUP})
fn cs_blend(@builtin(global_invocation_id) id: vec3u) {
    let m = id.x;
    if (m > params.joint_count) { return; }
    let slot = id.y;
    let base = slot * params.stride;
    // a table's palettes are in the mesh's space already: the inverse world is the identity
    if (m == 0u) {
        palette[base] = mat4x4f(vec4f(1.0, 0.0, 0.0, 0.0), vec4f(0.0, 1.0, 0.0, 0.0), vec4f(0.0, 0.0, 1.0, 0.0), vec4f(0.0, 0.0, 0.0, 1.0));
        return;
    }
    let frames = blends[slot * 2u] * params.joint_count + vec4u(m - 1u);
    let w = bitcast<vec4f>(blends[slot * 2u + 1u]);
    palette[base + m] = table[frames.x] * w.x + table[frames.y] * w.y + table[frames.z] * w.z + table[frames.w] * w.w;
}
`;
