import { MAX_DETAIL_LEVELS } from "../geometry/GeometryDetail.js";
import { grown_size, INDIRECT_ARGS_BYTES, read_indirect_instance_counts } from "../mesh/indirect_args.js";
import { CASCADE_CULL_WGSL, CASCADE_CULL_WORKGROUP as WORKGROUP } from "./cascade_culling_wgsl.js";

const MAX_GROUPS_X = 65535;

/** @internal Where cascade `cascade`'s draw of run `run` (of `run_count`) at level of detail `level` finds its indirect arguments. */
export function cascade_indirect_offset(cascade: number, run: number, run_count: number, level: number): number {
    return ((cascade * run_count + run) * MAX_DETAIL_LEVELS + level) * INDIRECT_ARGS_BYTES;
}

interface DeviceState {
    readonly reset: GPUComputePipeline;
    readonly cull: GPUComputePipeline;
    readonly layout: GPUBindGroupLayout;
    readonly params: GPUBuffer;
    readonly last_params: Uint32Array;
    args: GPUBuffer | null;
    casters: GPUBuffer | null;
    group: GPUBindGroup | null;
    /** The buffers `group` binds: camera, objects, runs, cascade matrices. */
    readonly bound: (GPUBuffer | null)[];
}

/**
 * @internal GPU culling of the sun's shadow casters, per cascade, over the G-buffer's draw list (`CASCADE_CULL_WGSL`): one
 * compute pass writes each cascade's indirect draw arguments per run and level of detail, and the object slots they
 * draw (`casters`), so the CPU cost of the shadow map does not grow with the number of meshes. Reads the G-buffer
 * culling's run table (`FrustumCulling.runs`), which its own pass uploaded earlier in the frame. Draws start at an
 * instance other than 0: the device needs `indirect-first-instance` (`supported`).
 */
export class CascadeCulling {
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    /** Bumped whenever a `casters` buffer is replaced, so bind groups that hold it know to rebuild. */
    generation = 0;

    /** Whether `device` can draw what this culls (indirect draws from a first instance). */
    static supported(device: GPUDevice): boolean {
        return device.features.has("indirect-first-instance");
    }

    /** The device's culled caster slots, grown to `cascade_count * levels * object_count` (made on first use). */
    casters(device: GPUDevice, object_count: number, levels: number, cascade_count: number): GPUBuffer {
        const state = this.#state(device);
        const bytes = Math.max(1, object_count) * levels * cascade_count * 4;
        if (state.casters === null || state.casters.size < bytes) {
            const size = grown_size(state.casters, bytes, 4096);
            state.casters?.destroy();
            state.casters = device.createBuffer({ label: "shadow culled casters", size, usage: GPUBufferUsage.STORAGE });
            state.group = null;
            this.generation++;
        }
        return state.casters;
    }

    /** The device's indirect draw arguments (`cascade_indirect_offset`), grown to fit. */
    args(device: GPUDevice, run_count: number, cascade_count: number): GPUBuffer {
        const state = this.#state(device);
        const bytes = Math.max(1, run_count * cascade_count) * MAX_DETAIL_LEVELS * INDIRECT_ARGS_BYTES;
        if (state.args === null || state.args.size < bytes) {
            const size = grown_size(state.args, bytes, 64 * MAX_DETAIL_LEVELS * INDIRECT_ARGS_BYTES);
            state.args?.destroy();
            state.args = device.createBuffer({
                label: "shadow indirect draw arguments",
                size,
                usage: GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_SRC,
            });
            state.group = null;
        }
        return state.args;
    }

