import { PerEntity } from "../../engine/PerEntity.js";

/**
 * A particle emitter on an entity (bitecs component: typed arrays indexed by entity id, vectors at
 * `eid * 3`, colours at `eid * 4`). The emitter sits at the entity's `Transform` position and its cone is
 * turned by the entity's rotation (the component requires a `Transform`: `add_component` refuses it without one). Read every frame:
 * change a field and the next frame uses it. `add_particle_emitter` adds it with defaults filled in.
 *
 * Particles live on the GPU (`GPUParticleEmitterSystem`), not as entities.
 */
export const ParticleEmitter = PerEntity.define({
    /** Particles per second, spawned continuously. */
    rate: PerEntity.f32(),
    /** Particles spawned once, on the emitter's first simulated frame. */
    burst: PerEntity.u32(),
    /** Seconds a particle lives: uniform in [lifetime_min, lifetime_max]. */
    lifetime_min: PerEntity.f32(),
    lifetime_max: PerEntity.f32(),
    /** The cone's axis in the entity's local frame (normalised when read). */
    direction: PerEntity.f32(3),
    /** Half-angle of the velocity cone, radians (0: along the axis, PI: every direction). */
    cone_angle: PerEntity.f32(),
    /** Initial speed, uniform in [speed_min, speed_max], units per second. */
    speed_min: PerEntity.f32(),
    speed_max: PerEntity.f32(),
    /** World-space acceleration, units per second squared. */
    gravity: PerEntity.f32(3),
    /** Fraction of velocity lost per second (linear drag). */
    drag: PerEntity.f32(),
    /** Billboard size (world units, edge length) at birth and at death, linear in between. */
    size_start: PerEntity.f32(),
    size_end: PerEntity.f32(),
    /** Straight-alpha RGBA at birth and at death, linear in between (HDR: components may exceed 1). */
    color_start: PerEntity.f32(4),
    color_end: PerEntity.f32(4),
    /** Atlas frames [frame_start, frame_start + frame_count) that a particle plays. */
    frame_start: PerEntity.u32(),
    frame_count: PerEntity.u32(),
    /** Frames per second; 0 spreads the frames over the particle's life once. */
    frame_rate: PerEntity.f32(),
    /** `ParticleBlend`: 0 additive, 1 alpha (order-independent). */
    blend: PerEntity.u8(),
    /** 1: soft particles (fade against the scene depth), 0: hard depth test only. */
    soft: PerEntity.u8(),
    /** Distance in world units over which a soft particle fades out in front of a surface. */
    softness: PerEntity.f32(),
    /** Seeds the emitter's random stream: the same seed and ticks give the same particles. */
    seed: PerEntity.u32(),
});
