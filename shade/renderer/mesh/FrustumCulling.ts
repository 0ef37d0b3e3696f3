import type { Geometry } from "../geometry/Geometry.js";
import type { GeometryAttribute } from "../geometry/GeometryAttribute.js";
import { geometry_bounds } from "../geometry/geometry_bounds.js";
import { last_geometry_stamp } from "../geometry/geometry_stamp.js";
import { MAX_DETAIL_LEVELS } from "../geometry/GeometryDetail.js";
import { SKINNED_BOUNDS_SCALE } from "../scene/MeshSkin.js";
import type { GPUGeometryCache } from "./GPUGeometryCache.js";
import { CULL_WGSL, CULL_WORKGROUP as WORKGROUP } from "./frustum_culling_wgsl.js";
import type { DrawRun, MeshDrawList } from "./MeshDrawList.js";

/**
 * u32 words per run in the run table: first, count, index count, levels, model-space sphere (x, y, z, radius as
 * f32), then per level (`MAX_DETAIL_LEVELS`): first indices, index counts, screen sizes (f32).
 */
const RUN_WORDS = 8 + 3 * MAX_DETAIL_LEVELS;
import { grown_size, INDIRECT_ARGS_BYTES, read_indirect_instance_counts } from "./indirect_args.js";

export { INDIRECT_ARGS_BYTES };

/**
 * Where run `run`'s draw of level of detail `level` finds its indirect arguments in `FrustumCulling.args`: each
 * run has `MAX_DETAIL_LEVELS` of them, one per level (a geometry without coarser levels uses the first alone).
 */
export function indirect_offset(run: number, level: number): number {
    return (run * MAX_DETAIL_LEVELS + level) * INDIRECT_ARGS_BYTES;
}
const MAX_GROUPS_X = 65535;


interface DeviceState {
    readonly reset: GPUComputePipeline;
    readonly cull: GPUComputePipeline;
    readonly layout: GPUBindGroupLayout;
    readonly params: GPUBuffer;
    runs: GPUBuffer | null;
    args: GPUBuffer | null;
    visible: GPUBuffer | null;
    group: GPUBindGroup | null;
    group_camera: GPUBuffer | null;
    group_objects: GPUBuffer | null;
    /** The run table as last uploaded to `runs` (null: upload all of it). */
    uploaded: Uint32Array | null;
    /** The `levels_version` of the table last uploaded. */
    uploaded_levels: number;
    readonly last_params: Uint32Array;
}

/**
 * GPU frustum culling of a draw list's opaque runs, drawn indirectly. Each frame `update` writes the run table
 * (each run's first slot, count, index count, its geometry's bounding sphere; uploaded only
 * when it differs), and `record` dispatches the visibility pass: per run indirect draw arguments in `args` (run
 * `i` at byte `i * INDIRECT_ARGS_BYTES`) and the `visible` slot list the mesh vertex stages read through. A run
 * of skinned meshes (a skin batch's, `DrawRun.batch`, or one mesh's) is culled by its geometry's bind-pose sphere
 * grown by `SKINNED_BOUNDS_SCALE`. Every slot outside the opaque runs (blended meshes) maps to itself. With
 * `enabled` false every slot maps to itself and the caller draws directly: the reference picture culling must
 * match.
 *
 * Indirect draws start at their run's first slot, which needs the device's `indirect-first-instance` feature
 * (`GraphicsEngine` asks for it where the adapter has it): on a device without it nothing is culled and every
 * object is drawn directly (`culls(device)` says which).
 */
