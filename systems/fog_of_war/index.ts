export { FogOfWarSystem, type FogOfWarSystemOptions } from "./FogOfWarSystem.js";
export { FogOfWarExtension } from "./FogOfWarExtension.js";
export { FogOfWarGridExtension } from "./FogOfWarGridExtension.js";
export { FogRevealer } from "./FogRevealer.js";
export { FogRevealerDescriptor } from "./FogRevealerDescriptor.js";
export { FogCellState } from "./FogCellState.js";
export { FogGrid } from "./FogGrid.js";
export { VisibilityGrid } from "./VisibilityGrid.js";
