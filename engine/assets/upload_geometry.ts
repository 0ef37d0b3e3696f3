import type { Geometry, GeometryAttributes } from "../../shade/renderer/geometry/Geometry.js";
import type { ModelPrimitiveBuffers } from "./ModelPrimitiveBuffers.js";

const ORDER: readonly (keyof GeometryAttributes)[] = ["position", "normal", "uv", "uv1", "tangent", "color", "joints", "weights"];

/** @internal A geometry's attributes packed into one vertex buffer (each at a 4-byte aligned offset) and its index buffer. */
export function upload_geometry(device: GPUDevice, geometry: Geometry, label: string): ModelPrimitiveBuffers {
    const offsets: Partial<Record<keyof GeometryAttributes, number>> = {};
    let size = 0;
    for (const name of ORDER) {
        const attribute = geometry.attributes[name];
        if (attribute === undefined) continue;
        offsets[name] = size;
        size += attribute.array.byteLength;
    }
    const vertex = device.createBuffer({ label: `${label} vertices`, size: Math.max(16, size), usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
    const index_bytes = geometry.index.byteLength;
    let index: GPUBuffer;
    try {
        index = device.createBuffer({ label: `${label} indices`, size: Math.max(16, (index_bytes + 3) & ~3), usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
    } catch (error) {
        vertex.destroy();
        throw error;
    }
    for (const name of ORDER) {
        const attribute = geometry.attributes[name];
        if (attribute !== undefined) device.queue.writeBuffer(vertex, offsets[name]!, attribute.array as Float32Array<ArrayBuffer>);
    }
    const source = geometry.index;
    // writeBuffer takes whole 4-byte words: an odd count of 16-bit indices goes through a padded copy
    const words = index_bytes % 4 === 0 ? source : Uint16Array.from({ length: source.length + 1 }, (_, i) => (i < source.length ? source[i] : 0));
    if (words.byteLength > 0) device.queue.writeBuffer(index, 0, words as Uint16Array<ArrayBuffer>);
    return { vertex, offsets, index, index_format: source instanceof Uint16Array ? "uint16" : "uint32", index_count: source.length };
}
