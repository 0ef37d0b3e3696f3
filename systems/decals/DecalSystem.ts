import { Parent } from "../../engine/components/Parent.js";
import { Transform } from "../../engine/components/Transform.js";
import { WorldTransform } from "../../engine/components/WorldTransform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";
import { Decal } from "./Decal.js";
import { DecalAtlas } from "./DecalAtlas.js";
import { DecalDescriptor } from "./DecalDescriptor.js";
import { DecalExtension, type DecalFadeOptions } from "./DecalExtension.js";
import { DECAL_INSTANCE_FLOATS, DecalInstances } from "./DecalInstances.js";

export interface DecalSystemOptions extends DecalFadeOptions {
    /** The atlas the decals' frames index; default `DecalAtlas.procedural()` (`DECAL_FRAMES`). */
    readonly atlas?: DecalAtlas;
    /** Decal records reserved up front (the buffer grows x2 past it). Default 1024. */
    readonly initial_capacity?: number;
}

const TERMS = [Transform, Decal];

/**
 * Box-projected decals: every entity with `Transform` and `Decal` becomes one record of the instance buffer
 * that the `DecalExtension` it owns draws in one instanced pass at AfterGBuffer, after the terrain. Each
 * update rebuilds the records from the components (a box's axes from the Transform rotation and the decal's
 * rotation about its projection axis, its half extents from size x scale, its atlas rectangle from the
 * frame) and marks only the records that changed, so a field of static scorch marks uploads nothing.
 * Allocates nothing per update once the buffer has grown to the number of decals. A level decal whose frame is
 * beyond the atlas is refused with a `LevelError`; one written by code stops the update (reported, suspended).
 */
export class DecalSystem extends System {
    readonly name = "DecalSystem";
    readonly instances: DecalInstances;
    readonly atlas: DecalAtlas;

    readonly #graphics: GraphicsEngine;
    readonly #options: DecalFadeOptions;
    #extension: DecalExtension | null = null;
    #query: EntityQuery | null = null;
    #unlimit: (() => void) | null = null;
    readonly #record = new Float32Array(DECAL_INSTANCE_FLOATS);

    constructor(graphics: GraphicsEngine, options: DecalSystemOptions = {}) {
        super();
        this.#graphics = graphics;
        this.atlas = options.atlas ?? DecalAtlas.procedural();
        this.instances = new DecalInstances(options.initial_capacity ?? 1024);
        this.#options = options;
        // checks the fade options now, not at startup
        void new DecalExtension(this, options);
    }

    /** The extension while started up, else null. */
    get extension(): DecalExtension | null {
        return this.#extension;
    }

