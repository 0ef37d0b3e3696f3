import { Transform } from "../../engine/components/Transform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import { System } from "../../engine/System.js";
import { Walker, WalkerDescriptor } from "./Walker.js";

const TERMS = [Transform, Walker];

/** Height of the ground under a point, for units to stand on; flat ground unless the sample sets one. */
export type GroundHeight = (x: number, z: number) => number;

/** Moves every Walker along its loop; deterministic in the sum of the update steps. */
export class WalkerSystem extends System {
    readonly name = "WalkerSystem";
    // writes units' local transforms only
    override readonly reads_world_transforms = false;
    /** Seconds walked since startup. */
    time = 0;
    ground: GroundHeight = () => 0;
    #query: EntityQuery | null = null;
    #entities: EntityManager | null = null;

    async startup(entityManager: EntityManager): Promise<void> {
        entityManager.components.register(WalkerDescriptor);
        this.#query ??= entityManager.register_query(TERMS);
        this.#entities = entityManager;
    }

    update(dt: number): void {
        this.time += dt;
        const query = this.#query;
        const manager = this.#entities;
        if (query === null || manager === null) return;
        const entities = query.entities;
        const position = Transform.position;
        const rotation = Transform.rotation;
        for (let k = 0; k < entities.length; k++) {
            const eid = entities[k];
            const loop = Walker.loop[eid];
            const lengths = Walker.lengths[eid];
            if (loop === undefined || lengths === undefined) continue;
            const total = lengths[lengths.length - 1];
            let d = (Walker.offset[eid] * total + this.time * Walker.speed[eid]) % total;
            let i = 0;
            while (i < lengths.length - 2 && lengths[i + 1] < d) i++;
            d -= lengths[i];
            const j = (i + 1) % (loop.length / 2);
            const ax = loop[i * 2];
            const az = loop[i * 2 + 1];
            const dx = loop[j * 2] - ax;
            const dz = loop[j * 2 + 1] - az;
            const segment = lengths[i + 1] - lengths[i];
            const t = segment > 0 ? d / segment : 0;
            const x = ax + dx * t;
            const z = az + dz * t;
            position[eid * 3] = x;
            position[eid * 3 + 1] = this.ground(x, z) + 0.35;
            position[eid * 3 + 2] = z;
            // face along the segment: a yaw about +y
            const yaw = Math.atan2(dx, dz) * 0.5;
            rotation[eid * 4] = 0;
            rotation[eid * 4 + 1] = Math.sin(yaw);
            rotation[eid * 4 + 2] = 0;
            rotation[eid * 4 + 3] = Math.cos(yaw);
            // written in place: the world matrices (trails, fog, particles read them) follow
            manager.mark_transform_changed(eid);
        }
    }
}
