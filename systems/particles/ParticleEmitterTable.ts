import { hasComponent, type World } from "bitecs";
import { Transform } from "../../engine/components/Transform.js";
import { WorldTransform } from "../../engine/components/WorldTransform.js";
import { PerEntity } from "../../engine/PerEntity.js";
import { ParticleEmitter } from "./ParticleEmitter.js";
import {
    EMITTER_ACTIVE,
    EMITTER_ALPHA,
    EMITTER_WORDS,
    E_COLOR_END,
    E_COLOR_START,
    E_COS_CONE,
    E_DIRECTION,
    E_DRAG,
    E_FLAGS,
    E_FRAME_COUNT,
    E_FRAME_RATE,
    E_FRAME_START,
    E_GRAVITY,
    E_LIFE_MAX,
    E_LIFE_MIN,
    E_POSITION,
    E_SEED,
    E_SERIAL,
    E_SIZE_END,
    E_SIZE_START,
    E_SOFTNESS,
    E_SPAWN_COUNT,
    E_SPAWN_OFFSET,
    E_SPEED_MAX,
    E_SPEED_MIN,
    E_TAG,
} from "./particle_simulate.wgsl.js";

/**
 * @internal The CPU side of the emitter table: one GPU record per emitter slot, rewritten every frame from
 * the entities' components (O(emitters), never O(particles)). A slot carries a generation: freeing it bumps
 * the generation, so the particles tagged with the old one die on the GPU and a slot (or entity id) reused
 * later never inherits them.
 */
export class ParticleEmitterTable {
    readonly max_emitters: number;
    /** The records as uploaded: `EMITTER_WORDS` per slot. */
    readonly f32: Float32Array;
    readonly u32: Uint32Array;
    /** Slots [0, used_slots) may hold emitters (the spawn search's range). */
    used_slots = 0;
    /** Records [0, upload_slots) changed in the last `write`: the live slots and those freed since the last frame. */
    upload_slots = 0;
    /** Particles requested this frame, over all emitters (after the last `write`). */
    spawn_total = 0;
    /** Live emitters per blend mode. */
    additive_count = 0;
    alpha_count = 0;

