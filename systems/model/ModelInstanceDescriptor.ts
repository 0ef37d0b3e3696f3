import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { ModelInstance } from "./ModelInstance.js";

/** `ModelInstance` in level files: `{ "Model": { "src": "assets/fox/Fox.glb" } }`; `"joints": false` for crowds. */
export const ModelInstanceDescriptor = define_component({
    name: "Model",
    component: ModelInstance,
    requires: [TransformDescriptor],
    description: "A glTF model instantiated under the entity (one child entity per node), by ModelSystem",
    fields: {
        src: Field.string({ max_length: 2048, description: "the .glb or .gltf file, relative to the ModelSystem's base URL" }),
        joints: Field.boolean({ default: true, description: "make the skins' joints entities (false: an Animator plays baked clips straight into the skins; for crowds)" }),
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