    /**
     * Records the cull into `pass`: `object_count` slots of `objects` in `run_count` runs (`runs`: the run table),
     * `levels` the most levels of detail a run draws, `cascades` the light matrices (`CASTER_STRIDE` apart),
     * `camera` the view's uniforms (levels of detail are picked by the size on its screen).
     */
    record(
        device: GPUDevice,
        pass: GPUComputePassEncoder,
        camera: GPUBuffer,
        objects: GPUBuffer,
        runs: GPUBuffer,
        cascades: GPUBuffer,
        object_count: number,
        run_count: number,
        levels: number,
        cascade_count: number,
    ): void {
        const state = this.#state(device);
        const casters = this.casters(device, object_count, levels, cascade_count);
        const args = this.args(device, run_count, cascade_count);
        const bound = state.bound;
        if (state.group === null || bound[0] !== camera || bound[1] !== objects || bound[2] !== runs || bound[3] !== cascades) {
            state.group = device.createBindGroup({
                label: "shadow culling bind group",
                layout: state.layout,
                entries: [
                    { binding: 0, resource: { buffer: camera } },
                    { binding: 1, resource: { buffer: objects } },
                    { binding: 2, resource: { buffer: runs } },
                    { binding: 3, resource: { buffer: args } },
                    { binding: 4, resource: { buffer: casters } },
                    { binding: 5, resource: { buffer: state.params } },
                    { binding: 6, resource: { buffer: cascades } },
                ],
            });
            bound[0] = camera;
            bound[1] = objects;
            bound[2] = runs;
            bound[3] = cascades;
        }
        const groups = Math.ceil(object_count / WORKGROUP);
        const groups_x = Math.min(groups, MAX_GROUPS_X);
        const p = state.last_params;
        if (p[0] !== object_count || p[1] !== run_count || p[2] !== cascade_count || p[3] !== levels || p[4] !== groups_x) {
            p[0] = object_count;
            p[1] = run_count;
            p[2] = cascade_count;
            p[3] = levels;
            p[4] = groups_x;
            device.queue.writeBuffer(state.params, 0, p);
        }
        pass.setBindGroup(0, state.group);
        pass.setPipeline(state.reset);
        pass.dispatchWorkgroups(Math.ceil((run_count * cascade_count) / WORKGROUP));
        if (groups > 0) {
            pass.setPipeline(state.cull);
            pass.dispatchWorkgroups(groups_x, Math.ceil(groups / groups_x), cascade_count);
        }
    }

    /**
     * Reads back how many casters each cascade draws (what the last submitted cull let through, every run and level
     * together): for tests and inspectors, not for frames (it waits for the GPU).
     */
    async read_caster_counts(device: GPUDevice, run_count: number, cascade_count: number): Promise<Uint32Array> {
        const args = this.#per_device.get(device)?.args ?? null;
        const draws = await read_indirect_instance_counts(device, args, run_count * cascade_count * MAX_DETAIL_LEVELS, "shadow indirect arguments read-back");
        const out = new Uint32Array(cascade_count);
        const per_cascade = run_count * MAX_DETAIL_LEVELS;
        for (let i = 0; i < draws.length; i++) out[Math.floor(i / per_cascade)] += draws[i];
        return out;
    }

    /** Frees the device's buffers (the pipelines go with the device). */
    destroy(device: GPUDevice): void {
        const state = this.#per_device.get(device);
        if (state === undefined) return;
        state.args?.destroy();
        state.casters?.destroy();
        state.params.destroy();
        this.#per_device.delete(device);
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
    const module = device.createShaderModule({ label: "shadow culling shader", code: CASCADE_CULL_WGSL });
    const storage = (type: GPUBufferBindingType): GPUBindGroupLayoutEntry["buffer"] => ({ type });
    const layout = device.createBindGroupLayout({
        label: "shadow culling bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: storage("uniform") },
            { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: storage("read-only-storage") },
            { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: storage("read-only-storage") },
            { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: storage("storage") },
            { binding: 4, visibility: GPUShaderStage.COMPUTE, buffer: storage("storage") },
            { binding: 5, visibility: GPUShaderStage.COMPUTE, buffer: storage("uniform") },
            { binding: 6, visibility: GPUShaderStage.COMPUTE, buffer: storage("uniform") },
        ],
    });
    const pipeline_layout = device.createPipelineLayout({ label: "shadow culling pipeline layout", bindGroupLayouts: [layout] });
    return {
        reset: device.createComputePipeline({ label: "shadow culling: reset arguments", layout: pipeline_layout, compute: { module, entryPoint: "reset_args" } }),
        cull: device.createComputePipeline({ label: "shadow culling: cull", layout: pipeline_layout, compute: { module, entryPoint: "cull" } }),
        layout,
        params: device.createBuffer({ label: "shadow culling parameters", size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
        last_params: new Uint32Array([0xffffffff, 0, 0, 0, 0, 0, 0, 0]),
        args: null,
        casters: null,
        group: null,
        bound: [null, null, null, null],
    };
}
