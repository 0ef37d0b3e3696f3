import { PerEntity } from "../../engine/PerEntity.js";

/**
 * Draws a wire box around its entity every frame (with `Transform`: centred at the position, turned by the
 * rotation, half extents scaled by the scale), through `DebugDrawSystem`. A bitecs component of typed arrays.
 */
export const DebugBounds = PerEntity.define({
    /** Half the box's size along its local x, y, z, at `eid * 3`. */
    half_extents: PerEntity.f32(3),
    /** RGBA at `eid * 4`. */
    color: PerEntity.f32(4),
});
