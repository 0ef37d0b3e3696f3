import { PerEntity } from "../PerEntity.js";

/**
 * Where an entity with `Transform` is in the world: its parent's world matrix times its own
 * translation x rotation x scale; for a root, its own. 16 floats at `eid * 16`, column-major as gl-matrix
 * (the world position is `matrix[eid * 16 + 12 .. 14]`). Kept by the engine, never written by hand: it is
 * computed when the entity gets its `Transform`, and again for every entity whose own or an ancestor's
 * transform changed before each system's `update` and before the frame renders
 * (`EntityManager.update_world_transforms`).
 */
export const WorldTransform = PerEntity.define({
    matrix: PerEntity.f32(16),
    /**
     * Changes each time the entity's world matrix is computed again (it moved, or an ancestor did): a system
     * that mirrors matrices elsewhere keeps the version it copied and copies again only when it differs.
     */
    version: PerEntity.u32(),
});
