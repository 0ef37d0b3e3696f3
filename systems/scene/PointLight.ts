import { PerEntity } from "../../engine/PerEntity.js";

/**
 * A light at the entity's world position, falling off with the inverse square of distance, windowed to `range`.
 * `SceneSystem` keeps one renderer point light per entity (at most `MAX_POINT_LIGHTS`). Read every frame.
 */
export const PointLight = PerEntity.define({
    /** Linear RGB at `eid * 3`. */
    color: PerEntity.f32(3, 1),
    intensity: PerEntity.f32(1, 10),
    range: PerEntity.f32(1, 10),
});
