import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { Trail3D, TRAIL3D_DEFAULTS } from "./Trail3D.js";

const rgba = (c: readonly number[]): [number, number, number, number] => [c[0], c[1], c[2], c[3]];

/** `Trail3D` in level files: `{ "Trail3D": { "max_age": 2, "width": 0.2, "color": [1, 0.5, 0, 1] } }`. */
export const Trail3DDescriptor = define_component({
    name: "Trail3D",
    component: Trail3D,
    requires: [TransformDescriptor],
    description: "A camera-facing ribbon behind the moving entity (needs Transform), drawn by Trail3DSystem",
    fields: {
        max_age: Field.number({ default: TRAIL3D_DEFAULTS.max_age, exclusive_minimum: 0, description: "seconds a point of the trail lives" }),
        width: Field.number({ default: TRAIL3D_DEFAULTS.width, minimum: 0, description: "world units across the ribbon" }),
        color: Field.colour({ default: rgba(TRAIL3D_DEFAULTS.color), description: "RGBA of the ribbon (straight alpha)" }),
        head: Field.colour({ default: rgba(TRAIL3D_DEFAULTS.head), description: "RGBA multiplier at the head" }),
        tail: Field.colour({ default: rgba(TRAIL3D_DEFAULTS.tail), description: "RGBA multiplier at the tail" }),
        spawning: Field.boolean({ default: TRAIL3D_DEFAULTS.spawning, description: "whether the trail grows behind the entity" }),
    },
});
