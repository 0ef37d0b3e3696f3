import { PerEntity } from "../../engine/PerEntity.js";

/**
 * The sun: light from infinitely far along `direction` (in the entity's local space, turned by its world
 * rotation; default its local -z, the glTF convention). `SceneSystem` drives the renderer's one sun from the most
 * recently added `DirectionalLight`; with none left, the sun is off (intensity 0).
 */
export const DirectionalLight = PerEntity.define({
    /** x, y, z at `eid * 3`: where the light travels, local to the entity. */
    direction: PerEntity.f32(3),
    /** Linear RGB at `eid * 3`. */
    color: PerEntity.f32(3, 1),
    intensity: PerEntity.f32(1, 3),
});
