import { MAX_ENTITIES } from "../../engine/MAX_ENTITIES.js";

/**
 * A particle emitter on an entity (bitecs component: typed arrays indexed by entity id, vectors at
 * `eid * 3`, colours at `eid * 4`). The emitter sits at the entity's `Transform` position and its cone is
 * turned by the entity's rotation (the component requires a `Transform`: `add_component` refuses it without one). Read every frame:
 * change a field and the next frame uses it. `add_particle_emitter` adds it with defaults filled in.
 *
 * Particles live on the GPU (`GPUParticleEmitterSystem`), not as entities.
 */
export const ParticleEmitter = {
    /** Particles per second, spawned continuously. */
    rate: new Float32Array(MAX_ENTITIES),
    /** Particles spawned once, on the emitter's first simulated frame. */
    burst: new Uint32Array(MAX_ENTITIES),
    /** Seconds a particle lives: uniform in [lifetime_min, lifetime_max]. */
    lifetime_min: new Float32Array(MAX_ENTITIES),
    lifetime_max: new Float32Array(MAX_ENTITIES),
    /** The cone's axis in the entity's local frame (normalised when read). */
    direction: new Float32Array(MAX_ENTITIES * 3),
    /** Half-angle of the velocity cone, radians (0: along the axis, PI: every direction). */
    cone_angle: new Float32Array(MAX_ENTITIES),
    /** Initial speed, uniform in [speed_min, speed_max], units per second. */
    speed_min: new Float32Array(MAX_ENTITIES),
    speed_max: new Float32Array(MAX_ENTITIES),
    /** World-space acceleration, units per second squared. */
    gravity: new Float32Array(MAX_ENTITIES * 3),
    /** Fraction of velocity lost per second (linear drag). */
    drag: new Float32Array(MAX_ENTITIES),
    /** Billboard size (world units, edge length) at birth and at death, linear in between. */
    size_start: new Float32Array(MAX_ENTITIES),
    size_end: new Float32Array(MAX_ENTITIES),
    /** Straight-alpha RGBA at birth and at death, linear in between (HDR: components may exceed 1). */
    color_start: new Float32Array(MAX_ENTITIES * 4),
    color_end: new Float32Array(MAX_ENTITIES * 4),
    /** Atlas frames [frame_start, frame_start + frame_count) that a particle plays. */
    frame_start: new Uint32Array(MAX_ENTITIES),
    frame_count: new Uint32Array(MAX_ENTITIES),
    /** Frames per second; 0 spreads the frames over the particle's life once. */
    frame_rate: new Float32Array(MAX_ENTITIES),
    /** `ParticleBlend`: 0 additive, 1 alpha (order-independent). */
    blend: new Uint8Array(MAX_ENTITIES),
    /** 1: soft particles (fade against the scene depth), 0: hard depth test only. */
    soft: new Uint8Array(MAX_ENTITIES),
    /** Distance in world units over which a soft particle fades out in front of a surface. */
    softness: new Float32Array(MAX_ENTITIES),
    /** Seeds the emitter's random stream: the same seed and ticks give the same particles. */
    seed: new Uint32Array(MAX_ENTITIES),
};
