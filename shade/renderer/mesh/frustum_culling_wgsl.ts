import { MAX_DETAIL_LEVELS } from "../geometry/GeometryDetail.js";
import { CAMERA_WGSL } from "../scene/Camera.js";
import { OBJECT_WGSL } from "./mesh_wgsl.js";

/** Threads per workgroup of the visibility pass's two entry points. */
export const CULL_WORKGROUP = 64;
const WORKGROUP = CULL_WORKGROUP;

/**
 * What every visibility pass over a draw list's run table shares (it expects module-scope `runs`, `camera` and
 * `args`, the indirect arguments as atomics): the `Run` row (`FrustumCulling`'s table), `reset_run_args` (a run's
 * draws before counting), `find_run` (the run holding a slot), `in_view` (a sphere against a view-projection's clip
 * volume) and `detail_level` (the level of detail its size on the camera's screen picks).
 */
export const CULL_RUN_WGSL = /* wgsl */ `
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

const NO_RUN = 0xffffffffu;

// the indirect draws of run from draw j * levels-per-run: each level's index range, no instances yet, its
// instances from the stretch + l-th stretch of object_count slots (plus the run's first)
fn reset_run_args(j: u32, run: Run, stretch: u32, object_count: u32) {
    for (var l = 0u; l < ${MAX_DETAIL_LEVELS}u; l++) {
        let a = (j * ${MAX_DETAIL_LEVELS}u + l) * 5u;
        atomicStore(&args[a], select(run.level_count[l], run.index_count, l == 0u));
        atomicStore(&args[a + 1u], 0u);
        atomicStore(&args[a + 2u], select(run.level_first[l], 0u, l == 0u));
        atomicStore(&args[a + 3u], 0u);
        atomicStore(&args[a + 4u], (stretch + l) * object_count + run.first);
    }
}

// the run of run_count holding slot i (runs are in slot order), or NO_RUN (a slot after the opaque runs)
fn find_run(i: u32, run_count: u32) -> u32 {
    var lo = 0u;
    var hi = run_count;
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        if (runs[mid].first <= i) { lo = mid + 1u; } else { hi = mid; }
    }
    if (lo == 0u) { return NO_RUN; }
    let r = lo - 1u;
    if (i >= runs[r].first + runs[r].count) { return NO_RUN; }
    return r;
}

// outside the plane a.x * x + a.y * y + a.z * z + a.w >= 0 by more than the radius (the plane not normalised:
// the radius is scaled by its normal's length instead)
fn outside(plane: vec4f, c: vec3f, r: f32) -> bool {
    return dot(plane.xyz, c) + plane.w < -r * length(plane.xyz);
}

// whether the sphere reaches into the clip volume of m (perspective or orthographic)
fn in_view(m: mat4x4f, c: vec3f, r: f32) -> bool {
    let x = vec4f(m[0].x, m[1].x, m[2].x, m[3].x);
    let y = vec4f(m[0].y, m[1].y, m[2].y, m[3].y);
    let z = vec4f(m[0].z, m[1].z, m[2].z, m[3].z);
    let w = vec4f(m[0].w, m[1].w, m[2].w, m[3].w);
    // clip space -w <= x, y <= w and 0 <= z <= w
    return !(outside(w + x, c, r) || outside(w - x, c, r) || outside(w + y, c, r) || outside(w - y, c, r) || outside(z, c, r) || outside(w - z, c, r));
}

// a run's object's world sphere: centre through the model matrix, radius by its largest axis scale
fn world_sphere(model: mat4x4f, sphere: vec4f) -> vec4f {
    let c = (model * vec4f(sphere.xyz, 1.0)).xyz;
    let scale = sqrt(max(max(dot(model[0].xyz, model[0].xyz), dot(model[1].xyz, model[1].xyz)), dot(model[2].xyz, model[2].xyz)));
    return vec4f(c, sphere.w * scale);
}

// the coarsest level whose screen size the sphere is below (its diameter over the camera's view height)
fn detail_level(run: Run, c: vec3f, radius: f32) -> u32 {
    var level = 0u;
    if (run.levels > 1u) {
        let screen = radius * camera.projection[1][1] / max(distance(c, camera.position.xyz), 1e-6);
        for (var l = 1u; l < run.levels; l++) {
            if (screen < run.level_screen[l]) { level = l; }
        }
    }
    return level;
}
`;

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
${CULL_RUN_WGSL}
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
    reset_run_args(r, runs[r], 0u, params.object_count);
}

@compute @workgroup_size(${WORKGROUP})
fn cull(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) local: u32) {
    let i = (group.y * params.groups_x + group.x) * ${WORKGROUP}u + local;
    if (i >= params.object_count) { return; }
    if (params.cull == 0u) {
        visible[i] = i;
        return;
    }
    let r = find_run(i, params.run_count);
    if (r == NO_RUN) {
        visible[i] = i;
        return;
    }
    let run = runs[r];
    let s = world_sphere(objects[i].model, run.sphere);
    if (!in_view(camera.view_projection, s.xyz, s.w)) { return; }
    let level = detail_level(run, s.xyz, s.w);
    let k = atomicAdd(&args[(r * ${MAX_DETAIL_LEVELS}u + level) * 5u + 1u], 1u);
    visible[level * params.object_count + run.first + k] = i;
}
`;
