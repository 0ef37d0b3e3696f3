import { commitRemovals, observe, onRemove, registerQuery, type Query, type World } from "bitecs";
import { Transform } from "../../engine/components/Transform.js";
import { WorldTransform } from "../../engine/components/WorldTransform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import { PerEntity } from "../../engine/PerEntity.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";
import { Trail3D } from "./Trail3D.js";
import { Trail3DDescriptor } from "./Trail3DDescriptor.js";
import { Trail3DExtension } from "./Trail3DExtension.js";
import {
    RECORD_COLOR,
    RECORD_COUNT,
    RECORD_HEAD,
    RECORD_HEAD_GRADIENT,
    RECORD_MAX_AGE,
    RECORD_NEWEST,
    RECORD_TAIL_GRADIENT,
    RECORD_WIDTH,
    TRAIL_RECORD_WORDS,
    TrailPool,
} from "./TrailPool.js";

export interface Trail3DSystemOptions {
    /** Ring points per trail (fixed capacity; the ribbon has this many segments plus the live head). Default 64. */
    readonly segments?: number;
    /** Trail slots reserved up front (the pool grows x2 past it). Default 256. */
    readonly initial_capacity?: number;
}

const TERMS = [Transform, Trail3D];

/**
 * Trails behind moving entities: every entity with `Transform` and `Trail3D` gets a slot in one pool of
 * fixed-capacity rings (`TrailPool`). Each update writes the entity's position as the live head of its
 * trail and, every `max_age / (segments - 1)` seconds, lays the head down as a ring point; the
 * `Trail3DExtension` it owns uploads the heads and the new points and draws every trail in one call.
 *
 * A removed entity's slot is freed at once (an observer of the query), so a recycled id starts a fresh
 * trail. Allocates nothing per update once the pool has grown to the number of trails.
 */
export class Trail3DSystem extends System {
    readonly name = "Trail3DSystem";
    readonly pool: TrailPool;

