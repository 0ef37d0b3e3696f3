import { LevelError } from "./LevelError.js";

type LevelEntity = Readonly<Record<string, unknown>>;

const EXPECTED = "the name of another entity of this level that has a Transform";

function label(entities: readonly LevelEntity[], index: number): string {
    const name = entities[index].name;
    return typeof name === "string" ? `entities[${index}] ("${name}")` : `entities[${index}]`;
}

/**
 * The parent of each level entity as an index into `entities` (-1 for none), from the entities' `"parent"`
 * names, or null when no entity has a parent. Checked before anything is created; each problem is a
 * `LevelError` at `entities[i].parent`: a name no entity of the level has, or that several have, an entity
 * that names itself, a child or parent without a Transform, parents that form a cycle (named in order).
 * Names resolve within the level only, never against entities already in the world.
 */
export function resolve_parents(entities: readonly LevelEntity[]): Int32Array | null {
    let any = false;
    for (const entity of entities) if (entity.parent !== undefined) any = true;
    if (!any) return null;
    const by_name = new Map<string, number>();
    const shared = new Map<string, number[]>();
    for (let i = 0; i < entities.length; i++) {
        const name = entities[i].name;
        if (typeof name !== "string") continue;
        const first = by_name.get(name);
        if (first === undefined) by_name.set(name, i);
        else shared.set(name, [...(shared.get(name) ?? [first]), i]);
    }
    const parents = new Int32Array(entities.length).fill(-1);
    for (let i = 0; i < entities.length; i++) {
        const name = entities[i].parent as string | undefined;
        if (name === undefined) continue;
        const path = `entities[${i}].parent`;
        const index = by_name.get(name);
        if (index === undefined) throw new LevelError(path, `no entity of this level is named "${name}"`, EXPECTED);
        const several = shared.get(name);
        if (several !== undefined) {
            throw new LevelError(path, `"${name}" names ${several.length} entities (${several.map((j) => `entities[${j}]`).join(", ")})`, "a name that one entity of this level has");
        }
        if (index === i) throw new LevelError(path, `${label(entities, i)} names itself as its parent`, EXPECTED);
        if (entities[i].Transform === undefined) throw new LevelError(path, `${label(entities, i)} has a parent but no Transform`, "a parent only on an entity with a Transform");
        if (entities[index].Transform === undefined) throw new LevelError(path, `the parent ${label(entities, index)} has no Transform`, EXPECTED);
        parents[i] = index;
    }
    // a cycle: walking up from an entity comes back to one already on the walk
    const state = new Uint8Array(entities.length); // 0 unvisited, 1 on the current walk, 2 known to reach a root
    for (let start = 0; start < entities.length; start++) {
        let i = start;
        while (i >= 0 && state[i] === 0) {
            state[i] = 1;
            i = parents[i];
        }
        if (i >= 0 && state[i] === 1) {
            const cycle = [i];
            for (let j = parents[i]; j !== i; j = parents[j]) cycle.push(j);
            const names = [...cycle, i].map((j) => label(entities, j)).join(" -> ");
            throw new LevelError(`entities[${i}].parent`, `the parents form a cycle: ${names}`, "parents that end at an entity without one");
        }
        for (let j = start; j >= 0 && state[j] === 1; j = parents[j]) state[j] = 2;
    }
    return parents;
}
