import { PerEntity } from "../../engine/PerEntity.js";

/**
 * Plays an entity's model's glTF clips (the entity has a `ModelInstance`), run by `AnimatorSystem`: `clip` by
 * name (side data; "" plays none and holds the rest pose); changing it cross-fades from the clip playing over
 * `fade` seconds. `speed` scales time (negative plays backwards), `loop` wraps at the end or holds the last pose.
 * `time` is written back every update: seconds into the current clip. Write `time` with `AnimatorSystem.seek`.
 */
export const Animator = PerEntity.define({
    clip: PerEntity.value<string>(""),
    speed: PerEntity.f32(1, 1),
    loop: PerEntity.u8(1, 1),
    /** Seconds a change of `clip` blends over; 0 cuts. */
    fade: PerEntity.f32(1, 0.25),
    time: PerEntity.f32(),
});
