import { define_component } from "../level/ComponentDescriptor.js";
import { Field } from "../level/Field.js";
import { Transform } from "./Transform.js";

/** `Transform` in level files: `{ "position"?: [x, y, z], "rotation"?: [x, y, z, w], "scale"?: [x, y, z] }`. */
export const TransformDescriptor = define_component({
    name: "Transform",
    component: Transform,
    description: "Where the entity is: position, rotation quaternion [x, y, z, w] and scale",
    fields: {
        position: Field.vec3({ default: [0, 0, 0] }),
        rotation: Field.quaternion({ default: [0, 0, 0, 1] }),
        scale: Field.vec3({ default: [1, 1, 1] }),
    },
});
