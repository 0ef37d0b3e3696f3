import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { MeshRenderer } from "./MeshRenderer.js";

/**
 * `MeshRenderer` in level files: `{ "MeshRenderer": { "geometry": "box", "material": "default", "color": [1, 1, 1, 1] } }`.
 * A geometry or material name the `SceneSystem` does not know is refused at load, naming the known ones.
 */
export const MeshRendererDescriptor = define_component({
    name: "MeshRenderer",
    component: MeshRenderer,
    requires: [TransformDescriptor],
    description: "A mesh at the entity's world transform: geometry and material by name (SceneSystem's assets), drawn by SceneSystem",
    fields: {
        geometry: Field.string({ default: "box", max_length: 256, description: "a geometry registered with SceneSystem: built in box, sphere, plane" }),
        material: Field.string({ default: "default", max_length: 256, description: "a material registered with SceneSystem: built in default" }),
        color: Field.colour({ default: [1, 1, 1, 1], description: "RGBA multiplied with the material's base colour" }),
        visible: Field.boolean({ default: true }),
        cast_shadows: Field.boolean({ default: true, description: "drawn into the sun's shadow map" }),
        receive_decals: Field.boolean({ default: false, description: "decals project onto it (the ground, walls)" }),
    },
    write(eid, value) {
        MeshRenderer.geometry[eid] = value.geometry;
        MeshRenderer.material[eid] = value.material;
    },
    read(eid) {
        return { geometry: MeshRenderer.geometry[eid], material: MeshRenderer.material[eid] };
    },
    reset(eid) {
        MeshRenderer.geometry[eid] = "box";
        MeshRenderer.material[eid] = "default";
    },
});
