import type { ModelPrimitive } from "./ModelPrimitive.js";

/** A glTF mesh: its primitives and its default morph target weights (empty without targets). */
export interface ModelMesh {
    readonly name: string;
    readonly primitives: readonly ModelPrimitive[];
    readonly weights: Float32Array;
}
