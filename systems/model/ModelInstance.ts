import { PerEntity } from "../../engine/PerEntity.js";

/**
 * A glTF model instantiated under the entity by `ModelSystem`: `src` is the model's URL (side data). The model's
 * nodes become child entities once it has loaded; removing the entity (or the component) removes them and
 * releases the model.
 */
export const ModelInstance = PerEntity.define({
    src: PerEntity.value<string>(""),
});