export class FrustumCulling {
    /** Whether opaque runs are culled (and drawn indirectly). Default true. */
    enabled = true;
    #table = new Uint32Array(RUN_WORDS * 64);
    #table_floats = new Float32Array(this.#table.buffer);
    #run_count = 0;
    #levels = 1;
    // moves whenever a run's level words change: while it stays, uploads compare each run's first 8 words alone
    #levels_version = 0;
    // each row's rigid geometry and its position attribute as last written, the geometry stamp then and the cache
    // asked: a row of the same geometry and positions, with no geometry flagged since, keeps its bounds, index
    // count and levels (a still scene's 942 runs then cost two words each a build, not two lookups). The position
    // attribute is compared too: one put in place of another with no flag moves no stamp.
    readonly #row_geometry: (Geometry | null)[] = [];
    readonly #row_position: (GeometryAttribute | null)[] = [];
    #rows_stamp = -1;
    #rows_cache: GPUGeometryCache | null = null;
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    // the list and build `update_from` last wrote the table from (null: `update` wrote it)
    #source: MeshDrawList | null = null;
    #source_build = -1;
    /** Bumped whenever a `visible` buffer is replaced, so bind groups that hold it know to rebuild. */
    generation = 0;

    /** Whether this device's opaque runs are culled and drawn indirectly: `enabled` and the device has `indirect-first-instance`. */
    culls(device: GPUDevice): boolean {
        return this.enabled && device.features.has("indirect-first-instance");
    }

    /** The most levels of detail any run of the table draws (1: none has coarser levels). */
    get levels(): number {
        return this.#levels;
    }

    /** Runs in the table (this frame's opaque runs). */
    get run_count(): number {
        return this.#run_count;
    }

