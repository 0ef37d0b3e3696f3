import { PerEntity } from "../PerEntity.js";

/**
 * Where an entity is, relative to its parent (`Parent`; the world for a root): position (3 floats at `eid * 3`),
 * rotation quaternion x, y, z, w (4 floats at `eid * 4`) and scale (3 floats at `eid * 3`). A bitecs component of
 * per-entity typed arrays. Added through `EntityManager.add_component` it starts at the identity (position 0,
 * rotation 0,0,0,1, scale 1).
 *
 * After a change of an entity that has been placed already, say so: write through `entityManager.set_position`
 * (`set_rotation`, `set_scale`), or write the arrays and call `entityManager.mark_transform_changed(eid)`. The
 * engine then computes its `WorldTransform` (and its descendants') before the next system runs.
 */
export const Transform = PerEntity.define({
    position: PerEntity.f32(3),
    rotation: PerEntity.f32(4),
    scale: PerEntity.f32(3),
});