    /** Per-entity state, grown with the entity ids (`PerEntity`). */
    readonly #per_entity = PerEntity.define({
        slot_of: PerEntity.i32(1, -1),
    });
    get #slot_of(): Int32Array {
        return this.#per_entity.slot_of;
    }
    readonly #entity_of: Int32Array;
    readonly #generation: Uint16Array;
    readonly #accumulator: Float64Array;
    readonly #pending: Uint32Array;
    readonly #started: Uint8Array;
    readonly #serial: Uint32Array;
    readonly #free: Int32Array;
    #free_count: number;
    #written = 0;

    constructor(max_emitters: number) {
        if (!(Number.isInteger(max_emitters) && max_emitters >= 1 && max_emitters <= 65536)) {
            throw new RangeError(`GPUParticleEmitterSystem: max_emitters must be a whole number in [1, 65536], got ${String(max_emitters)}`);
        }
        this.max_emitters = max_emitters;
        const buffer = new ArrayBuffer(max_emitters * EMITTER_WORDS * 4);
        this.f32 = new Float32Array(buffer);
        this.u32 = new Uint32Array(buffer);
        this.#entity_of = new Int32Array(max_emitters).fill(-1);
        this.#generation = new Uint16Array(max_emitters);
        this.#accumulator = new Float64Array(max_emitters);
        this.#pending = new Uint32Array(max_emitters);
        this.#started = new Uint8Array(max_emitters);
        this.#serial = new Uint32Array(max_emitters);
        this.#free = new Int32Array(max_emitters);
        // popped from the end: slot 0 first
        for (let i = 0; i < max_emitters; i++) this.#free[i] = max_emitters - 1 - i;
        this.#free_count = max_emitters;
        // generation 0 is never live: a zeroed record matches no particle's tag
        this.#generation.fill(1);
    }

    /** Emitters in the table. */
    get emitter_count(): number {
        return this.max_emitters - this.#free_count;
    }

    /** The slot of `eid`'s emitter, or -1. */
    slot_of(eid: number): number {
        // an id past the stores (never an entity) reads undefined
        return this.#slot_of[eid] ?? -1;
    }

    /** Gives `eid` a slot (the component was added). Throws when the table is full. */
    add(eid: number): void {
        if (this.#slot_of[eid] !== -1) return;
        if (this.#free_count === 0) {
            throw new Error(
                `GPUParticleEmitterSystem: entity ${eid}: more than ${this.max_emitters} ParticleEmitter entities; raise the max_emitters option`,
            );
        }
        const slot = this.#free[--this.#free_count];
        this.#slot_of[eid] = slot;
        this.#entity_of[slot] = eid;
        this.#accumulator[slot] = 0;
        this.#pending[slot] = 0;
        this.#started[slot] = 0;
        this.#serial[slot] = 0;
        if (slot + 1 > this.used_slots) this.used_slots = slot + 1;
    }

    /** Frees `eid`'s slot (the component or the entity was removed): its particles die next frame. */
    remove(eid: number): void {
        const slot = this.#slot_of[eid];
        if (slot === -1) return;
        this.#slot_of[eid] = -1;
        this.#entity_of[slot] = -1;
        // skip 0 on wrap: generation 0 means "never live"
        const g = this.#generation[slot] + 1;
        this.#generation[slot] = g > 0xffff ? 1 : g;
        this.#free[this.#free_count++] = slot;
    }

    /** Queues `n` particles for `eid`'s emitter next frame. */
    burst(eid: number, n: number): void {
        const slot = this.slot_of(eid);
        if (slot === -1) {
            throw new Error(`GPUParticleEmitterSystem.burst: entity ${eid} has no ParticleEmitter (add the component first)`);
        }
        if (!(Number.isInteger(n) && n >= 0)) {
            throw new RangeError(`GPUParticleEmitterSystem.burst: entity ${eid}: n must be a whole number >= 0, got ${String(n)}`);
        }
        this.#pending[slot] += n;
    }

    /** Frees every slot. */
    clear(): void {
        for (let slot = 0; slot < this.max_emitters; slot++) {
            const eid = this.#entity_of[slot];
            if (eid !== -1) this.remove(eid);
        }
    }

    /**
     * Rewrites the records of slots [0, used_slots) for a frame of `time[1]` seconds: position and cone from the
     * entity, this frame's spawn count (rate x dt carried over in fractions, bursts) and running spawn offsets.
     * At most `capacity` particles are requested in one frame (more could only be dropped).
     */
    write(ecs: World, time: Float64Array, capacity: number): void {
        const dt = time[1];
        const f32 = this.f32;
        const u32 = this.u32;
        const pe = ParticleEmitter;
        // the emitter's world matrix: a parent's motion and turn carry its emitters
        const world = WorldTransform.matrix;
        let offset = 0;
        let additive = 0;
        let alpha = 0;
        // the table shrinks back over trailing free slots
        let used = this.used_slots;
        while (used > 0 && this.#entity_of[used - 1] === -1) used--;
        this.used_slots = used;
        // a slot freed at the end of the table is written once more, so that its particles see it freed
        const upload = Math.max(used, this.#written);
        this.#written = used;
        this.upload_slots = upload;
        for (let slot = 0; slot < upload; slot++) {
            const at = slot * EMITTER_WORDS;
            const eid = this.#entity_of[slot];
            u32[at + E_SPAWN_OFFSET] = offset;
            u32[at + E_TAG] = slot | (this.#generation[slot] << 16);
            if (eid === -1) {
                u32[at + E_SPAWN_COUNT] = 0;
                u32[at + E_FLAGS] = 0;
                continue;
            }
            let n = 0;
            if (this.#started[slot] === 0) {
                this.#started[slot] = 1;
                n += pe.burst[eid];
            }
            const acc = this.#accumulator[slot] + pe.rate[eid] * dt;
            const whole = Math.floor(acc);
            this.#accumulator[slot] = acc - whole;
            n += whole + this.#pending[slot];
            this.#pending[slot] = 0;
            if (n > capacity - offset) n = capacity - offset;
            u32[at + E_SPAWN_COUNT] = n;
            u32[at + E_SERIAL] = this.#serial[slot];
            this.#serial[slot] = (this.#serial[slot] + n) >>> 0;
            offset += n;

            const alpha_blend = pe.blend[eid] === 1;
            if (alpha_blend) alpha++;
            else additive++;
            u32[at + E_FLAGS] = EMITTER_ACTIVE | (alpha_blend ? EMITTER_ALPHA : 0);
            u32[at + E_SEED] = pe.seed[eid];

            // cone axis: the local direction turned by the entity's world matrix (normalised below, so scale
            // only bends it when it is not uniform)
            let dx = pe.direction[eid * 3];
            let dy = pe.direction[eid * 3 + 1];
            let dz = pe.direction[eid * 3 + 2];
            if (hasComponent(ecs, eid, Transform)) {
                const m = eid * 16;
                f32[at + E_POSITION] = world[m + 12];
                f32[at + E_POSITION + 1] = world[m + 13];
                f32[at + E_POSITION + 2] = world[m + 14];
                const rx = world[m] * dx + world[m + 4] * dy + world[m + 8] * dz;
                const ry = world[m + 1] * dx + world[m + 5] * dy + world[m + 9] * dz;
                const rz = world[m + 2] * dx + world[m + 6] * dy + world[m + 10] * dz;
                dx = rx;
                dy = ry;
                dz = rz;
            } else {
                f32[at + E_POSITION] = 0;
                f32[at + E_POSITION + 1] = 0;
                f32[at + E_POSITION + 2] = 0;
            }
            // not Math.hypot: its rest arguments allocate on every call
            const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
            const inv = length > 0 ? 1 / length : 0;
            f32[at + E_DIRECTION] = length > 0 ? dx * inv : 0;
            f32[at + E_DIRECTION + 1] = length > 0 ? dy * inv : 1;
            f32[at + E_DIRECTION + 2] = length > 0 ? dz * inv : 0;
            f32[at + E_COS_CONE] = Math.cos(Math.min(pe.cone_angle[eid], Math.PI));
            f32[at + E_GRAVITY] = pe.gravity[eid * 3];
            f32[at + E_GRAVITY + 1] = pe.gravity[eid * 3 + 1];
            f32[at + E_GRAVITY + 2] = pe.gravity[eid * 3 + 2];
            f32[at + E_DRAG] = pe.drag[eid];
            for (let i = 0; i < 4; i++) {
                f32[at + E_COLOR_START + i] = pe.color_start[eid * 4 + i];
                f32[at + E_COLOR_END + i] = pe.color_end[eid * 4 + i];
            }
            f32[at + E_SPEED_MIN] = pe.speed_min[eid];
            f32[at + E_SPEED_MAX] = pe.speed_max[eid];
            f32[at + E_LIFE_MIN] = pe.lifetime_min[eid];
            f32[at + E_LIFE_MAX] = pe.lifetime_max[eid];
            f32[at + E_SIZE_START] = pe.size_start[eid];
            f32[at + E_SIZE_END] = pe.size_end[eid];
            f32[at + E_FRAME_START] = pe.frame_start[eid];
            f32[at + E_FRAME_COUNT] = pe.frame_count[eid];
            f32[at + E_FRAME_RATE] = pe.frame_rate[eid];
            f32[at + E_SOFTNESS] = pe.soft[eid] !== 0 ? Math.max(pe.softness[eid], 1e-4) : 0;
        }
        this.spawn_total = offset;
        this.additive_count = additive;
        this.alpha_count = alpha;
    }
}
