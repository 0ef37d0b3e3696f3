import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { ModelInstance } from "./ModelInstance.js";

/** `ModelInstance` in level files: `{ "Model": { "src": "assets/fox/Fox.glb" } }`. */
export const ModelInstanceDescriptor = define_component({
    name: "Model",
    component: ModelInstance,
    requires: [TransformDescriptor],
    description: "A glTF model instantiated under the entity (one child entity per node), by ModelSystem",
    fields: {
        src: Field.string({ max_length: 2048, description: "the .glb or .gltf file, relative to the ModelSystem's base URL" }),
    },
    write(eid, value) {
        ModelInstance.src[eid] = value.src;
    },
    read(eid) {
        return { src: ModelInstance.src[eid] };
    },
    reset(eid) {
        ModelInstance.src[eid] = "";
    },
});
