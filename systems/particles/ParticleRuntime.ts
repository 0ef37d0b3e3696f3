import type { World } from "bitecs";
import { CAMERA_BYTES } from "../../shade/renderer/scene/Camera.js";
import { ParticleAtlas } from "./ParticleAtlas.js";
import { ParticleEmitterTable } from "./ParticleEmitterTable.js";
import {
    COUNTERS_BYTES,
    DRAW_ARGS_BYTES,
    EMITTER_BYTES,
    PARTICLE_BYTES,
    PARTICLE_SIMULATE_WGSL,
    PARTICLE_WORDS,
    SIM_PARAMS_BYTES,
    SIM_WORKGROUP,
} from "./particle_simulate.wgsl.js";

/** The GPU objects of the particle pool on one device. */
export interface ParticleDeviceState {
    readonly device: GPUDevice;
    readonly particles: GPUBuffer;
    readonly dead_list: GPUBuffer;
    readonly draw_list: GPUBuffer;
    readonly splat_list: GPUBuffer;
    readonly counters: GPUBuffer;
    readonly draw_args: GPUBuffer;
    readonly emitters: GPUBuffer;
    readonly sim_params: GPUBuffer;
    readonly atlas: GPUTexture;
    readonly atlas_view: GPUTextureView;
    readonly sampler: GPUSampler;
    readonly sim_layout: GPUBindGroupLayout;
    /** The simulation's bind group, for the camera buffer it was built with. */
    sim_group: GPUBindGroup | null;
    sim_camera: GPUBuffer | null;
    readonly init: GPUComputePipeline;
    readonly begin: GPUComputePipeline;
    readonly spawn: GPUComputePipeline;
    readonly simulate: GPUComputePipeline;
    initialized: boolean;
    atlas_version: number;
}

/** What `read_back` returns: the pool as the GPU holds it after the last submitted frame. */
export interface ParticleReadback {
    readonly capacity: number;
    /** `PARTICLE_WORDS` floats per slot: position xyz, age, velocity xyz, lifetime (<= 0: dead), tag, seed. */
    readonly particles: Float32Array;
    /** The same bytes as words (tags at word 8). */
    readonly words: Uint32Array;
    /** Free slots: `dead_list[0, dead_count)`. */
    readonly dead_count: number;
    readonly dead_list: Uint32Array;
    /** Particles dropped for want of a free slot, since the pool was created. */
    readonly dropped: number;
    /** Particles spawned since the pool was created. */
    readonly spawned: number;
    /** Particles alive after the last simulated frame, and of those drawn additive / alpha. */
    readonly alive: number;
    readonly additive: number;
    readonly alpha: number;
    /** Particles small enough to be splatted by compute instead of rasterised (either blend mode). */
    readonly splatted: number;
    /** Slots whose lifetime is > 0. */
    readonly live_slots: number;
}

const MAX_GROUPS_PER_DIMENSION = 65535;

/**
 * @internal State shared by the system and its two extensions: the emitter table, the atlas, the pool's
 * capacity and the GPU objects (a cache keyed by device: a restart or a lost device rebuilds them, and the
 * particles start over). `simulate` encodes the frame's compute pass.
 */
export class ParticleRuntime {
    readonly capacity: number;
    /** Particles below this diameter on screen (pixels) are splatted by compute; 0 rasterises all. */
    readonly splat_pixels: number;
    readonly table: ParticleEmitterTable;
    readonly atlas = new ParticleAtlas();
    world: World | null = null;
    /**
     * [0]: seconds of updates not yet simulated; [1]: the step the next `simulate` takes. Held in a typed array
     * and never passed as an argument: a double crossing a call is boxed (a heap number per frame).
     */
    readonly time = new Float64Array(2);
    /** Frames simulated. */
    frames = 0;

    #state: ParticleDeviceState | null = null;
    readonly #params_u32 = new Uint32Array(SIM_PARAMS_BYTES / 4);
    readonly #params_f32 = new Float32Array(this.#params_u32.buffer);
    readonly #pass_descriptor: GPUComputePassDescriptor = { label: "particles / simulate" };

    constructor(capacity: number, max_emitters: number, splat_pixels: number) {
        if (!(typeof splat_pixels === "number" && splat_pixels >= 0 && splat_pixels <= 64)) {
            throw new RangeError(`GPUParticleEmitterSystem: splat_pixels must be a number in [0, 64], got ${String(splat_pixels)}`);
        }
        this.splat_pixels = splat_pixels;
        if (!(Number.isInteger(capacity) && capacity >= 1 && capacity <= 0x7fffffff)) {
            throw new RangeError(`GPUParticleEmitterSystem: capacity must be a whole number >= 1, got ${String(capacity)}`);
        }
        this.capacity = capacity;
        this.table = new ParticleEmitterTable(max_emitters);
    }

    /** The state on `device`, built on first use (and again on a new device). */
    state(device: GPUDevice): ParticleDeviceState {
        const current = this.#state;
        if (current !== null && current.device === device) return current;
        this.destroy();
        const state = this.#build(device);
        this.#state = state;
        return state;
    }

