export { Animator } from "./Animator.js";
export { AnimatorDescriptor } from "./AnimatorDescriptor.js";
export { AnimatorSystem } from "./AnimatorSystem.js";
export { instantiate_model, model_geometry_name, model_material_name, unregister_model_assets, type ModelEntities, type ModelPrimitiveEntity } from "./instantiate_model.js";
export { load_level_with_models } from "./load_level_with_models.js";
export { ModelInstance } from "./ModelInstance.js";
export { ModelInstanceDescriptor } from "./ModelInstanceDescriptor.js";
export { ModelSystem, type InstantiatedModel, type ModelSystemOptions } from "./ModelSystem.js";
export { SkinBinding } from "./SkinBinding.js";
