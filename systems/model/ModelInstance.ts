import { PerEntity } from "../../engine/PerEntity.js";

/**
 * A glTF model instantiated under the entity by `ModelSystem`: `src` is the model's URL (side data). The model's
 * nodes become child entities once it has loaded; removing the entity (or the component) removes them and
 * releases the model. `joints` 0 leaves the skins' joints out (read when the model is instantiated): no entity
 * per bone to animate, compose and skin from, for crowds; an `Animator` then plays clips baked at load straight
 * into the skins, and nothing can hang from a joint.
 */
export const ModelInstance = PerEntity.define({
    src: PerEntity.value<string>(""),
    joints: PerEntity.u8(1, 1),
});
