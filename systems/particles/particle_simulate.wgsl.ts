import { CAMERA_WGSL } from "../../shade/renderer/scene/Camera.js";

/** Bytes per particle in the particle storage buffer (`Particle` below). */
export const PARTICLE_BYTES = 48;
/** 32-bit words per particle. */
export const PARTICLE_WORDS = 12;
/** Word offsets inside a particle record. */
export const PARTICLE_AGE = 3;
export const PARTICLE_LIFETIME = 7;
export const PARTICLE_TAG = 8;

/** 32-bit words per emitter record (`Emitter` below). */
export const EMITTER_WORDS = 36;
export const EMITTER_BYTES = EMITTER_WORDS * 4;
/** Word offsets inside an emitter record. */
export const E_POSITION = 0;
export const E_SPAWN_OFFSET = 3;
export const E_DIRECTION = 4;
export const E_COS_CONE = 7;
export const E_GRAVITY = 8;
export const E_DRAG = 11;
export const E_COLOR_START = 12;
export const E_COLOR_END = 16;
export const E_SPEED_MIN = 20;
export const E_SPEED_MAX = 21;
export const E_LIFE_MIN = 22;
export const E_LIFE_MAX = 23;
export const E_SIZE_START = 24;
export const E_SIZE_END = 25;
export const E_FRAME_START = 26;
export const E_FRAME_COUNT = 27;
export const E_FRAME_RATE = 28;
export const E_SOFTNESS = 29;
export const E_SPAWN_COUNT = 30;
export const E_TAG = 31;
export const E_SEED = 32;
export const E_SERIAL = 33;
export const E_FLAGS = 34;

/** Emitter flag bits. */
export const EMITTER_ACTIVE = 1;
export const EMITTER_ALPHA = 2;

/** Bytes of the simulation uniforms (`SimParams`). */
export const SIM_PARAMS_BYTES = 32;
/** Bytes of the counters (`Counters`): dead count, dropped, spawned, alive, splatted. */
export const COUNTERS_BYTES = 32;
/** Bytes of the two drawIndirect argument blocks: additive at 0, alpha at 16. */
export const DRAW_ARGS_BYTES = 32;
/** Threads per workgroup of the spawn and simulate dispatches. */
export const SIM_WORKGROUP = 256;

/** Structs shared by the simulation and the billboard shaders. */
export const PARTICLE_STRUCTS_WGSL = /* wgsl */ `
struct Particle {
    position: vec3f,
    age: f32,
    velocity: vec3f,
    // <= 0: the slot is dead
    lifetime: f32,
    // emitter slot (low 16 bits) | emitter generation (high 16 bits): a particle whose emitter record no
    // longer carries its tag belongs to a removed emitter and dies
    tag: u32,
    seed: u32,
    pad0: u32,
    pad1: u32,
};

struct Emitter {
    position: vec3f,
    spawn_offset: u32,
    direction: vec3f,
    cos_cone: f32,
    gravity: vec3f,
    drag: f32,
    color_start: vec4f,
    color_end: vec4f,
    speed_min: f32,
    speed_max: f32,
    life_min: f32,
    life_max: f32,
    size_start: f32,
    size_end: f32,
    frame_start: f32,
    frame_count: f32,
    frame_rate: f32,
    softness: f32,
    spawn_count: u32,
    tag: u32,
    seed: u32,
    serial: u32,
    flags: u32,
    pad: u32,
};

const EMITTER_ACTIVE: u32 = ${EMITTER_ACTIVE}u;
const EMITTER_ALPHA: u32 = ${EMITTER_ALPHA}u;
`;

/**
 * The simulation, one compute pass at FrameStart:
 *
 * - `cs_init` (once per device): every slot on the dead list (a stack of free indices, popped from the top).
 * - `cs_begin` (one thread): zeroes this frame's drawIndirect vertex counts.
 * - `cs_spawn` (one thread per particle requested this frame): finds its emitter by binary search over the
 *   emitters' running spawn offsets, pops a free slot with an atomic on the dead count (an empty list drops
 *   the particle: live slots are never touched) and writes the new particle from the emitter's cone.
 * - `cs_simulate` (one thread per slot): ages and integrates live particles (gravity, drag), kills those past
 *   their lifetime or whose emitter was removed (pushing the slot back on the dead list), and appends the
 *   survivors to the draw list of their blend mode: additive from the front, alpha from the back, one global
 *   atomic per workgroup. Particles whose billboard would cover less than `splat_pixels` pixels on screen go
 *   to the splat list instead (drawn by a compute splat, not the rasteriser: see particle_render).
 *
 * The CPU writes only the uniforms and the emitter table: nothing it does depends on the particle count.
 */
