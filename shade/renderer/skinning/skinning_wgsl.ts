/** Vertices a skinning workgroup handles. */
export const SKINNING_WORKGROUP = 64;

/** Bytes before the joint matrices in a skin's palette: vertex count (16 bytes) and the mesh's inverse world matrix. */
export const PALETTE_HEADER_BYTES = 16 + 64;

/**
 * Linear blend skinning, one vertex per invocation: four joints and weights per vertex, the joint matrices (world
 * space) brought into the mesh's own space by its inverse world matrix, so that every pass drawing the mesh applies
 * its world matrix as for a rigid mesh (and its bounds and motion keep meaning what they mean for one).
 */
export const SKINNING_WGSL = /* wgsl */ `
struct Palette {
    vertex_count: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    inverse_world: mat4x4f,
    joints: array<mat4x4f>,
};

@group(0) @binding(0) var<storage, read> palette: Palette;
@group(0) @binding(1) var<storage, read> positions: array<f32>;
@group(0) @binding(2) var<storage, read> normals: array<f32>;
@group(0) @binding(3) var<storage, read> joints: array<vec4f>;
@group(0) @binding(4) var<storage, read> weights: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> out_positions: array<f32>;
@group(0) @binding(6) var<storage, read_write> out_normals: array<f32>;

@compute @workgroup_size(${SKINNING_WORKGROUP})
fn cs_skin(@builtin(global_invocation_id) id: vec3u) {
    let i = id.x;
    if (i >= palette.vertex_count) { return; }
    // a joint index past the skin reads its last joint (a file's fault, checked at load; never out of bounds here)
    let last = arrayLength(&palette.joints) - 1u;
    let j = min(vec4u(joints[i]), vec4u(last));
    let w = weights[i];
    let blended = palette.joints[j.x] * w.x + palette.joints[j.y] * w.y + palette.joints[j.z] * w.z + palette.joints[j.w] * w.w;
    let m = palette.inverse_world * blended;
    let p = m * vec4f(positions[3u * i], positions[3u * i + 1u], positions[3u * i + 2u], 1.0);
    let n = mat3x3f(m[0].xyz, m[1].xyz, m[2].xyz) * vec3f(normals[3u * i], normals[3u * i + 1u], normals[3u * i + 2u]);
    let unit = n * inverseSqrt(max(dot(n, n), 1e-20));
    out_positions[3u * i] = p.x;
    out_positions[3u * i + 1u] = p.y;
    out_positions[3u * i + 2u] = p.z;
    out_normals[3u * i] = unit.x;
    out_normals[3u * i + 1u] = unit.y;
    out_normals[3u * i + 2u] = unit.z;
}
`;