    /** Decals drawn (after the last update). */
    get decal_count(): number {
        return this.instances.count;
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#extension !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(DecalDescriptor);
        this.#query = entityManager.register_query(TERMS);
        const frames = this.atlas.frame_count;
        this.#unlimit = entityManager.components.add_limit(DecalDescriptor, {
            owner: this.name,
            check: (value) => (value.frame >= frames ? { path: "frame", expected: `a frame in 0..${frames - 1}: the atlas has ${frames} frames` } : null),
        });
        this.#extension = this.#graphics.add_extension(new DecalExtension(this, this.#options));
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        this.#query = null;
        this.#unlimit?.();
        this.#unlimit = null;
        this.instances.count = 0;
        this.instances.mark_all();
    }

    override update(dt: number): void {
        void dt;
        const query = this.#query;
        if (query === null) return;
        const entities = query.entities;
        const count = entities.length;
        const instances = this.instances;
        instances.reserve(count);
        instances.count = count;
        const atlas = this.atlas;
        const columns = atlas.columns;
        const frames = atlas.frame_count;
        const frame_size = atlas.frame_size;
        const inv_w = 1 / atlas.width;
        const inv_h = 1 / atlas.height;
        const world = WorldTransform.matrix;
        const parent_of = Parent.eid;
        const rotation = Transform.rotation;
        const scale = Transform.scale;
        const record = this.#record;
        const data = instances.data;
        for (let k = 0; k < count; k++) {
            const eid = entities[k];
            const frame = Decal.frame[eid];
            if (frame >= frames) throw new RangeError(`DecalSystem: entity ${eid}'s Decal.frame is ${frame}; the atlas has ${frames} frames (0..${frames - 1})`);
            // q = Transform.rotation * (rotation about local y)
            const half = Decal.rotation[eid] * 0.5;
            const sy = Math.sin(half);
            const cy = Math.cos(half);
            const r = eid * 4;
            const ax = rotation[r];
            const ay = rotation[r + 1];
            const az = rotation[r + 2];
            const aw = rotation[r + 3];
            const x = ax * cy - az * sy;
            const y = ay * cy + aw * sy;
            const z = az * cy + ax * sy;
            const w = aw * cy - ay * sy;
            const p = eid * 3;
            record[0] = world[eid * 16 + 12];
            record[1] = world[eid * 16 + 13];
            record[2] = world[eid * 16 + 14];
            record[3] = 0;
            // columns of the rotation matrix of (x, y, z, w)
            record[4] = 1 - 2 * (y * y + z * z);
            record[5] = 2 * (x * y + z * w);
            record[6] = 2 * (x * z - y * w);
            record[7] = Decal.size[p] * scale[p] * 0.5;
            record[8] = 2 * (x * y - z * w);
            record[9] = 1 - 2 * (x * x + z * z);
            record[10] = 2 * (y * z + x * w);
            record[11] = Decal.size[p + 1] * scale[p + 1] * 0.5;
            record[12] = 2 * (x * z + y * w);
            record[13] = 2 * (y * z - x * w);
            record[14] = 1 - 2 * (x * x + y * y);
            record[15] = Decal.size[p + 2] * scale[p + 2] * 0.5;
            const parent = parent_of[eid];
            if (parent >= 0) {
                // under a parent the box's axes turn (and stretch) with the parent's world matrix
                const m = parent * 16;
                for (let axis = 4; axis < 16; axis += 4) {
                    const ax = record[axis];
                    const ay = record[axis + 1];
                    const az = record[axis + 2];
                    const wx = world[m] * ax + world[m + 4] * ay + world[m + 8] * az;
                    const wy = world[m + 1] * ax + world[m + 5] * ay + world[m + 9] * az;
                    const wz = world[m + 2] * ax + world[m + 6] * ay + world[m + 10] * az;
                    const length = Math.sqrt(wx * wx + wy * wy + wz * wz);
                    const inv = length > 0 ? 1 / length : 0;
                    record[axis] = wx * inv;
                    record[axis + 1] = wy * inv;
                    record[axis + 2] = wz * inv;
                    record[axis + 3] *= length;
                }
            }
            const c = eid * 4;
            record[16] = Decal.color[c];
            record[17] = Decal.color[c + 1];
            record[18] = Decal.color[c + 2];
            record[19] = Decal.color[c + 3];
            // the frame's texels, inset by half a texel so that filtering never reaches the neighbour
            const column = frame % columns;
            const row = (frame - column) / columns;
            record[20] = (column * frame_size + 0.5) * inv_w;
            record[21] = (row * frame_size + 0.5) * inv_h;
            record[22] = (frame_size - 1) * inv_w;
            record[23] = (frame_size - 1) * inv_h;
            const base = k * DECAL_INSTANCE_FLOATS;
            let changed = false;
            for (let i = 0; i < DECAL_INSTANCE_FLOATS; i++) {
                if (data[base + i] !== record[i]) {
                    changed = true;
                    data[base + i] = record[i];
                }
            }
            if (changed) {
                if (k < instances.dirty_from) instances.dirty_from = k;
                if (k + 1 > instances.dirty_to) instances.dirty_to = k + 1;
            }
        }
    }
}
