import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { DirectionalLight } from "./DirectionalLight.js";

/** `DirectionalLight` in level files: `{ "DirectionalLight": { "direction": [-0.4, -1, -0.3], "color": [1, 0.95, 0.9], "intensity": 3 } }`. */
export const DirectionalLightDescriptor = define_component({
    name: "DirectionalLight",
    component: DirectionalLight,
    requires: [TransformDescriptor],
    description: "The sun: light along direction (local to the entity, turned by its rotation)",
    fields: {
        direction: Field.vec3({ default: [0, 0, -1], description: "where the light travels, in the entity's local space; not zero" }),
        color: Field.vec3({ default: [1, 1, 1], description: "linear RGB" }),
        intensity: Field.number({ default: 3, minimum: 0 }),
    },
    check(value) {
        const d = value.direction;
        if (!(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > 1e-12)) return { path: "direction", expected: "a direction that is not zero" };
        for (let i = 0; i < 3; i++) if (!(value.color[i] >= 0)) return { path: `color[${i}]`, expected: "a number >= 0" };
        return null;
    },
});
