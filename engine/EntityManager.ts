import {
    addComponent,
    addEntity,
    createWorld,
    entityExists,
    getAllEntities,
    getEntityComponents,
    hasComponent,
    observe,
    onAdd,
    onRemove,
    removeComponent,
    removeEntity,
    type QueryTerm,
    type World,
} from "bitecs";
import { Name } from "./components/Name.js";
import { TransformDescriptor } from "./components/TransformDescriptor.js";
import { EntityQuery } from "./EntityQuery.js";
import { descriptor_of, is_required_by_some, type ComponentDescriptor } from "./level/ComponentDescriptor.js";
import { ComponentRegistry } from "./level/ComponentRegistry.js";
import { MAX_ENTITIES } from "./MAX_ENTITIES.js";

export { MAX_ENTITIES };

/** Zeroes `component`'s slots of `eid`: each typed array of `MAX_ENTITIES * stride` elements. */
export function zero_component_slots(component: object, eid: number): void {
    for (const value of Object.values(component)) {
        if (!ArrayBuffer.isView(value) || value instanceof DataView) continue;
        const array = value as Float32Array;
        if (array.length % MAX_ENTITIES !== 0) continue;
        const stride = array.length / MAX_ENTITIES;
        array.fill(0, eid * stride, eid * stride + stride);
    }
}

/**
 * The ECS world (bitecs 0.4) and entity life. Components are bitecs components: plain objects of typed arrays
 * indexed by entity id (see `components/Transform.ts`).
 *
 * bitecs recycles a removed id at once. So that a new entity never sees the old one's values or GPU slots:
 * `add_component` resets the component's slots of the entity before adding it (the descriptor's `reset`, the
 * one given to `set_component_reset`, or zeroed typed arrays), and systems free per-entity resources in an
 * `on_remove` observer, which runs while the removed entity's data is still readable.
 *
 * A component whose descriptor `requires` others (every one that reads `Transform`) is added only beside them.
 */
export class EntityManager {
    readonly world: World = createWorld();
    /** The components level files may use; `Transform` is there from the start. */
    readonly components = new ComponentRegistry();
    readonly #resets = new Map<object, (eid: number) => void>();
    /** Bumped each time an id is removed, so that an id kept elsewhere can be checked with `is_current`. */
    readonly #generations = new Uint32Array(MAX_ENTITIES);

    constructor() {
        this.components.register(TransformDescriptor);
        this.set_component_reset(Name, (eid) => {
            Name.value[eid] = undefined;
        });
    }

    /** A new entity id. Ids of removed entities are recycled: never keep one past its `remove_entity`. */
    create_entity(): number {
        const eid = addEntity(this.world);
        if (eid >= MAX_ENTITIES) {
            removeEntity(this.world, eid);
            throw new RangeError(`EntityManager.create_entity: more than ${MAX_ENTITIES - 1} entities are alive`);
        }
        return eid;
    }

    /** Removes `eid` and all its components (the `on_remove` observers of each component run first). */
    remove_entity(eid: number): void {
        if (!entityExists(this.world, eid)) throw new Error(`EntityManager.remove_entity: entity ${eid} does not exist`);
        removeEntity(this.world, eid);
        this.#generations[eid]++;
    }

    /**
     * How many times `eid` has been removed (through `remove_entity`). Keep it beside an id stored in another
     * component (a trail's owner) and check with `is_current`: a recycled id has a new generation.
     */
    generation(eid: number): number {
        return this.#generations[eid];
    }

    /** Whether `eid` is alive and still the entity that had `generation` (not a later one with its recycled id). */
    is_current(eid: number, generation: number): boolean {
        return entityExists(this.world, eid) && this.#generations[eid] === generation;
    }

    has_entity(eid: number): boolean {
        return entityExists(this.world, eid);
    }

    /** How many entities are alive. */
    get entity_count(): number {
        return getAllEntities(this.world).length;
    }

    /** The ids of the living entities (a new array: not for per-frame use; register a query instead). */
    entities(): number[] {
        return Array.from(getAllEntities(this.world));
    }

