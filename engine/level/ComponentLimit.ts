import type { LevelIssue } from "./ComponentDescriptor.js";

/**
 * A limit a system puts on a component's values beyond the component's schema: what the schema allows but the
 * system cannot serve (a team beyond the fog's team count, a frame beyond the decal atlas, more emitters than
 * the particle table holds). A system adds it in `startup` (`entityManager.components.add_limit(descriptor,
 * limit)`) and removes it in `shutdown`; `load_level` checks every level value against every limit before it
 * creates anything, and refuses with a `LevelError` naming the path, the limit and its owner.
 */
export interface ComponentLimit<V = Readonly<Record<string, unknown>>> {
    /** Who sets the limit (the system's name), named in the error beside the limit. */
    readonly owner: string;
    /**
     * Checks one entity's value (its defaults filled in). `ordinal` counts the level's entities with this
     * component before this one (0 for the first), for limits on how many there may be. Returns the issue, its
     * `expected` stating the limit, or null.
     */
    check(value: V, ordinal: number): LevelIssue | null;
}
