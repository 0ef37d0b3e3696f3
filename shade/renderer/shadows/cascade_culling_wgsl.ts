import { MAX_DETAIL_LEVELS } from "../geometry/GeometryDetail.js";
import { OBJECT_CASTS_SHADOWS, OBJECT_WGSL } from "../mesh/mesh_wgsl.js";
import { CULL_RUN_WGSL } from "../mesh/frustum_culling_wgsl.js";
import { CAMERA_WGSL } from "../scene/Camera.js";
import { MAX_SHADOW_CASCADES } from "./ShadowCascades.js";
import { CASTER_STRIDE } from "./shadow_casters_wgsl.js";

/** Threads per workgroup of the cascades' visibility pass. */
export const CASCADE_CULL_WORKGROUP = 64;
const WORKGROUP = CASCADE_CULL_WORKGROUP;
const LEVELS = MAX_DETAIL_LEVELS;

/**
 * The shadow cascades' visibility pass (`CascadeCulling`), over the G-buffer's draw list and run table: one thread
 * per object slot and cascade (workgroup z). A slot of an opaque run whose mesh casts shadows and whose world
 * sphere reaches into the cascade's box is appended to its run's part of `casters` for the level of detail its size
 * on the camera's screen picks (as the G-buffer's culling picks it), counted up atomically in that draw's `args`.
 * Cascade c's run r draws level l from `args` entry (c * run_count + r) * levels-per-run + l; its instances from
 * `casters` slot (c * levels + l) * object_count + run.first.
 */
export const CASCADE_CULL_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${OBJECT_WGSL}
${CULL_RUN_WGSL}
struct Cascade {
    @size(${CASTER_STRIDE}) view_projection: mat4x4f,
};
struct Params {
    object_count: u32,
    run_count: u32,
    cascade_count: u32,
    // the most levels of detail a run draws: the stretches of casters per cascade
    levels: u32,
    groups_x: u32,
};
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<storage, read> objects: array<ObjectData>;
@group(0) @binding(2) var<storage, read> runs: array<Run>;
@group(0) @binding(3) var<storage, read_write> args: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> casters: array<u32>;
@group(0) @binding(5) var<uniform> params: Params;
@group(0) @binding(6) var<uniform> cascades: array<Cascade, ${MAX_SHADOW_CASCADES}>;

@compute @workgroup_size(${WORKGROUP})
fn reset_args(@builtin(global_invocation_id) id: vec3u) {
    let j = id.x;
    if (j >= params.cascade_count * params.run_count) { return; }
    let c = j / params.run_count;
    reset_run_args(j, runs[j % params.run_count], c * params.levels, params.object_count);
}

@compute @workgroup_size(${WORKGROUP})
fn cull(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) local: u32) {
    let i = (group.y * params.groups_x + group.x) * ${WORKGROUP}u + local;
    if (i >= params.object_count) { return; }
    let r = find_run(i, params.run_count);
    if (r == NO_RUN) { return; }
    if ((objects[i].ids.z & ${OBJECT_CASTS_SHADOWS}u) == 0u) { return; }
    let c = group.z;
    let run = runs[r];
    let s = world_sphere(objects[i].model, run.sphere);
    if (!in_view(cascades[c].view_projection, s.xyz, s.w)) { return; }
    let level = detail_level(run, s.xyz, s.w);
    let k = atomicAdd(&args[((c * params.run_count + r) * ${LEVELS}u + level) * 5u + 1u], 1u);
    casters[(c * params.levels + level) * params.object_count + run.first + k] = i;
}
`;