export const PARTICLE_SIMULATE_WGSL = /* wgsl */ `
${CAMERA_WGSL}
${PARTICLE_STRUCTS_WGSL}

struct SimParams {
    dt: f32,
    capacity: u32,
    spawn_total: u32,
    emitter_count: u32,
    // workgroups per row of a 2D dispatch (more than 65535 workgroups do not fit one dimension)
    spawn_row: u32,
    simulate_row: u32,
    frame: u32,
    // additive particles smaller than this on screen (diameter, pixels) are splatted by compute; 0: never
    splat_pixels: f32,
};

struct Counters {
    dead_count: atomic<i32>,
    dropped: atomic<u32>,
    spawned: atomic<u32>,
    alive: atomic<u32>,
    splatted: atomic<u32>,
    pad0: u32,
    pad1: u32,
    pad2: u32,
};

// drawIndirect arguments: vertex count, instance count, first vertex, first instance; additive then alpha
struct DrawArgs {
    additive_vertices: atomic<u32>,
    additive_instances: u32,
    additive_first_vertex: u32,
    additive_first_instance: u32,
    alpha_vertices: atomic<u32>,
    alpha_instances: u32,
    alpha_first_vertex: u32,
    alpha_first_instance: u32,
};

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> emitters: array<Emitter>;
@group(0) @binding(2) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(3) var<storage, read_write> dead_list: array<u32>;
@group(0) @binding(4) var<storage, read_write> counters: Counters;
@group(0) @binding(5) var<storage, read_write> draw_args: DrawArgs;
@group(0) @binding(6) var<storage, read_write> draw_list: array<u32>;
@group(0) @binding(7) var<uniform> camera: CameraUniforms;
@group(0) @binding(8) var<storage, read_write> splat_list: array<u32>;

fn hash(v: u32) -> u32 {
    // PCG-style integer hash
    var s = v * 747796405u + 2891336453u;
    let w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
    return (w >> 22u) ^ w;
}

fn unit(h: u32) -> f32 {
    return f32(h >> 8u) * (1.0 / 16777216.0);
}

fn thread_index(id: vec3u, row: u32) -> u32 {
    return id.x + id.y * row * ${SIM_WORKGROUP}u;
}

@compute @workgroup_size(${SIM_WORKGROUP})
fn cs_init(@builtin(global_invocation_id) id: vec3u) {
    let i = thread_index(id, params.simulate_row);
    if (i == 0u) {
        atomicStore(&counters.dead_count, i32(params.capacity));
    }
    if (i < params.capacity) {
        // popped from the top: slot 0 first
        dead_list[i] = params.capacity - 1u - i;
        particles[i].lifetime = 0.0;
    }
}

@compute @workgroup_size(1)
fn cs_begin() {
    atomicStore(&draw_args.additive_vertices, 0u);
    draw_args.additive_instances = 1u;
    draw_args.additive_first_vertex = 0u;
    draw_args.additive_first_instance = 0u;
    atomicStore(&draw_args.alpha_vertices, 0u);
    draw_args.alpha_instances = 1u;
    draw_args.alpha_first_vertex = 0u;
    draw_args.alpha_first_instance = 0u;
    atomicStore(&counters.alive, 0u);
    atomicStore(&counters.splatted, 0u);
}

@compute @workgroup_size(${SIM_WORKGROUP})
fn cs_spawn(@builtin(global_invocation_id) id: vec3u) {
    let t = thread_index(id, params.spawn_row);
    if (t >= params.spawn_total) {
        return;
    }
    // the last emitter whose running offset is <= t owns t (emitters spawning nothing share the next offset)
    var lo = 0u;
    var hi = params.emitter_count;
    while (lo + 1u < hi) {
        let mid = (lo + hi) >> 1u;
        if (emitters[mid].spawn_offset <= t) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let e = emitters[lo];
    let top = atomicSub(&counters.dead_count, 1);
    if (top <= 0) {
        // no free slot: the particle is dropped; live ones are untouched
        atomicAdd(&counters.dead_count, 1);
        atomicAdd(&counters.dropped, 1u);
        return;
    }
    let index = dead_list[u32(top - 1)];
    atomicAdd(&counters.spawned, 1u);

    let seed = hash(e.seed ^ hash(e.serial + (t - e.spawn_offset)));
    let h1 = hash(seed);
    let h2 = hash(h1);
    let h3 = hash(h2);
    let h4 = hash(h3);
    // uniform over the spherical cap around the axis: cos(theta) uniform in [cos_cone, 1]
    let cos_theta = mix(1.0, e.cos_cone, unit(h1));
    let sin_theta = sqrt(max(0.0, 1.0 - cos_theta * cos_theta));
    let phi = 6.2831853 * unit(h2);
    let axis = e.direction;
    let helper = select(vec3f(1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0), abs(axis.x) > 0.9);
    let tangent = normalize(cross(axis, helper));
    let bitangent = cross(axis, tangent);
    let dir = axis * cos_theta + (tangent * cos(phi) + bitangent * sin(phi)) * sin_theta;
    let speed = mix(e.speed_min, e.speed_max, unit(h3));
    let lifetime = max(mix(e.life_min, e.life_max, unit(h4)), 1e-6);

    var p: Particle;
    p.position = e.position;
    p.age = 0.0;
    p.velocity = dir * speed;
    p.lifetime = lifetime;
    p.tag = e.tag;
    p.seed = seed;
    p.pad0 = 0u;
    p.pad1 = 0u;
    particles[index] = p;
}

var<workgroup> group_additive: atomic<u32>;
var<workgroup> group_alpha: atomic<u32>;
var<workgroup> group_splat: atomic<u32>;
var<workgroup> base_additive: u32;
var<workgroup> base_alpha: u32;
var<workgroup> base_splat: u32;

// the billboard's diameter on screen, in pixels (0 behind the camera)
fn screen_pixels(position: vec3f, size: f32) -> f32 {
    let w = (camera.view_projection * vec4f(position, 1.0)).w;
    if (w <= camera.jitter.z) {
        return 1e9;
    }
    return size * camera.projection[1][1] * 0.5 * camera.viewport.y / w;
}

@compute @workgroup_size(${SIM_WORKGROUP})
fn cs_simulate(@builtin(global_invocation_id) id: vec3u, @builtin(local_invocation_index) local: u32) {
    if (local == 0u) {
        atomicStore(&group_additive, 0u);
        atomicStore(&group_alpha, 0u);
        atomicStore(&group_splat, 0u);
    }
    workgroupBarrier();

    let i = thread_index(id, params.simulate_row);
    // 0: nothing to draw, 1: additive, 2: alpha, 3: splatted (either blend)
    var mode = 0u;
    var rank = 0u;
    if (i < params.capacity) {
        var p = particles[i];
        if (p.lifetime > 0.0) {
            let e = emitters[p.tag & 0xffffu];
            var alive = e.tag == p.tag && (e.flags & EMITTER_ACTIVE) != 0u;
            p.age = p.age + params.dt;
            alive = alive && p.age < p.lifetime;
            if (alive) {
                p.velocity = (p.velocity + e.gravity * params.dt) * max(0.0, 1.0 - e.drag * params.dt);
                p.position = p.position + p.velocity * params.dt;
                particles[i] = p;
                let t = clamp(p.age / p.lifetime, 0.0, 1.0);
                if (screen_pixels(p.position, mix(e.size_start, e.size_end, t)) < params.splat_pixels) {
                    mode = 3u;
                    rank = atomicAdd(&group_splat, 1u);
                } else if ((e.flags & EMITTER_ALPHA) != 0u) {
                    mode = 2u;
                    rank = atomicAdd(&group_alpha, 1u);
                } else {
                    mode = 1u;
                    rank = atomicAdd(&group_additive, 1u);
                }
            } else {
                particles[i].lifetime = 0.0;
                let d = atomicAdd(&counters.dead_count, 1);
                dead_list[u32(d)] = i;
            }
        }
    }
    workgroupBarrier();
    if (local == 0u) {
        let n_add = atomicLoad(&group_additive);
        let n_alpha = atomicLoad(&group_alpha);
        if (n_add > 0u) {
            base_additive = atomicAdd(&draw_args.additive_vertices, n_add * 6u) / 6u;
        }
        if (n_alpha > 0u) {
            base_alpha = atomicAdd(&draw_args.alpha_vertices, n_alpha * 6u) / 6u;
        }
        let n_splat = atomicLoad(&group_splat);
        if (n_splat > 0u) {
            base_splat = atomicAdd(&counters.splatted, n_splat);
        }
        if (n_add + n_alpha + n_splat > 0u) {
            atomicAdd(&counters.alive, n_add + n_alpha + n_splat);
        }
    }
    workgroupBarrier();
    if (mode == 1u) {
        draw_list[base_additive + rank] = i;
    } else if (mode == 2u) {
        draw_list[params.capacity - 1u - (base_alpha + rank)] = i;
    } else if (mode == 3u) {
        splat_list[base_splat + rank] = i;
    }
}
`;
