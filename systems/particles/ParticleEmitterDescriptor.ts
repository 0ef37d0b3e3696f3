import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { ParticleEmitter } from "./ParticleEmitter.js";

/**
 * `ParticleEmitter` in level files (the same defaults as `add_particle_emitter`), e.g.
 * `{ "ParticleEmitter": { "rate": 200, "color_start": [4, 1.5, 0.3, 1], "gravity": [0, -2, 0] } }`.
 * Colours are linear RGBA and may exceed 1 (HDR, for additive glow).
 */
export const ParticleEmitterDescriptor = define_component({
    name: "ParticleEmitter",
    component: ParticleEmitter,
    requires: [TransformDescriptor],
    description: "GPU particles emitted from the entity (its Transform, if any), simulated and drawn by GPUParticleEmitterSystem",
    fields: {
        rate: Field.number({ default: 10, minimum: 0, description: "particles per second" }),
        burst: Field.integer({ default: 0, minimum: 0, description: "particles spawned once, on the emitter's first frame" }),
        lifetime_min: Field.number({ default: 1, minimum: 0, description: "shortest life, seconds" }),
        lifetime_max: Field.number({ default: 1.5, minimum: 0, description: "longest life, seconds" }),
        direction: Field.vec3({ default: [0, 1, 0], description: "the velocity cone's axis, in the entity's frame" }),
        // the bound as float32, the storage: a cone of exactly pi saves and loads back as itself
        cone_angle: Field.number({ default: 0.3, minimum: 0, maximum: Math.fround(Math.PI), description: "half-angle of the cone, radians (at most pi)" }),
        speed_min: Field.number({ default: 1, description: "slowest initial speed, units per second" }),
        speed_max: Field.number({ default: 2, description: "fastest initial speed, units per second" }),
        gravity: Field.vec3({ default: [0, 0, 0], description: "world-space acceleration, units per second squared" }),
        drag: Field.number({ default: 0, minimum: 0, description: "fraction of velocity lost per second" }),
        size_start: Field.number({ default: 0.2, minimum: 0, description: "billboard size at birth, world units" }),
        size_end: Field.number({ default: 0.1, minimum: 0, description: "billboard size at death, world units" }),
        color_start: Field.vec4({ default: [1, 1, 1, 1], description: "linear RGBA at birth (straight alpha; may exceed 1)" }),
        color_end: Field.vec4({ default: [1, 1, 1, 0], description: "linear RGBA at death" }),
        frame_start: Field.integer({ default: 0, minimum: 0, maximum: 7, description: "first atlas frame (0 soft disc, 1 hard disc, 2 spark, 3 ring, 4-7 smoke)" }),
        frame_count: Field.integer({ default: 1, minimum: 1, maximum: 8, description: "atlas frames played" }),
        frame_rate: Field.number({ default: 0, minimum: 0, description: "frames per second; 0 plays the frames once over the life" }),
        blend: Field.enum(["additive", "alpha"] as const, { default: "additive", description: "additive, or alpha (order-independent transparency)" }),
        soft: Field.boolean({ default: true, description: "fade out in front of surfaces" }),
        softness: Field.number({ default: 0.5, minimum: 0, description: "fade distance of soft particles, world units" }),
        seed: Field.integer({ default: 1, minimum: 0, maximum: 0xffffffff, description: "the emitter's random stream" }),
    },
    check(value) {
        if (value.lifetime_max < value.lifetime_min) return { path: "lifetime_max", expected: `a number >= lifetime_min (${value.lifetime_min})` };
        if (value.speed_max < value.speed_min) return { path: "speed_max", expected: `a number >= speed_min (${value.speed_min})` };
        const d = value.direction;
        if (d[0] === 0 && d[1] === 0 && d[2] === 0) return { path: "direction", expected: "a non-zero vector" };
        for (let i = 0; i < 4; i++) {
            if (value.color_start[i] < 0) return { path: `color_start[${i}]`, expected: "a number >= 0" };
            if (value.color_end[i] < 0) return { path: `color_end[${i}]`, expected: "a number >= 0" };
        }
        if (value.frame_start + value.frame_count > 8) return { path: "frame_count", expected: `at most ${8 - value.frame_start} (the atlas has 8 frames)` };
        return null;
    },
});
