export { Decal, DECAL_DEFAULTS, type DecalSpec } from "./Decal.js";
export { DecalAtlas, DECAL_FRAMES } from "./DecalAtlas.js";
export { DecalDescriptor } from "./DecalDescriptor.js";
export { DecalExtension, type DecalFadeOptions, type DecalSource } from "./DecalExtension.js";
export { DecalInstances, DECAL_INSTANCE_BYTES, DECAL_INSTANCE_FLOATS } from "./DecalInstances.js";
export { DecalSystem, type DecalSystemOptions } from "./DecalSystem.js";
