import type { Accessor } from "@gltf-transform/core";

// glTF's normalised integers back to floats (spec 3.11: signed ones clamp at -1)
const NORMALISED: Readonly<Record<number, (v: number) => number>> = {
    5120: (v) => Math.max(v / 127, -1),
    5121: (v) => v / 255,
    5122: (v) => Math.max(v / 32767, -1),
    5123: (v) => v / 65535,
};

/**
 * @internal
 * An accessor's elements as floats, packed (a new array, never a view of the document's): normalised integers
 * decoded, other integers (KHR_mesh_quantization, joint indices) converted as they are.
 */
export function read_accessor(accessor: Accessor): Float32Array {
    const array = accessor.getArray();
    const out = new Float32Array(accessor.getCount() * accessor.getElementSize());
    if (array === null) return out;
    const decode = accessor.getNormalized() ? NORMALISED[accessor.getComponentType()] : undefined;
    const n = Math.min(out.length, array.length);
    if (decode === undefined) for (let i = 0; i < n; i++) out[i] = array[i];
    else for (let i = 0; i < n; i++) out[i] = decode(array[i]);
    return out;
}
