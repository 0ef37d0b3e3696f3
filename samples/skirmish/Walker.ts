import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { PerEntity } from "../../engine/PerEntity.js";
import { define_component, shortest_float32 } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";

/**
 * A unit of the skirmish: walks a closed loop of waypoints at `speed`, starting `offset` (0..1) of the way
 * round, for `team` 0 or 1. The loop is side data (flat xz per waypoint); the walk is on the ground (y 0).
 */
export const Walker = PerEntity.define({
    speed: PerEntity.f32(),
    offset: PerEntity.f32(),
    team: PerEntity.u8(),
    /** Flat xz of the loop, and its cumulative lengths (first 0, last the loop's length). */
    loop: PerEntity.value<Float32Array | undefined>(undefined),
    lengths: PerEntity.value<Float32Array | undefined>(undefined),
});

/** `Walker` in level files: `{ "Walker": { "loop": [[x, z], ...], "speed": 1.5, "offset": 0.25, "team": 0 } }`. */
export const WalkerDescriptor = define_component({
    name: "Walker",
    component: Walker,
    requires: [TransformDescriptor],
    description: "A skirmish unit walking a closed loop of ground waypoints (needs Transform)",
    fields: {
        loop: Field.array(Field.vec2({ float32: true }), { min_items: 2, description: "ground waypoints [x, z] of the closed loop" }),
        speed: Field.number({ default: 1.5, exclusive_minimum: 0, description: "world units per second" }),
        offset: Field.number({ default: 0, minimum: 0, maximum: 1, description: "where on the loop it starts, 0..1" }),
        team: Field.integer({ default: 0, minimum: 0, maximum: 1, description: "0: the blue team (whose view is shown), 1: the red team" }),
    },
    write(eid, value) {
        const points = value.loop;
        const loop = new Float32Array(points.length * 2);
        const lengths = new Float32Array(points.length + 1);
        for (let i = 0; i < points.length; i++) {
            loop[i * 2] = points[i][0];
            loop[i * 2 + 1] = points[i][1];
        }
        for (let i = 0; i < points.length; i++) {
            const j = (i + 1) % points.length;
            lengths[i + 1] = lengths[i] + Math.hypot(loop[j * 2] - loop[i * 2], loop[j * 2 + 1] - loop[i * 2 + 1]);
        }
        Walker.loop[eid] = loop;
        Walker.lengths[eid] = lengths;
    },
    read(eid) {
        const loop = Walker.loop[eid]!;
        const points: [number, number][] = [];
        for (let i = 0; i < loop.length; i += 2) points.push([shortest_float32(loop[i]), shortest_float32(loop[i + 1])]);
        return { loop: points };
    },
    reset(eid) {
        Walker.loop[eid] = undefined;
        Walker.lengths[eid] = undefined;
    },
});
