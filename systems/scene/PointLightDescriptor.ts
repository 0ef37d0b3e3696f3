import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { PointLight } from "./PointLight.js";

/** `PointLight` in level files: `{ "PointLight": { "color": [1, 0.8, 0.5], "intensity": 20, "range": 8 } }`. */
export const PointLightDescriptor = define_component({
    name: "PointLight",
    component: PointLight,
    requires: [TransformDescriptor],
    description: "A point light at the entity's world position, windowed to range",
    fields: {
        color: Field.vec3({ default: [1, 1, 1], description: "linear RGB" }),
        intensity: Field.number({ default: 10, minimum: 0 }),
        range: Field.number({ default: 10, exclusive_minimum: 0, description: "beyond this distance the light adds nothing" }),
    },
    check(value) {
        for (let i = 0; i < 3; i++) if (!(value.color[i] >= 0)) return { path: `color[${i}]`, expected: "a number >= 0" };
        return null;
    },
});
