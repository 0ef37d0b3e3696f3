// The systems built so far, one folder per feature: the ECS system, the extension it owns, its components.
export { Trail3D, TRAIL3D_DEFAULTS, type Trail3DSpec } from "./trails/Trail3D.js";
export { Trail3DDescriptor } from "./trails/Trail3DDescriptor.js";
export { Trail3DExtension } from "./trails/Trail3DExtension.js";
export { Trail3DSystem, type Trail3DSystemOptions } from "./trails/Trail3DSystem.js";
export { Path, PATH_DEFAULTS, type PathSpec } from "./path_display/Path.js";
export { PathDescriptor } from "./path_display/PathDescriptor.js";
export { PathDisplayExtension } from "./path_display/PathDisplayExtension.js";
export { PathDisplaySystem } from "./path_display/PathDisplaySystem.js";
export { DebugBounds } from "./debug_draw/DebugBounds.js";
export { DebugBoundsDescriptor } from "./debug_draw/DebugBoundsDescriptor.js";
export { DebugDrawExtension } from "./debug_draw/DebugDrawExtension.js";
export { DebugDrawSystem, type DebugDrawSystemOptions } from "./debug_draw/DebugDrawSystem.js";
