import { Name } from "../components/Name.js";
import { Parent } from "../components/Parent.js";
import type { LevelHost } from "./load_level.js";
import { LEVEL_VERSION } from "./level_schema.js";

/** A level as `save_level` writes it and `load_level` reads it. */
export interface LevelJson {
    version: typeof LEVEL_VERSION;
    entities: Record<string, unknown>[];
}

/**
 * The world as a level: every living entity that has a name or a component with a descriptor, in entity
 * order, its name and its parent's name (`"parent"`) first, then its components in registration order with
 * every field written (defaults included). A level loaded into an empty world saves back equal to itself once
 * its defaults are spelled out. A level names a parent by its name, so a parent without a name, or with a name
 * that another entity shares, throws (naming both entities): name it, then save.
 */
export function save_level(engine: LevelHost): LevelJson {
    const entityManager = engine.entityManager;
    const descriptors = entityManager.components.descriptors;
    const entities: Record<string, unknown>[] = [];
    const all = entityManager.entities();
    const name_of = (eid: number): string | undefined => (entityManager.has_component(eid, Name) ? Name.value[eid] : undefined);
    const named = new Map<string, number>();
    for (const eid of all) {
        const name = name_of(eid);
        if (name !== undefined) named.set(name, named.has(name) ? -1 : eid);
    }
    for (const eid of all) {
        const entry: Record<string, unknown> = {};
        const name = name_of(eid);
        if (name !== undefined) entry.name = name;
        if (entityManager.has_component(eid, Parent)) {
            const parent = Parent.eid[eid];
            const parent_name = name_of(parent);
            if (parent_name === undefined) {
                throw new Error(`save_level: ${entityManager.describe(eid)} has the parent ${entityManager.describe(parent)}, which has no name; a level names a parent by its name, so give it a Name`);
            }
            if (named.get(parent_name) === -1) {
                throw new Error(`save_level: ${entityManager.describe(eid)} has the parent ${entityManager.describe(parent)}, whose name another entity has too; a level names a parent by its name, so make it unique`);
            }
            entry.parent = parent_name;
        }
        for (const descriptor of descriptors) {
            if (entityManager.has_component(eid, descriptor.component)) entry[descriptor.name] = descriptor.read(eid, entityManager);
        }
        if (Object.keys(entry).length > 0) entities.push(entry);
    }
    return { version: LEVEL_VERSION, entities };
}

/** `save_level` as JSON text (two-space indented). */
export function level_to_json(engine: LevelHost): string {
    return JSON.stringify(save_level(engine), null, 2) + "\n";
}
