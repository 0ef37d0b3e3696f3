import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { Decal, DECAL_DEFAULTS } from "./Decal.js";

const vec3 = (c: readonly number[]): [number, number, number] => [c[0], c[1], c[2]];
const rgba = (c: readonly number[]): [number, number, number, number] => [c[0], c[1], c[2], c[3]];

/** `Decal` in level files: `{ "Transform": {...}, "Decal": { "size": [3, 2, 3], "frame": 0, "color": [1, 1, 1, 0.9] } }`. */
export const DecalDescriptor = define_component({
    name: "Decal",
    component: Decal,
    requires: [TransformDescriptor],
    description: "A box-projected decal at the entity's Transform (projects down its local -y), drawn by DecalSystem",
    fields: {
        size: Field.vec3({ default: vec3(DECAL_DEFAULTS.size), description: "box extents in world units (x, z across; y the projection depth)" }),
        frame: Field.integer({ default: DECAL_DEFAULTS.frame, minimum: 0, description: "atlas frame, counted row by row" }),
        color: Field.colour({ default: rgba(DECAL_DEFAULTS.color), description: "RGBA multiplied with the atlas texel; alpha is the opacity" }),
        rotation: Field.number({ default: DECAL_DEFAULTS.rotation, description: "radians about the projection axis" }),
    },
    check(value) {
        for (let i = 0; i < 3; i++) if (!(value.size[i] > 0)) return { path: `size[${i}]`, expected: "a number > 0" };
        return null;
    },
});
