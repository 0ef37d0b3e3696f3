import { addEntity, createWorld, entityExists, removeEntity, type World } from "bitecs";

/** Most entities alive at once; component stores are sized for it. */
export const MAX_ENTITIES = 65536;

/**
 * The ECS world (bitecs 0.4) and entity life. Components are bitecs components: plain objects of typed arrays
 * indexed by entity id (see `components/Transform.ts`).
 */
export class EntityManager {
    readonly world: World = createWorld();

    /** A new entity id. Ids of removed entities are recycled: never keep one past its `remove_entity`. */
    create_entity(): number {
        const eid = addEntity(this.world);
        if (eid >= MAX_ENTITIES) {
            removeEntity(this.world, eid);
            throw new RangeError(`EntityManager.create_entity: more than ${MAX_ENTITIES} entities are alive`);
        }
        return eid;
    }

    /** Removes `eid` and all its components (observers of the components see the removal). */
    remove_entity(eid: number): void {
        if (!entityExists(this.world, eid)) throw new Error(`EntityManager.remove_entity: entity ${eid} does not exist`);
        removeEntity(this.world, eid);
    }

    has_entity(eid: number): boolean {
        return entityExists(this.world, eid);
    }
}
