import { PerEntity } from "../../engine/PerEntity.js";

/**
 * A perspective camera at the entity's world transform, looking down its local -z with its local +y up (the
 * glTF convention). The active one (`SceneSystem.active_camera`; switch with `set_active_camera`) drives
 * `engine.graphics.view.camera` every frame. Fields are read every frame: write them in place.
 */
export const Camera = PerEntity.define({
    /** Vertical field of view, degrees (0 < fov < 180). */
    fov: PerEntity.f32(1, 60),
    near: PerEntity.f32(1, 0.1),
    far: PerEntity.f32(1, 200),
    /** 1: may be the active camera (the most recently activated such camera is). */
    active: PerEntity.u8(1, 1),
});
