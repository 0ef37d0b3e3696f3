import { PerEntity } from "../../engine/PerEntity.js";

/**
 * Reveals the fog-of-war cells within `radius` of its entity (with `Transform`, on the x-z plane) to its
 * `team`, through `FogOfWarSystem`. A bitecs component of typed arrays.
 */
export const FogRevealer = PerEntity.define({
    /** World units. */
    radius: PerEntity.f32(),
    /** 0 .. the system's `teams - 1`. */
    team: PerEntity.u8(),
});
