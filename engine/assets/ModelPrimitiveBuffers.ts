import type { GeometryAttributes } from "../../shade/renderer/geometry/Geometry.js";

/**
 * A primitive's geometry on the GPU, owned by its model (freed with it): every attribute in one vertex buffer, each
 * at its byte offset (floats, `item_size` per vertex, packed), and the triangle-list index buffer.
 */
export interface ModelPrimitiveBuffers {
    readonly vertex: GPUBuffer;
    readonly offsets: Readonly<Partial<Record<keyof GeometryAttributes, number>>>;
    readonly index: GPUBuffer;
    readonly index_format: GPUIndexFormat;
    readonly index_count: number;
}