    /**
     * `update` from `list`'s opaque runs, once per build of the list: every pass that culls over the same list
     * (the G-buffer's, the shadow cascades') asks, the first writes the table.
     */
    update_from(list: MeshDrawList, geometries: GPUGeometryCache): void {
        if (list === this.#source && list.build_serial === this.#source_build) return;
        this.update(list.opaque_runs, list.opaque_run_count, geometries);
        this.#source = list;
        this.#source_build = list.build_serial;
    }

    /** Writes this frame's run table from the draw list's opaque runs (`geometries`: for their index counts). */
    update(runs: readonly DrawRun[], count: number, geometries: GPUGeometryCache): void {
        this.#source = null;
        if (this.#table.length < count * RUN_WORDS) {
            let length = this.#table.length;
            while (length < count * RUN_WORDS) length *= 2;
            this.#table = new Uint32Array(length);
            this.#table_floats = new Float32Array(this.#table.buffer);
            this.#rows_stamp = -1;
        }
        const t = this.#table;
        const f = this.#table_floats;
        const rows = this.#row_geometry;
        const positions = this.#row_position;
        const stamp = last_geometry_stamp();
        const still = stamp === this.#rows_stamp && geometries === this.#rows_cache;
        let levels = 1;
        for (let i = 0; i < count; i++) {
            const run = runs[i];
            const o = i * RUN_WORDS;
            t[o] = run.first;
            t[o + 1] = run.count;
            if (still && run.skin === null && rows[i] === run.geometry && positions[i] === run.geometry.attributes.position) {
                if (t[o + 3] > levels) levels = t[o + 3];
                continue;
            }
            rows[i] = run.skin === null ? run.geometry : null;
            positions[i] = run.skin === null ? run.geometry.attributes.position : null;
            // a skinned run (a skin batch's, or one mesh's) is culled by its bind pose's sphere grown by
            // SKINNED_BOUNDS_SCALE (the skinned vertices are in the mesh's own space)
            const b = geometry_bounds(run.geometry);
            const geometry = geometries.get(run.geometry, run.skin);
            t[o + 2] = geometry.index_count;
            const had = t[o + 3];
            t[o + 3] = geometry.levels;
            f[o + 4] = b.x;
            f[o + 5] = b.y;
            f[o + 6] = b.z;
            f[o + 7] = run.skin === null ? b.radius : b.radius * SKINNED_BOUNDS_SCALE;
            // most runs have no coarser levels, and had none last frame in this row: their level words stay zeros
            if (geometry.levels > 1 || had > 1) this.#levels_version++;
            else continue;
            for (let l = 0; l < MAX_DETAIL_LEVELS; l++) {
                const drawn = l < geometry.levels;
                t[o + 8 + l] = drawn ? geometry.level_first[l] : 0;
                t[o + 8 + MAX_DETAIL_LEVELS + l] = drawn ? geometry.level_count[l] : 0;
                // level 0's (infinity) is never compared
                f[o + 8 + 2 * MAX_DETAIL_LEVELS + l] = drawn && l > 0 ? geometry.level_screen[l] : 0;
            }
            if (geometry.levels > levels) levels = geometry.levels;
        }
        this.#run_count = count;
        this.#levels = levels;
        // a stamp handed out during the walk (a geometry uploaded with new levels) leaves no row trusted
        this.#rows_stamp = last_geometry_stamp() === stamp ? stamp : -1;
        this.#rows_cache = geometries;
    }

    /**
     * The device's `visible` buffer, grown to hold `object_count` slots for each level of detail the table's runs
     * draw (level `l`'s from slot `l * object_count`; made on first use).
     */
    visible(device: GPUDevice, object_count: number): GPUBuffer {
        const state = this.#state(device);
        const bytes = Math.max(1, object_count) * this.#levels * 4;
        if (state.visible === null || state.visible.size < bytes) {
            const size = grown_size(state.visible, bytes, 1024 * 4);
            state.visible?.destroy();
            state.visible = device.createBuffer({ label: "mesh visible slots", size, usage: GPUBufferUsage.STORAGE });
            state.group = null;
            this.generation++;
        }
        return state.visible;
    }

    /** The device's indirect draw arguments (run `i`'s level `l` at `indirect_offset(i, l)`), valid after `record`. */
    args(device: GPUDevice): GPUBuffer {
        const state = this.#state(device);
        const bytes = Math.max(1, this.#run_count) * MAX_DETAIL_LEVELS * INDIRECT_ARGS_BYTES;
        if (state.args === null || state.args.size < bytes) {
            const size = grown_size(state.args, bytes, 64 * MAX_DETAIL_LEVELS * INDIRECT_ARGS_BYTES);
            state.args?.destroy();
            state.args = device.createBuffer({
                label: "mesh indirect draw arguments",
                size,
                usage: GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_SRC,
            });
            state.group = null;
        }
        return state.args;
    }

    /**
     * The device's copy of the run table `update` last wrote, uploaded where it differs: what other visibility
     * passes over the same draw list read (the shadow cascades'). `record` uploads it too; whichever comes first in
     * a frame pays the upload.
     */
    runs(device: GPUDevice): GPUBuffer {
        return this.#upload_runs(device, this.#state(device));
    }

    /**
     * Records the visibility pass into `pass` for `object_count` slots of `objects`, seen by `camera` (the camera
     * uniform buffer): after it, `args(device)` and `visible(device, object_count)` hold this frame's draws.
     */
    record(device: GPUDevice, pass: GPUComputePassEncoder, camera: GPUBuffer, objects: GPUBuffer, object_count: number): void {
        const state = this.#state(device);
        const cull = this.culls(device) && this.#run_count > 0;
        const visible = this.visible(device, object_count);
        const args = this.args(device);
        const runs = this.#upload_runs(device, state);
        if (state.group === null || state.group_camera !== camera || state.group_objects !== objects) {
            state.group = device.createBindGroup({
                label: "mesh culling bind group",
                layout: state.layout,
                entries: [
                    { binding: 0, resource: { buffer: camera } },
                    { binding: 1, resource: { buffer: objects } },
                    { binding: 2, resource: { buffer: runs } },
                    { binding: 3, resource: { buffer: args } },
                    { binding: 4, resource: { buffer: visible } },
                    { binding: 5, resource: { buffer: state.params } },
                ],
            });
            state.group_camera = camera;
            state.group_objects = objects;
        }
        const groups = Math.ceil(object_count / WORKGROUP);
        const groups_x = Math.min(groups, MAX_GROUPS_X);
        const p = state.last_params;
        if (p[0] !== object_count || p[1] !== this.#run_count || p[2] !== (cull ? 1 : 0) || p[3] !== groups_x) {
            p[0] = object_count;
            p[1] = this.#run_count;
            p[2] = cull ? 1 : 0;
            p[3] = groups_x;
            device.queue.writeBuffer(state.params, 0, p);
        }
        pass.setBindGroup(0, state.group);
        if (cull) {
            pass.setPipeline(state.reset);
            pass.dispatchWorkgroups(Math.ceil(this.#run_count / WORKGROUP));
        }
        if (groups > 0) {
            pass.setPipeline(state.cull);
            pass.dispatchWorkgroups(groups_x, Math.ceil(groups / groups_x));
        }
    }

    /**
     * Reads the instance count of each run's indirect draws back, its levels of detail together (what the last
     * submitted visibility pass let through): for tests and inspectors, not for frames (it waits for the GPU).
     */
    async read_instance_counts(device: GPUDevice): Promise<Uint32Array> {
        const levels = await this.read_level_instance_counts(device);
        const out = new Uint32Array(this.#run_count);
        for (let i = 0; i < levels.length; i++) out[Math.floor(i / MAX_DETAIL_LEVELS)] += levels[i];
        return out;
    }

    /**
     * Reads the instance count of each run's draw of each level of detail back (run `i`'s level `l` at
     * `i * MAX_DETAIL_LEVELS + l`): for tests and inspectors, not for frames (it waits for the GPU).
     */
    async read_level_instance_counts(device: GPUDevice): Promise<Uint32Array> {
        const args = this.#per_device.get(device)?.args ?? null;
        return read_indirect_instance_counts(device, args, this.#run_count * MAX_DETAIL_LEVELS, "mesh indirect arguments read-back");
    }

    // the run table's GPU copy, written where it differs from what was uploaded (all of it on a new buffer)
    #upload_runs(device: GPUDevice, state: DeviceState): GPUBuffer {
        const words = this.#run_count * RUN_WORDS;
        const bytes = Math.max(1, this.#run_count) * RUN_WORDS * 4;
        if (state.runs === null || state.runs.size < bytes) {
            const size = grown_size(state.runs, bytes, 64 * RUN_WORDS * 4);
            state.runs?.destroy();
            state.runs = device.createBuffer({ label: "mesh culling runs", size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
            state.uploaded = new Uint32Array(size / 4);
            state.group = null;
            device.queue.writeBuffer(state.runs, 0, this.#table, 0, words);
            state.uploaded.set(this.#table.subarray(0, words));
            state.uploaded_levels = this.#levels_version;
            return state.runs;
        }
        const t = this.#table;
        const u = state.uploaded!;
        let begin = -1;
        let end = 0;
        // the level words only when some moved since this device's last upload
        const width = state.uploaded_levels === this.#levels_version ? 8 : RUN_WORDS;
        state.uploaded_levels = this.#levels_version;
        for (let r = 0; r < words; r += RUN_WORDS) {
            for (let i = r; i < r + width; i++) {
                if (t[i] !== u[i]) {
                    if (begin < 0) begin = i;
                    end = i + 1;
                    u[i] = t[i];
                }
            }
        }
        if (begin >= 0) device.queue.writeBuffer(state.runs, begin * 4, t, begin, end - begin);
        return state.runs;
    }

    #state(device: GPUDevice): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_state(device);
            this.#per_device.set(device, state);
        }
        return state;
    }
}

function build_state(device: GPUDevice): DeviceState {
    const module = device.createShaderModule({ label: "mesh culling shader", code: CULL_WGSL });
    const layout = device.createBindGroupLayout({
        label: "mesh culling bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
            { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
            { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
            { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
            { binding: 4, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
            { binding: 5, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
        ],
    });
    const pipeline_layout = device.createPipelineLayout({ label: "mesh culling pipeline layout", bindGroupLayouts: [layout] });
    return {
        reset: device.createComputePipeline({ label: "mesh culling: reset arguments", layout: pipeline_layout, compute: { module, entryPoint: "reset_args" } }),
        cull: device.createComputePipeline({ label: "mesh culling: cull", layout: pipeline_layout, compute: { module, entryPoint: "cull" } }),
        layout,
        params: device.createBuffer({ label: "mesh culling parameters", size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
        runs: null,
        args: null,
        visible: null,
        group: null,
        group_camera: null,
        group_objects: null,
        uploaded: null,
        uploaded_levels: -1,
        last_params: new Uint32Array([0xffffffff, 0, 0, 0]),
    };
}
