import { CAMERA_WGSL } from "../scene/Camera.js";

/** Words (4 bytes) per mesh record: model (16), colour (4), first_index, index_base, position_base, color_base. */
export const MESH_RECORD_WORDS = 24;
export const MESH_RECORD_BYTES = MESH_RECORD_WORDS * 4;
/** Word offsets of the record's u32 fields. */
export const RECORD_FIRST_INDEX = 20;
export const RECORD_INDEX_BASE = 21;
export const RECORD_POSITION_BASE = 22;
export const RECORD_COLOR_BASE = 23;
/**
 * `color_base` of a geometry without per-vertex colour: 2^30 - 1, a word offset no pool reaches (a pool region
 * is at most 2^30 bytes) and still a small integer in V8.
 */
export const NO_VERTEX_COLOR = 0x3fffffff;
/**
 * `index_base` is `word offset * 2 + INDEX_16_BIT` for 16-bit indices (two per word, low half first) and
 * `word offset * 2` for 32-bit ones. Every field stays below 2^30: a small integer in V8, so the CPU side
 * never boxes one.
 */
export const INDEX_16_BIT = 1;

/**
 * The dynamic mesh shader. One non-indexed draw covers a whole batch by vertex pulling:
 *
 * - `positions` holds every geometry's xyz positions (f32); `pool` its optional RGBA colours (f32), then its
 *   indices (u32, or u16 pairs): the two regions of `DynamicGeometryPool`.
 * - `meshes` holds one record per mesh; the draw's `firstInstance` points at a header record whose
 *   `first_index` is the draw's first vertex and whose `index_base` is its mesh count, followed by the
 *   meshes, whose `first_index` is the running sum of index counts.
 * - A vertex finds its mesh by binary search over `first_index`, its index at `vertex - first_index`, and
 *   its position (`position_base`, in `positions`) and colour (`color_base`, in `pool`) through the index.
 *
 * Colour is straight alpha everywhere it is specified; the fragment shader premultiplies, and the pipeline
 * blends premultiplied-over (`one`, `one-minus-src-alpha`): the same pixels as straight-alpha over, with the
 * destination alpha accumulating as `a + (1 - a) * a_dst`.
 */
export const DYNAMIC_MESH_WGSL = /* wgsl */ `
${CAMERA_WGSL}

struct MeshRecord {
    model: mat4x4f,
    color: vec4f,
    first_index: u32,
    index_base: u32,
    position_base: u32,
    color_base: u32,
};

@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<storage, read> pool: array<u32>;
@group(0) @binding(2) var<storage, read> meshes: array<MeshRecord>;
@group(0) @binding(3) var<storage, read> positions: array<f32>;

const NO_VERTEX_COLOR: u32 = ${NO_VERTEX_COLOR}u;
const INDEX_16_BIT: u32 = ${INDEX_16_BIT}u;

struct DynamicMeshVarying {
    @builtin(position) position: vec4f,
    @location(0) color: vec4f,
};

fn position_at(at: u32) -> vec3f {
    return vec3f(positions[at], positions[at + 1u], positions[at + 2u]);
}

fn pool_vec4(at: u32) -> vec4f {
    return vec4f(bitcast<f32>(pool[at]), bitcast<f32>(pool[at + 1u]), bitcast<f32>(pool[at + 2u]), bitcast<f32>(pool[at + 3u]));
}

@vertex
fn vs_main(@builtin(vertex_index) vertex: u32, @builtin(instance_index) header: u32) -> DynamicMeshVarying {
    // the last mesh whose first_index <= vertex (meshes with no indices share a first_index with the next)
    var lo = header + 1u;
    var hi = lo + meshes[header].index_base;
    while (hi - lo > 1u) {
        let mid = (lo + hi) >> 1u;
        if (meshes[mid].first_index <= vertex) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let local = vertex - meshes[lo].first_index;
    let index_base = meshes[lo].index_base;
    var index: u32;
    if ((index_base & INDEX_16_BIT) != 0u) {
        let word = pool[(index_base >> 1u) + (local >> 1u)];
        index = (word >> ((local & 1u) * 16u)) & 0xffffu;
    } else {
        index = pool[(index_base >> 1u) + local];
    }
    let position = position_at(meshes[lo].position_base + index * 3u);
    var color = meshes[lo].color;
    let color_base = meshes[lo].color_base;
    if (color_base != NO_VERTEX_COLOR) {
        color *= pool_vec4(color_base + index * 4u);
    }
    var out: DynamicMeshVarying;
    out.position = camera.view_projection * (meshes[lo].model * vec4f(position, 1.0));
    out.color = color;
    return out;
}

@fragment
fn fs_main(in: DynamicMeshVarying) -> @location(0) vec4f {
    return vec4f(in.color.rgb * in.color.a, in.color.a);
}
`;