    /**
     * Adds `component` to `eid` with its slots reset (so a recycled id starts fresh), then `initialise(eid)` if
     * given, then the `on_add` observers, which so see the initial values (bitecs' own `set()` data lands only
     * after them). Returns false, changing nothing, when the entity already has the component. An `on_add` observer
     * that throws (a system that cannot take one more) leaves the entity without the component, and the error
     * propagates.
     */
    add_component(eid: number, component: object, initialise?: (eid: number) => void): boolean {
        if (!entityExists(this.world, eid)) throw new Error(`EntityManager.add_component: entity ${eid} does not exist`);
        if (hasComponent(this.world, eid, component)) return false;
        const descriptor = this.#descriptor(component);
        if (descriptor !== undefined) {
            const requires = descriptor.requires;
            for (let i = 0; i < requires.length; i++) {
                if (hasComponent(this.world, eid, requires[i].component)) continue;
                throw new Error(
                    `EntityManager.add_component: ${descriptor.name} needs ${requires[i].name} on the same entity, and entity ${eid} has none; ` +
                        `add ${requires[i].name} first`,
                );
            }
        }
        // the descriptor's reset even before its system registered it: an entity made before the system starts
        // gets the same defaults as one made after
        const reset = this.#resets.get(component) ?? descriptor?.reset;
        if (reset !== undefined) reset(eid);
        else zero_component_slots(component, eid);
        initialise?.(eid);
        try {
            addComponent(this.world, eid, component);
        } catch (error) {
            // an on_add observer refused it (a system's table full): take it back out, so that the entity is as
            // before and the observers that took it let it go again
            if (hasComponent(this.world, eid, component)) removeComponent(this.world, eid, component);
            throw error;
        }
        return true;
    }

    /**
     * Removes `component` from `eid` (its `on_remove` observers run first); false when it did not have it. Refused
     * while another component of the entity requires it (remove that one first; `remove_entity` takes all).
     */
    remove_component(eid: number, component: object): boolean {
        if (!entityExists(this.world, eid)) throw new Error(`EntityManager.remove_component: entity ${eid} does not exist`);
        if (!hasComponent(this.world, eid, component)) return false;
        if (is_required_by_some(component)) this.#expect_not_required(eid, component);
        removeComponent(this.world, eid, component);
        return true;
    }

    #expect_not_required(eid: number, component: object): void {
        for (const other of getEntityComponents(this.world, eid)) {
            const dependent = this.#descriptor(other);
            if (dependent === undefined || !dependent.requires.some((d) => d.component === component)) continue;
            const name = this.#descriptor(component)?.name ?? "the component";
            throw new Error(`EntityManager.remove_component: entity ${eid}'s ${dependent.name} needs ${name}; remove ${dependent.name} first`);
        }
    }

    has_component(eid: number, component: object): boolean {
        return entityExists(this.world, eid) && hasComponent(this.world, eid, component);
    }

    /**
     * How `add_component` resets a component that has no level descriptor (the default zeroes its typed arrays);
     * set slot indices to -1 and side data back to empty here.
     */
    set_component_reset(component: object, reset: (eid: number) => void): void {
        this.#resets.set(component, reset);
    }

    /** Calls `callback(eid)` after `component` is added to an entity. Returns the unsubscribe function. */
    on_add(component: object, callback: (eid: number) => void): () => void {
        return observe(this.world, onAdd(component), (eid: number) => {
            callback(eid);
        });
    }

    /**
     * Calls `callback(eid)` when `component` leaves an entity, by `remove_component` or with the whole entity,
     * before the id can be recycled and while its component data is still readable: free its GPU slots here.
     * Returns the unsubscribe function.
     */
    on_remove(component: object, callback: (eid: number) => void): () => void {
        return observe(this.world, onRemove(component), (eid: number) => {
            callback(eid);
        });
    }

    #descriptor(component: object): ComponentDescriptor | undefined {
        return this.components.of(component) ?? descriptor_of(component);
    }

    /** A query to keep (once per system, `terms` a module constant) and read each frame through `entities`. */
    register_query(terms: QueryTerm[]): EntityQuery {
        return new EntityQuery(this.world, terms);
    }
}
