import { Name } from "../components/Name.js";
import type { LevelHost } from "./load_level.js";
import { LEVEL_VERSION } from "./level_schema.js";

/** A level as `save_level` writes it and `load_level` reads it. */
export interface LevelJson {
    version: typeof LEVEL_VERSION;
    entities: Record<string, unknown>[];
}

/**
 * The world as a level: every living entity that has a name or a component with a descriptor, in entity
 * order, its components in registration order with every field written (defaults included). A level loaded
 * into an empty world saves back equal to itself once its defaults are spelled out.
 */
export function save_level(engine: LevelHost): LevelJson {
    const entityManager = engine.entityManager;
    const descriptors = entityManager.components.descriptors;
    const entities: Record<string, unknown>[] = [];
    for (const eid of entityManager.entities()) {
        const entry: Record<string, unknown> = {};
        if (entityManager.has_component(eid, Name) && Name.value[eid] !== undefined) entry.name = Name.value[eid];
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
