export { Terrain, TERRAIN_DEFAULTS, TERRAIN_MAX_RESOLUTION, type TerrainSpec } from "./Terrain.js";
export { TerrainDescriptor } from "./TerrainDescriptor.js";
export { TerrainExtension, type TerrainSource } from "./TerrainExtension.js";
export { TerrainGrid } from "./TerrainGrid.js";
export { TerrainSystem, type TerrainSystemOptions } from "./TerrainSystem.js";
export { generate_heightmap, gradient_noise } from "./generate_heightmap.js";