    /** The state if one exists on `device`, else null. */
    state_if_built(device: GPUDevice): ParticleDeviceState | null {
        const s = this.#state;
        return s !== null && s.device === device ? s : null;
    }

    /**
     * Encodes this frame's simulation on `encoder`: the emitter table and uniforms are written (O(emitters)),
     * the atlas uploaded if it changed, then one compute pass: init (first frame on a device), begin, spawn,
     * simulate, stepping `time[1]` seconds.
     */
    simulate(device: GPUDevice, encoder: GPUCommandEncoder, camera: GPUBuffer, timestamp_writes: GPUComputePassTimestampWrites | undefined): void {
        const state = this.state(device);
        if (state.sim_camera !== camera) {
            state.sim_camera = camera;
            state.sim_group = device.createBindGroup({
                label: "particles: simulation bind group",
                layout: state.sim_layout,
                entries: [
                    { binding: 0, resource: { buffer: state.sim_params } },
                    { binding: 1, resource: { buffer: state.emitters } },
                    { binding: 2, resource: { buffer: state.particles } },
                    { binding: 3, resource: { buffer: state.dead_list } },
                    { binding: 4, resource: { buffer: state.counters } },
                    { binding: 5, resource: { buffer: state.draw_args } },
                    { binding: 6, resource: { buffer: state.draw_list } },
                    { binding: 7, resource: { buffer: camera, size: CAMERA_BYTES } },
                    { binding: 8, resource: { buffer: state.splat_list } },
                ],
            });
        }
        const table = this.table;
        if (state.atlas_version !== this.atlas.version) {
            device.queue.writeTexture(
                { texture: state.atlas },
                this.atlas.pixels,
                { bytesPerRow: ParticleAtlas.WIDTH * 4, rowsPerImage: ParticleAtlas.HEIGHT },
                { width: ParticleAtlas.WIDTH, height: ParticleAtlas.HEIGHT },
            );
            state.atlas_version = this.atlas.version;
        }
        table.write(this.world!, this.time, this.capacity);
        if (table.upload_slots > 0) {
            device.queue.writeBuffer(state.emitters, 0, table.u32, 0, table.upload_slots * (EMITTER_BYTES / 4));
        }
        const spawn_groups = Math.ceil(table.spawn_total / SIM_WORKGROUP);
        const sim_groups = Math.ceil(this.capacity / SIM_WORKGROUP);
        const spawn_row = Math.min(Math.max(spawn_groups, 1), MAX_GROUPS_PER_DIMENSION);
        const sim_row = Math.min(sim_groups, MAX_GROUPS_PER_DIMENSION);
        const p = this.#params_u32;
        this.#params_f32[0] = this.time[1];
        p[1] = this.capacity;
        p[2] = table.spawn_total;
        p[3] = table.used_slots;
        p[4] = spawn_row;
        p[5] = sim_row;
        p[6] = this.frames;
        this.#params_f32[7] = this.splat_pixels;
        device.queue.writeBuffer(state.sim_params, 0, p);
        this.frames++;

        this.#pass_descriptor.timestampWrites = timestamp_writes;
        const pass = encoder.beginComputePass(this.#pass_descriptor);
        pass.setBindGroup(0, state.sim_group!);
        if (!state.initialized) {
            state.initialized = true;
            pass.setPipeline(state.init);
            pass.dispatchWorkgroups(sim_row, Math.ceil(sim_groups / sim_row));
        }
        pass.setPipeline(state.begin);
        pass.dispatchWorkgroups(1);
        if (spawn_groups > 0) {
            pass.setPipeline(state.spawn);
            pass.dispatchWorkgroups(spawn_row, Math.ceil(spawn_groups / spawn_row));
        }
        pass.setPipeline(state.simulate);
        pass.dispatchWorkgroups(sim_row, Math.ceil(sim_groups / sim_row));
        pass.end();
        this.#pass_descriptor.timestampWrites = undefined;
    }

    /** Copies the pool back from `device` (tests, tools; allocates). */
    async read_back(device: GPUDevice): Promise<ParticleReadback> {
        const state = this.state_if_built(device);
        if (state === null) throw new Error("GPUParticleEmitterSystem.read_back: no frame has simulated on this device yet");
        const cap = this.capacity;
        const bytes = cap * PARTICLE_BYTES + cap * 4 + COUNTERS_BYTES + DRAW_ARGS_BYTES;
        const staging = device.createBuffer({ label: "particles read-back", size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        const encoder = device.createCommandEncoder({ label: "particles read-back" });
        let at = 0;
        encoder.copyBufferToBuffer(state.particles, 0, staging, at, cap * PARTICLE_BYTES);
        at += cap * PARTICLE_BYTES;
        encoder.copyBufferToBuffer(state.dead_list, 0, staging, at, cap * 4);
        at += cap * 4;
        encoder.copyBufferToBuffer(state.counters, 0, staging, at, COUNTERS_BYTES);
        at += COUNTERS_BYTES;
        encoder.copyBufferToBuffer(state.draw_args, 0, staging, at, DRAW_ARGS_BYTES);
        device.queue.submit([encoder.finish()]);
        await staging.mapAsync(GPUMapMode.READ);
        const copy = staging.getMappedRange().slice(0);
        staging.unmap();
        staging.destroy();
        const particles = new Float32Array(copy, 0, cap * PARTICLE_WORDS);
        const words = new Uint32Array(copy, 0, cap * PARTICLE_WORDS);
        const tail = new Int32Array(copy, cap * PARTICLE_BYTES + cap * 4, (COUNTERS_BYTES + DRAW_ARGS_BYTES) / 4);
        let live = 0;
        for (let i = 0; i < cap; i++) if (particles[i * PARTICLE_WORDS + 7] > 0) live++;
        const dead_count = tail[0];
        return {
            capacity: cap,
            particles,
            words,
            dead_count,
            dead_list: new Uint32Array(copy, cap * PARTICLE_BYTES, Math.max(0, Math.min(cap, dead_count))),
            dropped: tail[1] >>> 0,
            spawned: tail[2] >>> 0,
            alive: tail[3] >>> 0,
            additive: (tail[8] >>> 0) / 6,
            alpha: (tail[12] >>> 0) / 6,
            splatted: tail[4] >>> 0,
            live_slots: live,
        };
    }

    /** Releases the GPU objects (the next frame builds them again, with an empty pool). */
    destroy(): void {
        const s = this.#state;
        if (s === null) return;
        this.#state = null;
        for (const b of [s.particles, s.dead_list, s.draw_list, s.splat_list, s.counters, s.draw_args, s.emitters, s.sim_params]) b.destroy();
        s.atlas.destroy();
    }

    #build(device: GPUDevice): ParticleDeviceState {
        const cap = this.capacity;
        const limits = device.limits;
        const largest = cap * PARTICLE_BYTES;
        if (largest > limits.maxStorageBufferBindingSize || largest > limits.maxBufferSize) {
            throw new RangeError(
                `GPUParticleEmitterSystem: capacity ${cap} needs a ${largest}-byte particle buffer; this device allows ` +
                    `${Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize)} (maxStorageBufferBindingSize / maxBufferSize): ` +
                    `lower the capacity or request higher limits in the device descriptor`,
            );
        }
        const STORAGE = GPUBufferUsage.STORAGE;
        const COPY = GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
        const buffer = (label: string, size: number, usage: number): GPUBuffer => device.createBuffer({ label: `particles: ${label}`, size, usage });
        const particles = buffer("particles", largest, STORAGE | COPY);
        const dead_list = buffer("dead list", cap * 4, STORAGE | COPY);
        const draw_list = buffer("draw list", cap * 4, STORAGE | COPY);
        const splat_list = buffer("splat list", cap * 4, STORAGE | COPY);
        const counters = buffer("counters", COUNTERS_BYTES, STORAGE | COPY);
        const draw_args = buffer("draw arguments", DRAW_ARGS_BYTES, STORAGE | GPUBufferUsage.INDIRECT | COPY);
        const emitters = buffer("emitter table", this.table.max_emitters * EMITTER_BYTES, STORAGE | GPUBufferUsage.COPY_DST);
        const sim_params = buffer("simulation uniforms", SIM_PARAMS_BYTES, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
        const atlas = device.createTexture({
            label: "particles: sprite atlas",
            size: { width: ParticleAtlas.WIDTH, height: ParticleAtlas.HEIGHT },
            format: "rgba8unorm",
            usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
        });
        const sampler = device.createSampler({ label: "particles: atlas sampler", magFilter: "linear", minFilter: "linear" });
        const module = device.createShaderModule({ label: "particles: simulation shader", code: PARTICLE_SIMULATE_WGSL });
        const layout = device.createBindGroupLayout({
            label: "particles: simulation bind group layout",
            entries: [
                { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
                { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
                { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
                { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
                { binding: 4, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
                { binding: 5, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
                { binding: 6, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
                { binding: 7, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
                { binding: 8, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
            ],
        });
        const pipeline_layout = device.createPipelineLayout({ label: "particles: simulation pipeline layout", bindGroupLayouts: [layout] });
        const pipeline = (entry: string): GPUComputePipeline =>
            device.createComputePipeline({ label: `particles: ${entry}`, layout: pipeline_layout, compute: { module, entryPoint: entry } });
        return {
            device,
            particles,
            dead_list,
            draw_list,
            splat_list,
            counters,
            draw_args,
            emitters,
            sim_params,
            atlas,
            atlas_view: atlas.createView({ label: "particles: sprite atlas view" }),
            sampler,
            sim_layout: layout,
            sim_group: null,
            sim_camera: null,
            init: pipeline("cs_init"),
            begin: pipeline("cs_begin"),
            spawn: pipeline("cs_spawn"),
            simulate: pipeline("cs_simulate"),
            initialized: false,
            atlas_version: -1,
        };
    }
}
