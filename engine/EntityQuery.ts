import { commitRemovals, registerQuery, type Query, type QueryTerm, type World } from "bitecs";

/**
 * A query registered once (`entityManager.register_query(TERMS)` with a module-constant `TERMS`); reading
 * `entities` each frame builds no hash string and allocates nothing.
 */
export class EntityQuery {
    readonly #world: World;
    readonly #query: Query;

    constructor(world: World, terms: QueryTerm[]) {
        this.#world = world;
        this.#query = registerQuery(world, terms);
    }

    /**
     * The ids of the matching entities, in no particular order. The array is live: it changes when the world
     * does, so do not add or remove matching components while iterating it.
     */
    get entities(): readonly number[] {
        // bitecs defers removals from a query's dense array until a commit; query() commits, so must we
        commitRemovals(this.#world);
        return this.#query.dense as readonly number[];
    }

    get count(): number {
        return this.entities.length;
    }
}
