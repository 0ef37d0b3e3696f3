import { Transform } from "../../engine/components/Transform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import { ParticleBlend } from "./ParticleBlend.js";
import { ParticleEmitter } from "./ParticleEmitter.js";

/** An emitter's settings; every field is optional (see `ParticleEmitter` for meanings and the defaults below). */
export interface ParticleEmitterSpec {
    rate?: number;
    burst?: number;
    lifetime?: readonly [number, number];
    direction?: readonly [number, number, number];
    cone_angle?: number;
    speed?: readonly [number, number];
    gravity?: readonly [number, number, number];
    drag?: number;
    size?: readonly [number, number];
    color_start?: readonly [number, number, number, number];
    color_end?: readonly [number, number, number, number];
    frames?: readonly [number, number];
    frame_rate?: number;
    blend?: ParticleBlend;
    soft?: boolean;
    softness?: number;
    seed?: number;
}

function finite(name: string, value: number, min = -Infinity): number {
    if (!(typeof value === "number" && Number.isFinite(value) && value >= min)) {
        throw new RangeError(`add_particle_emitter: ParticleEmitter.${name} must be a finite number >= ${min}, got ${String(value)}`);
    }
    return value;
}

/**
 * Writes `spec` (defaults for what it leaves out) into `ParticleEmitter` for `eid` and adds the component.
 * Defaults: 10 per second, lifetime 1-1.5 s, up (+y) in a 0.3 rad cone at 1-2 units/s, no gravity or drag,
 * size 0.2 -> 0.1, white -> transparent white, atlas frame 0 (the soft disc), additive, soft over 0.5 units,
 * seed 1. Values are checked: a bad one throws naming the field, and nothing is added; so does an entity without
 * the `Transform` the emitter requires.
 */
export function add_particle_emitter(entityManager: EntityManager, eid: number, spec: ParticleEmitterSpec = {}): number {
    if (!entityManager.has_component(eid, Transform)) {
        throw new Error(`add_particle_emitter: entity ${eid} has no Transform; a ParticleEmitter needs one on the same entity (add Transform first)`);
    }
    const e = ParticleEmitter;
    const lifetime = spec.lifetime ?? [1, 1.5];
    const speed = spec.speed ?? [1, 2];
    const size = spec.size ?? [0.2, 0.1];
    const frames = spec.frames ?? [0, 1];
    const direction = spec.direction ?? [0, 1, 0];
    const gravity = spec.gravity ?? [0, 0, 0];
    const color_start = spec.color_start ?? [1, 1, 1, 1];
    const color_end = spec.color_end ?? [1, 1, 1, 0];
    const blend = spec.blend ?? ParticleBlend.Additive;
    if (blend !== ParticleBlend.Additive && blend !== ParticleBlend.Alpha) {
        throw new RangeError(`add_particle_emitter: ParticleEmitter.blend must be ParticleBlend.Additive (0) or .Alpha (1), got ${String(blend)}`);
    }
    finite("lifetime[0]", lifetime[0], 0);
    if (finite("lifetime[1]", lifetime[1], 0) < lifetime[0]) throw new RangeError(`add_particle_emitter: ParticleEmitter.lifetime [min, max] has max < min`);
    if (Math.hypot(direction[0], direction[1], direction[2]) === 0) throw new RangeError(`add_particle_emitter: ParticleEmitter.direction must not be zero`);
    const burst = finite("burst", spec.burst ?? 0, 0);
    if ((burst | 0) !== burst) throw new RangeError(`add_particle_emitter: ParticleEmitter.burst must be a whole number, got ${burst}`);

    // written as the component is added (after its reset to the defaults, before the on_add observers), or in
    // place when the entity already has one
    const write = (): void => {
        e.rate[eid] = finite("rate", spec.rate ?? 10, 0);
        e.burst[eid] = burst;
        e.lifetime_min[eid] = lifetime[0];
        e.lifetime_max[eid] = lifetime[1];
        for (let i = 0; i < 3; i++) e.direction[eid * 3 + i] = finite(`direction[${i}]`, direction[i]);
        e.cone_angle[eid] = finite("cone_angle", spec.cone_angle ?? 0.3, 0);
        e.speed_min[eid] = finite("speed[0]", speed[0]);
        e.speed_max[eid] = finite("speed[1]", speed[1]);
        for (let i = 0; i < 3; i++) e.gravity[eid * 3 + i] = finite(`gravity[${i}]`, gravity[i]);
        e.drag[eid] = finite("drag", spec.drag ?? 0, 0);
        e.size_start[eid] = finite("size[0]", size[0], 0);
        e.size_end[eid] = finite("size[1]", size[1], 0);
        for (let i = 0; i < 4; i++) e.color_start[eid * 4 + i] = finite(`color_start[${i}]`, color_start[i], 0);
        for (let i = 0; i < 4; i++) e.color_end[eid * 4 + i] = finite(`color_end[${i}]`, color_end[i], 0);
        e.frame_start[eid] = finite("frames[0]", frames[0], 0);
        e.frame_count[eid] = Math.max(1, finite("frames[1]", frames[1], 1));
        e.frame_rate[eid] = finite("frame_rate", spec.frame_rate ?? 0, 0);
        e.blend[eid] = blend;
        e.soft[eid] = (spec.soft ?? true) ? 1 : 0;
        e.softness[eid] = finite("softness", spec.softness ?? 0.5, 0);
        e.seed[eid] = finite("seed", spec.seed ?? 1, 0) >>> 0;
    };
    if (entityManager.has_component(eid, ParticleEmitter)) write();
    else entityManager.add_component(eid, ParticleEmitter, write);
    return eid;
}
