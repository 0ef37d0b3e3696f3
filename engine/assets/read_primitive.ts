import type { Primitive } from "@gltf-transform/core";
import { Geometry, type GeometrySpec } from "../../shade/renderer/geometry/Geometry.js";
import { AssetError } from "./AssetError.js";
import { read_accessor } from "./read_accessor.js";

// glTF semantics and the Geometry attribute each becomes, with the floats per vertex Geometry keeps
const SEMANTICS: readonly (readonly [string, keyof Omit<GeometrySpec, "index" | "position">, number])[] = [
    ["NORMAL", "normal", 3],
    ["TEXCOORD_0", "uv", 2],
    ["TEXCOORD_1", "uv1", 2],
    ["TANGENT", "tangent", 4],
    ["COLOR_0", "color", 4],
    ["JOINTS_0", "joints", 4],
    ["WEIGHTS_0", "weights", 4],
];

const TRIANGLES = 4;
const TRIANGLE_STRIP = 5;
const TRIANGLE_FAN = 6;

/**
 * @internal
 * A primitive's triangles as a `Geometry`: indices checked against the vertex count (an index past it is an
 * AssetError at `<path>.indices`), strips and fans turned into lists, a missing index made sequential, RGB colours
 * given alpha 1, missing normals computed. Returns null for points and lines, which the renderer does not draw.
 */
export function read_primitive(file: string, path: string, primitive: Primitive): Geometry | null {
    const mode = primitive.getMode();
    if (mode !== TRIANGLES && mode !== TRIANGLE_STRIP && mode !== TRIANGLE_FAN) return null;
    const position_accessor = primitive.getAttribute("POSITION");
    if (position_accessor === null) throw new AssetError(file, `${path}.attributes`, "has no POSITION");
    const position = read_accessor(position_accessor);
    const vertices = position_accessor.getCount();
    if (position_accessor.getElementSize() !== 3) throw new AssetError(file, `${path}.attributes.POSITION`, "must be VEC3");
    const spec: { -readonly [K in keyof GeometrySpec]: GeometrySpec[K] } = { position, index: new Uint16Array(0) };
    for (const [semantic, name, size] of SEMANTICS) {
        const accessor = primitive.getAttribute(semantic);
        if (accessor === null) continue;
        const at = `${path}.attributes.${semantic}`;
        if (accessor.getCount() !== vertices) throw new AssetError(file, at, `has ${accessor.getCount()} elements; POSITION has ${vertices}`);
        let values = read_accessor(accessor);
        const element = accessor.getElementSize();
        if (semantic === "COLOR_0" && element === 3) values = rgb_to_rgba(values);
        else if (element !== size) throw new AssetError(file, at, `must have ${size} components per vertex, has ${element}`);
        spec[name] = values;
    }
    if ((spec.joints === undefined) !== (spec.weights === undefined)) {
        throw new AssetError(file, `${path}.attributes`, `has ${spec.joints === undefined ? "WEIGHTS_0 without JOINTS_0" : "JOINTS_0 without WEIGHTS_0"}`);
    }
    const index_accessor = primitive.getIndices();
    let list: Uint32Array;
    if (index_accessor === null) {
        list = new Uint32Array(vertices);
        for (let i = 0; i < vertices; i++) list[i] = i;
    } else {
        const raw = index_accessor.getArray();
        list = raw === null ? new Uint32Array(0) : Uint32Array.from(raw);
        for (let i = 0; i < list.length; i++) {
            if (list[i] >= vertices) throw new AssetError(file, `${path}.indices`, `index ${list[i]} at position ${i} is beyond the ${vertices} vertices`);
        }
    }
    if (mode === TRIANGLE_STRIP) list = strip_to_list(list);
    else if (mode === TRIANGLE_FAN) list = fan_to_list(list);
    else if (list.length % 3 !== 0) throw new AssetError(file, index_accessor === null ? `${path}.attributes.POSITION` : `${path}.indices`, `has ${list.length} indices, not a whole number of triangles`);
    // glTF: without normals a client computes flat ones. Unindexed triangles own their vertices, so that is exact;
    // indexed ones share them, and get area-weighted smooth normals instead of having every vertex split
    if (spec.normal === undefined) spec.normal = computed_normals(position, list);
    spec.index = vertices <= 65536 ? Uint16Array.from(list) : list;
    try {
        return new Geometry(spec);
    } catch (error) {
        throw new AssetError(file, path, (error as Error).message, { cause: error });
    }
}

function computed_normals(position: Float32Array, index: Uint32Array): Float32Array {
    const normal = new Float32Array(position.length);
    for (let t = 0; t + 2 < index.length; t += 3) {
        const a = index[t] * 3, b = index[t + 1] * 3, c = index[t + 2] * 3;
        const ux = position[b] - position[a], uy = position[b + 1] - position[a + 1], uz = position[b + 2] - position[a + 2];
        const vx = position[c] - position[a], vy = position[c + 1] - position[a + 1], vz = position[c + 2] - position[a + 2];
        // the cross product's length is twice the area: summing it unnormalised weights each face by its area
        const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        for (const v of [a, b, c]) {
            normal[v] += nx;
            normal[v + 1] += ny;
            normal[v + 2] += nz;
        }
    }
    for (let v = 0; v < normal.length; v += 3) {
        const length = Math.hypot(normal[v], normal[v + 1], normal[v + 2]);
        if (length > 0) {
            normal[v] /= length;
            normal[v + 1] /= length;
            normal[v + 2] /= length;
        } else normal[v + 1] = 1;
    }
    return normal;
}

function rgb_to_rgba(rgb: Float32Array): Float32Array {
    const n = rgb.length / 3;
    const out = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
        out[i * 4] = rgb[i * 3];
        out[i * 4 + 1] = rgb[i * 3 + 1];
        out[i * 4 + 2] = rgb[i * 3 + 2];
        out[i * 4 + 3] = 1;
    }
    return out;
}

function strip_to_list(strip: Uint32Array): Uint32Array {
    const triangles = Math.max(0, strip.length - 2);
    const out = new Uint32Array(triangles * 3);
    for (let i = 0; i < triangles; i++) {
        // every other triangle of a strip is wound the other way; swapping two keeps them all counter-clockwise
        const even = (i & 1) === 0;
        out[i * 3] = strip[i];
        out[i * 3 + 1] = even ? strip[i + 1] : strip[i + 2];
        out[i * 3 + 2] = even ? strip[i + 2] : strip[i + 1];
    }
    return out;
}

function fan_to_list(fan: Uint32Array): Uint32Array {
    const triangles = Math.max(0, fan.length - 2);
    const out = new Uint32Array(triangles * 3);
    for (let i = 0; i < triangles; i++) {
        out[i * 3] = fan[0];
        out[i * 3 + 1] = fan[i + 1];
        out[i * 3 + 2] = fan[i + 2];
    }
    return out;
}
