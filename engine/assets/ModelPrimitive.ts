import type { Geometry } from "../../shade/renderer/geometry/Geometry.js";
import type { ModelPrimitiveBuffers } from "./ModelPrimitiveBuffers.js";

/** One drawable part of a mesh: a triangle-list geometry, its material, and its copy on the GPU. */
export interface ModelPrimitive {
    readonly geometry: Geometry;
    /** Index into `Model.materials`; -1 for glTF's default material. */
    readonly material: number;
    readonly buffers: ModelPrimitiveBuffers;
    /** Morph targets the primitive has (their data is not read yet; animated weights are). */
    readonly morph_targets: number;
}
