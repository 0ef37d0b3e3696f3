import { MAX_ENTITIES } from "../../engine/EntityManager.js";

/**
 * Reveals the fog-of-war cells within `radius` of its entity (with `Transform`, on the x-z plane) to its
 * `team`, through `FogOfWarSystem`. A bitecs component of typed arrays.
 */
export const FogRevealer = {
    /** World units. */
    radius: new Float32Array(MAX_ENTITIES),
    /** 0 .. the system's `teams - 1`. */
    team: new Uint8Array(MAX_ENTITIES),
};
