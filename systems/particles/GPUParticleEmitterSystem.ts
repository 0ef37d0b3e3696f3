import { observe, onAdd, onRemove, query } from "bitecs";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";
import { GPUParticleAtlasExtension } from "./GPUParticleAtlasExtension.js";
import { ParticleAtlas } from "./ParticleAtlas.js";
import { ParticleEmitter } from "./ParticleEmitter.js";
import { ParticleEmitterDescriptor } from "./ParticleEmitterDescriptor.js";
import { ParticleExtension } from "./ParticleExtension.js";
import { ParticleRuntime, type ParticleReadback } from "./ParticleRuntime.js";

export interface GPUParticleEmitterSystemOptions {
    /** Particles alive at once, over all emitters (default 65536). Spawns beyond it are dropped. */
    readonly capacity?: number;
    /** ParticleEmitter entities at once (default 1024, at most 65536). */
    readonly max_emitters?: number;
    /**
     * Particles smaller than this on screen (diameter in pixels, default 2) skip the rasteriser: a compute
     * pass splats them into their pixel with atomics (their area x the sprite's mean alpha; alpha particles
     * through the same weighted blended OIT sums). 0 draws every particle as a billboard.
     */
    readonly splat_pixels?: number;
}

/**
 * GPU particles for every entity with a `ParticleEmitter` (beside the `Transform` it requires). Particles live in
 * one GPU pool of `capacity` slots: spawned, integrated and killed by a compute pass at FrameStart (a GPU
 * dead list, so spawning and dying cost the CPU nothing), drawn as camera-facing billboards at
 * AfterTransparency with one indirect draw per blend mode (additive; alpha through weighted blended
 * order-independent transparency), soft against the scene depth. Per frame the CPU writes only the emitter
 * table and a few uniforms: its work does not depend on how many particles there are.
 *
 * Emitters come and go with their entities: removing the component (or the entity) stops the emitter and its
 * particles die on the next frame, freeing their slots; an entity id recycled later starts a fresh emitter.
 * Emitters that existed before the system started up (or was started up again) are picked up at startup. A
 * level with more emitters than `max_emitters` is refused with a `LevelError` before anything is created.
 *
 * Owns `ParticleExtension` ("particles", AfterTransparency) and an internal atlas/simulation extension at
 * FrameStart, registered in `startup` and removed in `shutdown`.
 */
export class GPUParticleEmitterSystem extends System {
    readonly name = "GPUParticleEmitterSystem";

    readonly #graphics: GraphicsEngine;
    readonly #runtime: ParticleRuntime;
    #extension: ParticleExtension | null = null;
    #atlas_extension: GPUParticleAtlasExtension | null = null;
    #unobserve: (() => void)[] = [];

    constructor(graphics: GraphicsEngine, options: GPUParticleEmitterSystemOptions = {}) {
        super();
        this.#graphics = graphics;
        this.#runtime = new ParticleRuntime(options.capacity ?? 65536, options.max_emitters ?? 1024, options.splat_pixels ?? 2);
    }

    /** Particle slots in the pool. */
    get capacity(): number {
        return this.#runtime.capacity;
    }

    /** ParticleEmitter entities now known to the system. */
    get emitter_count(): number {
        return this.#runtime.table.emitter_count;
    }

    /** The registered draw extension, or null outside startup..shutdown. */
    get extension(): ParticleExtension | null {
        return this.#extension;
    }

    async startup(entityManager: EntityManager): Promise<void> {
        if (this.#extension !== null) return;
        entityManager.components.register(ParticleEmitterDescriptor);
        const world = entityManager.world;
        const runtime = this.#runtime;
        runtime.world = world;
        const table = runtime.table;
        const max = table.max_emitters;
        this.#unobserve.push(
            observe(world, onAdd(ParticleEmitter), (eid: number) => table.add(eid)),
            observe(world, onRemove(ParticleEmitter), (eid: number) => table.remove(eid)),
            entityManager.components.add_limit(ParticleEmitterDescriptor, {
                owner: this.name,
                check: (_value, ordinal) => {
                    const alive = table.emitter_count;
                    if (alive + ordinal < max) return null;
                    return {
                        path: "",
                        found: `got ParticleEmitter number ${ordinal + 1} of the level, beside ${alive} alive`,
                        expected: `at most ${max} ParticleEmitter entities at once (its max_emitters option), ${Math.max(0, max - alive)} more now`,
                    };
                },
            }),
        );
        // the emitters that were there before the system (or before its last shutdown)
        for (const eid of query(world, [ParticleEmitter])) table.add(eid);
        this.#atlas_extension = this.#graphics.add_extension(new GPUParticleAtlasExtension(runtime, this));
        this.#extension = this.#graphics.add_extension(new ParticleExtension(runtime, this));
    }

    async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        if (this.#atlas_extension !== null) {
            this.#graphics.remove_extension(this.#atlas_extension);
            this.#atlas_extension.destroy();
            this.#atlas_extension = null;
        }
        for (const unobserve of this.#unobserve) unobserve();
        this.#unobserve = [];
        this.#runtime.table.clear();
        this.#runtime.time[0] = 0;
    }

    update(dt: number): void {
        // simulated by the next frame's FrameStart, which may come later than this update (or not at all)
        this.#runtime.time[0] += dt;
    }

    /** Spawns `n` more particles from `entity`'s emitter on the next frame (beyond capacity they are dropped). */
    burst(entity: number, n: number): void {
        this.#runtime.table.burst(entity, n);
    }

    /**
     * Replaces atlas frame `frame` (0-7; built in: 0 soft disc, 1 hard disc, 2 spark, 3 ring, 4-7 a smoke puff animation) with a
     * 32 x 32 RGBA8 straight-alpha sprite; uploaded with the next frame.
     */
    set_sprite(frame: number, rgba: Uint8Array): void {
        this.#runtime.atlas.set_frame(frame, rgba);
    }

    /** Atlas frames, cell size in pixels. */
    static readonly ATLAS_FRAMES = ParticleAtlas.FRAMES;
    static readonly SPRITE_SIZE = ParticleAtlas.CELL;

    /** Reads the GPU pool back after the work submitted so far (tests and tools; allocates, waits on the GPU). */
    read_back(): Promise<ParticleReadback> {
        const device = this.#graphics.device;
        if (device === null) return Promise.reject(new Error("GPUParticleEmitterSystem.read_back: the graphics engine has no device (start it first)"));
        return this.#runtime.read_back(device);
    }
}
