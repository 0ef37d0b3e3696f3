import { LevelError } from "../../engine/level/LevelError.js";
import { load_level, type LevelHost } from "../../engine/level/load_level.js";
import { ModelInstance } from "./ModelInstance.js";
import type { ModelSystem } from "./ModelSystem.js";

/**
 * `load_level`, then waits for every model the level's entities ask for (`"Model": { "src": ... }`). A model that
 * fails to load fails the whole level with a `LevelError` at `entities[i].Model.src` whose `cause` is the
 * `AssetError` (file and glTF path): the level's entities are removed again, and the engine runs on.
 */
export async function load_level_with_models(engine: LevelHost, models: ModelSystem, source: unknown): Promise<number[]> {
    const created = load_level(engine, source);
    const entities = engine.entityManager;
    // the wait is long: an id removed meanwhile may be another entity's by the end
    const generations = created.map((eid) => entities.generation(eid));
    const waits: Promise<unknown>[] = [];
    const index: number[] = [];
    for (let i = 0; i < created.length; i++) {
        if (!entities.has_component(created[i], ModelInstance)) continue;
        index.push(i);
        waits.push(models.ready(created[i]));
    }
    const results = await Promise.allSettled(waits);
    const failed = results.findIndex((r) => r.status === "rejected");
    if (failed < 0) return created;
    const error = (results[failed] as PromiseRejectedResult).reason as unknown;
    // children first: a level entity may be another's parent
    for (let i = created.length - 1; i >= 0; i--) if (entities.is_current(created[i], generations[i])) entities.remove_entity(created[i]);
    throw new LevelError(
        `entities[${index[failed]}].Model.src`,
        `the model did not load: ${error instanceof Error ? error.message : String(error)}`,
        "a glTF file that loads",
        null,
        { cause: error },
    );
}
