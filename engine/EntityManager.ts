import {
    addComponent,
    addEntity,
    createEntityIndex,
    createWorld,
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
import { Parent } from "./components/Parent.js";
import { Transform } from "./components/Transform.js";
import { TransformDescriptor } from "./components/TransformDescriptor.js";
import { EntityQuery } from "./EntityQuery.js";
import { descriptor_of, is_required_by_some, type ComponentDescriptor } from "./level/ComponentDescriptor.js";
import { ComponentRegistry } from "./level/ComponentRegistry.js";
import { PerEntity } from "./PerEntity.js";
import { TransformHierarchy } from "./TransformHierarchy.js";

/** Most entities alive at once in one `EntityManager` unless its options say otherwise. */
export const DEFAULT_MAX_ENTITIES = 1_000_000;

export interface EntityManagerOptions {
    /**
     * Most entities alive at once in this world (default `DEFAULT_MAX_ENTITIES`); one more is refused with an
     * error naming the capacity. Stores grow on demand, so a large capacity costs nothing until it is used.
     */
    readonly max_entities?: number;
}

/** What `remove_entity` does with the entity's children. */
export interface RemoveEntityOptions {
    /** "remove" (the default): the whole subtree goes; "detach": the children become roots, staying where they are. */
    readonly children?: "remove" | "detach";
}

/**
 * Every world in the process numbers its entities from this one index, so that an id means one entity
 * everywhere and per-entity stores (`Transform.position[eid * 3]`) can be shared by all worlds.
 */
const ENTITY_INDEX = createEntityIndex();

const RECORDS = PerEntity.define({
    /** The id of the EntityManager the entity lives in, 0 for none. */
    world: PerEntity.u32(),
    /** Bumped each time the id is removed. */
    generation: PerEntity.u32(),
});

/**
 * A tag on every entity of a world. bitecs fills a new query from the shared index's living entities, so a query
 * of only `Not(...)` terms would match other worlds' entities too; `register_query` puts this term first in such
 * a query (positive terms never match an entity the world does not have).
 */
const IN_WORLD = {};
const OPERATOR = Symbol.for("bitecs-opType");

let next_world_id = 1;
/** Components that passed the check that all their typed arrays are per-entity stores. */
const checked = new WeakSet<object>();

function check_component(component: object, caller: string): void {
    if (checked.has(component)) return;
    if (!PerEntity.is_defined(component)) {
        for (const [key, value] of Object.entries(component)) {
            if (ArrayBuffer.isView(value)) {
                throw new Error(
                    `EntityManager.${caller}: the component's typed array '${key}' does not grow with the entity ids; ` +
                        `declare the component with PerEntity.define({ ${key}: PerEntity.f32(...) })`,
                );
            }
        }
    }
    checked.add(component);
}

/**
 * The ECS world (bitecs 0.4) and entity life. Components are bitecs components: objects of per-entity typed
 * arrays indexed by entity id (`PerEntity.define`, see `components/Transform.ts`).
 *
 * Worlds keep to themselves: each has its own entities, component membership, queries and observers. Their ids
 * come from one entity index shared by every world in the process, so two worlds never hand out the same id and
 * the shared stores never mix their data.
 *
 * bitecs recycles a removed id at once. So that a new entity never sees the old one's values or GPU slots:
 * `add_component` resets the component's slots of the entity before adding it (the descriptor's `reset`, the
 * one given to `set_component_reset`, or the stores' fill values), and systems free per-entity resources in an
 * `on_remove` observer, which runs while the removed entity's data is still readable.
 *
 * A component whose descriptor `requires` others (every one that reads `Transform`) is added only beside them.
 * Entities with a `Transform` form a hierarchy (`set_parent`); each one's `WorldTransform` is kept up to date
 * by `update_world_transforms`, which the `Engine` calls before every system's update and before rendering.
 */
export class EntityManager {
    readonly world: World = createWorld(ENTITY_INDEX);
    /** The components level files may use; `Transform` is there from the start. */
    readonly components = new ComponentRegistry();
    /** Most entities alive at once; `create_entity` refuses one more. */
    readonly max_entities: number;
    readonly #id = next_world_id++;
    readonly #resets = new Map<object, (eid: number) => void>();
    readonly #hierarchy: TransformHierarchy;
    #count = 0;

    constructor(options: EntityManagerOptions = {}) {
        const max = options.max_entities ?? DEFAULT_MAX_ENTITIES;
        if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`new EntityManager: max_entities must be an integer >= 1, got ${String(max)}`);
        this.max_entities = max;
        this.#hierarchy = new TransformHierarchy(this.world, this.#id, (eid) => this.describe(eid));
        this.components.register(TransformDescriptor);
        this.set_component_reset(Name, (eid) => {
            Name.value[eid] = undefined;
        });
        // the first observers of the world: a system's on_add of Transform already sees the world matrix
        observe(this.world, onAdd(Transform), (eid: number) => this.#hierarchy.transform_added(eid));
        observe(this.world, onRemove(Transform), (eid: number) => this.#hierarchy.transform_removed(eid));
    }

    /**
     * A new entity id. Ids of removed entities are recycled: never keep one past its `remove_entity`. More than
     * `max_entities` alive throws, naming the capacity, and changes nothing.
     */
    create_entity(): number {
        if (this.#count >= this.max_entities) {
            throw new RangeError(
                `EntityManager.create_entity: this world holds its capacity of ${this.max_entities} entities; ` +
                    `remove some, or raise the capacity (new Engine({ max_entities }))`,
            );
        }
        const eid = addEntity(this.world, IN_WORLD);
        try {
            PerEntity.reserve(eid + 1);
        } catch (error) {
            removeEntity(this.world, eid);
            throw error;
        }
        RECORDS.world[eid] = this.#id;
        this.#count++;
        return eid;
    }

    /**
     * Removes `eid` and all its components (the `on_remove` observers of each component run first). Its children
     * go with it (descendants before their ancestors), or with `{ children: "detach" }` become roots that stay
     * where they are in the world.
     */
    remove_entity(eid: number, options: RemoveEntityOptions = {}): void {
        if (!this.has_entity(eid)) throw new Error(`EntityManager.remove_entity: entity ${eid} does not exist in this world`);
        const children = options.children ?? "remove";
        if (children !== "remove" && children !== "detach") {
            throw new RangeError(`EntityManager.remove_entity: children must be "remove" or "detach", got ${JSON.stringify(children)}`);
        }
        const hierarchy = this.#hierarchy;
        if (hierarchy.has_children(eid)) {
            if (children === "detach") hierarchy.detach_children(eid);
            else {
                const descendants = hierarchy.descendants(eid);
                for (let i = descendants.length - 1; i >= 0; i--) if (this.has_entity(descendants[i])) this.#destroy(descendants[i]);
            }
        }
        this.#destroy(eid);
    }

    #destroy(eid: number): void {
        this.#hierarchy.forget(eid);
        removeEntity(this.world, eid);
        RECORDS.world[eid] = 0;
        RECORDS.generation[eid]++;
        this.#count--;
    }

    /**
     * How many times `eid` has been removed (through `remove_entity`). Keep it beside an id stored in another
     * component (a trail's owner) and check with `is_current`: a recycled id has a new generation.
     */
    generation(eid: number): number {
        // an id past the stores has never been used
        return RECORDS.generation[eid] ?? 0;
    }

    /** Whether `eid` is alive and still the entity that had `generation` (not a later one with its recycled id). */
    is_current(eid: number, generation: number): boolean {
        return this.has_entity(eid) && RECORDS.generation[eid] === generation;
    }

    /** Whether `eid` is alive in this world (an id of another world's entity is not). */
    has_entity(eid: number): boolean {
        return RECORDS.world[eid] === this.#id;
    }

    /** How many entities are alive. */
    get entity_count(): number {
        return this.#count;
    }

    /** The ids of the living entities, in creation order (a new array: not for per-frame use; register a query instead). */
    entities(): number[] {
        return Array.from(getAllEntities(this.world));
    }

    /** "entity 12 ('tower')", or "entity 12" when it has no name: how errors name an entity. */
    describe(eid: number): string {
        const name = this.has_component(eid, Name) ? Name.value[eid] : undefined;
        return name === undefined ? `entity ${eid}` : `entity ${eid} ('${name}')`;
    }

    /**
     * Adds `component` to `eid` with its slots reset (so a recycled id starts fresh), then `initialise(eid)` if
     * given, then the `on_add` observers, which so see the initial values (bitecs' own `set()` data lands only
     * after them). Returns false, changing nothing, when the entity already has the component. An `on_add` observer
     * that throws (a system that cannot take one more) leaves the entity without the component, and the error
     * propagates. `Parent` is refused: it is set with `set_parent`.
     */
    add_component(eid: number, component: object, initialise?: (eid: number) => void): boolean {
        if (!this.has_entity(eid)) throw new Error(`EntityManager.add_component: entity ${eid} does not exist in this world`);
        if (component === Parent) throw new Error(`EntityManager.add_component: Parent is set with set_parent(child, parent), which links the hierarchy and refuses cycles`);
        check_component(component, "add_component");
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
        else PerEntity.reset(component, eid);
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
     * Removing `Parent` makes the entity a root (its Transform now counts from the world); removing `Transform`
     * also takes the entity out of the hierarchy, its children becoming roots where they are.
     */
    remove_component(eid: number, component: object): boolean {
        if (!this.has_entity(eid)) throw new Error(`EntityManager.remove_component: entity ${eid} does not exist in this world`);
        if (!hasComponent(this.world, eid, component)) return false;
        if (is_required_by_some(component)) this.#expect_not_required(eid, component);
        if (component === Parent) this.#hierarchy.set_parent(eid, null, false);
        else removeComponent(this.world, eid, component);
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
        return this.has_entity(eid) && hasComponent(this.world, eid, component);
    }

    /**
     * How `add_component` resets a component that has no level descriptor (the default writes the stores' fill
     * values); set slot indices to -1 and side data back to empty here.
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
        const operators = terms.some((term) => typeof term === "object" && term !== null && OPERATOR in term);
        return new EntityQuery(this.world, operators ? [IN_WORLD, ...terms] : terms);
    }

    // ---- the transform hierarchy ----

    /**
     * Makes `parent` the parent of `child` (null: `child` becomes a root). Both need a `Transform`. A link that
     * would close a cycle (`parent` is `child` or one of its descendants) throws, naming both entities, and
     * changes nothing. By default `child`'s Transform is kept and from now on counts from `parent`; with
     * `{ keep_world: true }` it is rewritten so that the child stays where it is in the world.
     */
    set_parent(child: number, parent: number | null, options: { readonly keep_world?: boolean } = {}): void {
        if (!this.has_entity(child)) throw new Error(`EntityManager.set_parent: entity ${child} does not exist in this world`);
        if (parent !== null && !this.has_entity(parent)) {
            throw new Error(`EntityManager.set_parent: entity ${parent} (the parent of ${this.describe(child)}) does not exist in this world`);
        }
        this.#hierarchy.set_parent(child, parent, options.keep_world === true);
    }

    /** `eid`'s parent, or null for a root. */
    parent_of(eid: number): number | null {
        if (!this.has_entity(eid)) throw new Error(`EntityManager.parent_of: entity ${eid} does not exist in this world`);
        const parent = this.#hierarchy.parent_of(eid);
        return parent < 0 ? null : parent;
    }

    /** `eid`'s children (appended to `out`, a new array by default), most recently attached first. */
    children_of(eid: number, out: number[] = []): number[] {
        if (!this.has_entity(eid)) throw new Error(`EntityManager.children_of: entity ${eid} does not exist in this world`);
        return this.#hierarchy.children(eid, out);
    }

    /**
     * Says that `eid`'s `Transform` was written in place: its world matrix, and its descendants', are computed
     * again at the next `update_world_transforms`. Allocates nothing; marking twice costs nothing more.
     */
    mark_transform_changed(eid: number): void {
        if (!this.#hierarchy.placed(eid) || !this.has_entity(eid)) {
            throw new Error(`EntityManager.mark_transform_changed: ${this.has_entity(eid) ? this.describe(eid) + " has no Transform" : `entity ${eid} does not exist in this world`}`);
        }
        this.#hierarchy.mark(eid);
    }

    /** Writes `eid`'s `Transform.position` (relative to its parent) and marks the change. */
    set_position(eid: number, x: number, y: number, z: number): void {
        this.mark_transform_changed(eid);
        const position = Transform.position;
        position[eid * 3] = x;
        position[eid * 3 + 1] = y;
        position[eid * 3 + 2] = z;
    }

    /** Writes `eid`'s `Transform.rotation` (a unit quaternion x, y, z, w; relative to its parent) and marks the change. */
    set_rotation(eid: number, x: number, y: number, z: number, w: number): void {
        this.mark_transform_changed(eid);
        const rotation = Transform.rotation;
        rotation[eid * 4] = x;
        rotation[eid * 4 + 1] = y;
        rotation[eid * 4 + 2] = z;
        rotation[eid * 4 + 3] = w;
    }

    /** Writes `eid`'s `Transform.scale` (relative to its parent) and marks the change. */
    set_scale(eid: number, x: number, y: number, z: number): void {
        this.mark_transform_changed(eid);
        const scale = Transform.scale;
        scale[eid * 3] = x;
        scale[eid * 3 + 1] = y;
        scale[eid * 3 + 2] = z;
    }

    /**
     * Computes `WorldTransform` for every entity whose own or an ancestor's transform changed since the last
     * call, parents before children, each once. Costs in proportion to what changed (nothing when nothing did)
     * and allocates nothing. The `Engine` calls it before every system's update and before rendering; call it
     * yourself to read a world matrix right after a change.
     */
    update_world_transforms(): void {
        this.#hierarchy.flush();
    }

    /** Entities whose transform changed since the last `update_world_transforms`. */
    get pending_transforms(): number {
        return this.#hierarchy.pending;
    }
}
