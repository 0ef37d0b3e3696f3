import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { Camera } from "./Camera.js";

/** `Camera` in level files: `{ "Camera": { "fov": 60, "near": 0.1, "far": 200, "active": true } }`. */
export const CameraDescriptor = define_component({
    name: "Camera",
    component: Camera,
    requires: [TransformDescriptor],
    description: "A perspective camera looking down the entity's local -z; the active one drives the rendered view",
    fields: {
        fov: Field.number({ default: 60, exclusive_minimum: 0, maximum: 179, description: "vertical field of view, degrees" }),
        near: Field.number({ default: 0.1, exclusive_minimum: 0, description: "near plane distance" }),
        far: Field.number({ default: 200, exclusive_minimum: 0, description: "far plane distance (> near)" }),
        active: Field.boolean({ default: true, description: "may be the active camera (the last one activated is)" }),
    },
    check(value) {
        if (!(value.far > value.near)) return { path: "far", expected: `a distance > near (${value.near})` };
        return null;
    },
});
