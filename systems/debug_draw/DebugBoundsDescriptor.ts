import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { DebugBounds } from "./DebugBounds.js";

/** `DebugBounds` in level files: `{ "DebugBounds": { "half_extents": [1, 0.5, 1], "color": [0, 1, 0, 1] } }`. */
export const DebugBoundsDescriptor = define_component({
    name: "DebugBounds",
    component: DebugBounds,
    requires: [TransformDescriptor],
    description: "A wire box drawn around the entity (needs Transform) by DebugDrawSystem",
    fields: {
        half_extents: Field.vec3({ default: [0.5, 0.5, 0.5], description: "half the box's size along local x, y, z" }),
        color: Field.colour({ default: [0, 1, 0, 1], description: "RGBA of the box's lines" }),
    },
});
