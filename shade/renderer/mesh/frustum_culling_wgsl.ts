import { MAX_DETAIL_LEVELS } from "../geometry/GeometryDetail.js";
import { CAMERA_WGSL } from "../scene/Camera.js";
import { OBJECT_WGSL } from "./mesh_wgsl.js";

/** Threads per workgroup of the visibility pass's two entry points. */
export const CULL_WORKGROUP = 64;
const WORKGROUP = CULL_WORKGROUP;

/**
 * The visibility pass (`FrustumCulling`): one thread per object slot finds its run by binary search over the run
 * table; an object of a run whose world bounding sphere reaches into the camera's frustum is appended to its
 * run's part of `visible` for the level of detail its size on screen picks (that level's instance count in `args`
 * counted up atomically), every other slot maps to itself.
 * Mesh vertex stages read `objects[visible[instance_index]]`.
 */
export const CULL_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${OBJECT_WGSL}
struct Run {
    first: u32,
    count: u32,
    index_count: u32,
    levels: u32,
    sphere: vec4f,
    // per level of detail: first index, index count, the screen size it is drawn below
    level_first: vec4u,
    level_count: vec4u,
    level_screen: vec4f,
};
struct Params {
    object_count: u32,
    run_count: u32,
    // 0: every slot maps to itself (draws are direct), 1: the runs are compacted (level l's into visible's
    // l-th stretch of object_count slots)
    cull: u32,
    groups_x: u32,
};
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<storage, read> objects: array<ObjectData>;
@group(0) @binding(2) var<storage, read> runs: array<Run>;
@group(0) @binding(3) var<storage, read_write> args: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> visible: array<u32>;
@group(0) @binding(5) var<uniform> params: Params;

@compute @workgroup_size(${WORKGROUP})
fn reset_args(@builtin(global_invocation_id) id: vec3u) {
    let r = id.x;
    if (r >= params.run_count) { return; }
    let run = runs[r];
    for (var l = 0u; l < ${MAX_DETAIL_LEVELS}u; l++) {
        let a = (r * ${MAX_DETAIL_LEVELS}u + l) * 5u;
        atomicStore(&args[a], select(run.level_count[l], run.index_count, l == 0u));
        atomicStore(&args[a + 1u], 0u);
        atomicStore(&args[a + 2u], select(run.level_first[l], 0u, l == 0u));
        atomicStore(&args[a + 3u], 0u);
        atomicStore(&args[a + 4u], l * params.object_count + run.first);
    }
}

// outside the plane a.x * x + a.y * y + a.z * z + a.w >= 0 by more than the radius (the plane not normalised:
// the radius is scaled by its normal's length instead)
fn outside(plane: vec4f, c: vec3f, r: f32) -> bool {
    return dot(plane.xyz, c) + plane.w < -r * length(plane.xyz);
}

fn in_frustum(c: vec3f, r: f32) -> bool {
    let m = camera.view_projection;
    let x = vec4f(m[0].x, m[1].x, m[2].x, m[3].x);
    let y = vec4f(m[0].y, m[1].y, m[2].y, m[3].y);
    let z = vec4f(m[0].z, m[1].z, m[2].z, m[3].z);
    let w = vec4f(m[0].w, m[1].w, m[2].w, m[3].w);
    // clip space -w <= x, y <= w and 0 <= z <= w
    return !(outside(w + x, c, r) || outside(w - x, c, r) || outside(w + y, c, r) || outside(w - y, c, r) || outside(z, c, r) || outside(w - z, c, r));
}

@compute @workgroup_size(${WORKGROUP})
fn cull(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) local: u32) {
    let i = (group.y * params.groups_x + group.x) * ${WORKGROUP}u + local;
    if (i >= params.object_count) { return; }
    if (params.cull == 0u) {
        visible[i] = i;
        return;
    }
    // the run holding slot i: the last whose first is <= i (runs are in slot order)
    var lo = 0u;
    var hi = params.run_count;
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        if (runs[mid].first <= i) { lo = mid + 1u; } else { hi = mid; }
    }
    if (lo == 0u) {
        visible[i] = i;
        return;
    }
    let r = lo - 1u;
    let run = runs[r];
    if (i >= run.first + run.count) {
        visible[i] = i;
        return;
    }
    let model = objects[i].model;
    let c = (model * vec4f(run.sphere.xyz, 1.0)).xyz;
    // the radius by the model's largest axis scale
    let scale = sqrt(max(max(dot(model[0].xyz, model[0].xyz), dot(model[1].xyz, model[1].xyz)), dot(model[2].xyz, model[2].xyz)));
    let radius = run.sphere.w * scale;
    if (!in_frustum(c, radius)) { return; }
    // the coarsest level whose screen size the sphere is below (its diameter over the view's height)
    var level = 0u;
    if (run.levels > 1u) {
        let screen = radius * camera.projection[1][1] / max(distance(c, camera.position.xyz), 1e-6);
        for (var l = 1u; l < run.levels; l++) {
            if (screen < run.level_screen[l]) { level = l; }
        }
    }
    let k = atomicAdd(&args[(r * ${MAX_DETAIL_LEVELS}u + level) * 5u + 1u], 1u);
    visible[level * params.object_count + run.first + k] = i;
}
`;