    readonly #graphics: GraphicsEngine;
    #extension: Trail3DExtension | null = null;
    #query: Query | null = null;
    #world: World | null = null;
    #unobserve: (() => void) | null = null;
    #now = 0;
    /** Slot of each entity, -1 for none. */
    /** Per-entity state, grown with the entity ids (`PerEntity`). */
    readonly #per_entity = PerEntity.define({
        slot_of: PerEntity.i32(1, -1),
    });
    get #slot_of(): Int32Array {
        return this.#per_entity.slot_of;
    }
    /** Entity of each slot (for freeing everything on shutdown). */
    #owner = new Int32Array(0);

    constructor(graphics: GraphicsEngine, options: Trail3DSystemOptions = {}) {
        super();
        this.#graphics = graphics;
        this.pool = new TrailPool(options.segments ?? 64, options.initial_capacity ?? 256);
    }

    /** Seconds of updates since startup: the clock the trail points are stamped with. */
    get now(): number {
        return this.#now;
    }

    /** The extension while started up, else null. */
    get extension(): Trail3DExtension | null {
        return this.#extension;
    }

    /** Trails alive now. */
    get trail_count(): number {
        return this.pool.live;
    }

    /** Points laid down in `eid`'s ring (0 without a trail). For tests and diagnostics. */
    point_count(eid: number): number {
        const slot = this.#slot_of[eid] ?? -1;
        return slot < 0 ? 0 : this.pool.count[slot];
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#extension !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(Trail3DDescriptor);
        const world = entityManager.world;
        this.#world = world;
        this.#query = registerQuery(world, TERMS);
        this.#unobserve = observe(world, onRemove(...TERMS), (eid: number) => this.#release(eid));
        this.#extension = this.#graphics.add_extension(new Trail3DExtension(this));
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        this.#unobserve?.();
        this.#unobserve = null;
        this.#query = null;
        this.#world = null;
        // every trail goes: a later startup builds them again from the world
        const owner = this.#owner;
        for (let slot = 0; slot < this.pool.high_water; slot++) if (owner[slot] >= 0) this.#slot_of[owner[slot]] = -1;
        this.pool.clear_all();
        this.#owner.fill(-1);
    }

    override update(dt: number): void {
        const query = this.#query;
        if (query === null) return;
        const now = (this.#now += dt);
        // removals are deferred in bitecs until committed: the dense list must not hold removed ids
        commitRemovals(this.#world!);
        const dense = query.dense;
        const pool = this.pool;
        const segments = pool.segments;
        const slot_of = this.#slot_of;
        // where the entity is in the world: a child of a moving parent trails too
        const world = WorldTransform.matrix;
        const max_ages = Trail3D.max_age;
        const colors = Trail3D.color;
        const heads = Trail3D.head;
        const tails = Trail3D.tail;
        for (let i = 0; i < dense.length; i++) {
            const eid = dense[i];
            let slot = slot_of[eid];
            if (slot < 0) slot = this.#acquire(eid);
            const records = pool.records_f32; // after #acquire: a growth replaces the arrays
            const r = slot * TRAIL_RECORD_WORDS;
            const clears = Trail3D.clear_count[eid];
            if (pool.clear_seen[slot] !== clears) {
                pool.clear_seen[slot] = clears;
                pool.reset(slot);
            }
            const max_age = max_ages[eid];
            const c = eid * 4;
            records[r + RECORD_COLOR] = colors[c];
            records[r + RECORD_COLOR + 1] = colors[c + 1];
            records[r + RECORD_COLOR + 2] = colors[c + 2];
            records[r + RECORD_COLOR + 3] = colors[c + 3];
            records[r + RECORD_HEAD_GRADIENT] = heads[c];
            records[r + RECORD_HEAD_GRADIENT + 1] = heads[c + 1];
            records[r + RECORD_HEAD_GRADIENT + 2] = heads[c + 2];
            records[r + RECORD_HEAD_GRADIENT + 3] = heads[c + 3];
            records[r + RECORD_TAIL_GRADIENT] = tails[c];
            records[r + RECORD_TAIL_GRADIENT + 1] = tails[c + 1];
            records[r + RECORD_TAIL_GRADIENT + 2] = tails[c + 2];
            records[r + RECORD_TAIL_GRADIENT + 3] = tails[c + 3];
            records[r + RECORD_MAX_AGE] = max_age;
            records[r + RECORD_WIDTH] = Trail3D.width[eid];
            if (Trail3D.spawning[eid] !== 0 && max_age > 0) {
                // resuming after a pause starts a fresh trail: no segment bridges the gap
                if (pool.was_spawning[slot] === 0) pool.reset(slot);
                pool.was_spawning[slot] = 1;
                const m = eid * 16 + 12;
                const x = world[m];
                const y = world[m + 1];
                const z = world[m + 2];
                records[r + RECORD_HEAD] = x;
                records[r + RECORD_HEAD + 1] = y;
                records[r + RECORD_HEAD + 2] = z;
                records[r + RECORD_HEAD + 3] = now;
                if (now - pool.last_commit[slot] >= max_age / (segments - 1)) pool.commit(slot, x, y, z, now);
            } else {
                // the head stays where the trail stopped and ages with it
                pool.was_spawning[slot] = 0;
            }
            const u32 = pool.records_u32;
            u32[r + RECORD_NEWEST] = pool.newest[slot];
            u32[r + RECORD_COUNT] = pool.count[slot];
        }
    }

    #acquire(eid: number): number {
        const slot = this.pool.allocate();
        if (this.#owner.length < this.pool.capacity) {
            const owner = new Int32Array(this.pool.capacity).fill(-1);
            owner.set(this.#owner);
            this.#owner = owner;
        }
        this.#owner[slot] = eid;
        this.#slot_of[eid] = slot;
        this.pool.clear_seen[slot] = Trail3D.clear_count[eid];
        return slot;
    }

    #release(eid: number): void {
        const slot = this.#slot_of[eid];
        if (slot < 0) return;
        this.#slot_of[eid] = -1;
        this.#owner[slot] = -1;
        this.pool.free(slot);
    }
}
