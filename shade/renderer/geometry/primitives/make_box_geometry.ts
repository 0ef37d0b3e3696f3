import { Geometry } from "../Geometry.js";

// For each face: outward normal axis and sign, and the two in-plane axes (u, v) with u x v = normal, so the
// corners (-u,-v) (+u,-v) (+u,+v) (-u,+v) run counter-clockwise seen from outside.
const FACES: readonly (readonly [number, number, number, number, number, number])[] = [
    // normal axis, sign, u axis, u sign, v axis, v sign
    [0, 1, 2, -1, 1, 1], // +x: u = -z, v = +y
    [0, -1, 2, 1, 1, 1], // -x: u = +z, v = +y
    [1, 1, 0, 1, 2, -1], // +y: u = +x, v = -z
    [1, -1, 0, 1, 2, 1], // -y: u = +x, v = +z
    [2, 1, 0, 1, 1, 1], // +z: u = +x, v = +y
    [2, -1, 0, -1, 1, 1], // -z: u = -x, v = +y
];

/**
 * An axis-aligned box centred at the origin: 24 vertices (4 per face, so faces can be coloured apart),
 * 36 indices, triangles counter-clockwise seen from outside (front faces under the default `ccw`). Normals
 * point out of each face; uv (0, 0) is a face's top-left corner seen from outside.
 */
export function make_box_geometry(width = 1, height = 1, depth = 1): Geometry {
    const half = [width / 2, height / 2, depth / 2];
    const position = new Float32Array(24 * 3);
    const normal = new Float32Array(24 * 3);
    const uv = new Float32Array(24 * 2);
    const index = new Uint16Array(36);
    const corner = [-1, -1, 1, -1, 1, 1, -1, 1];
    for (let f = 0; f < 6; f++) {
        const [n, n_sign, u, u_sign, v, v_sign] = FACES[f];
        for (let c = 0; c < 4; c++) {
            const o = (f * 4 + c) * 3;
            position[o + n] = n_sign * half[n];
            position[o + u] = corner[c * 2] * u_sign * half[u];
            position[o + v] = corner[c * 2 + 1] * v_sign * half[v];
            normal[o + n] = n_sign;
            uv[(f * 4 + c) * 2] = (corner[c * 2] + 1) / 2;
            uv[(f * 4 + c) * 2 + 1] = (1 - corner[c * 2 + 1]) / 2;
        }
        const base = f * 4;
        index.set([base, base + 1, base + 2, base, base + 2, base + 3], f * 6);
    }
    return new Geometry({ position, normal, uv, index });
}
