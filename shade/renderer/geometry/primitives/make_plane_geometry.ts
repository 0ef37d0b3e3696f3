import { Geometry } from "../Geometry.js";

/**
 * A flat rectangle in the XZ plane facing +Y, centred at the origin, `segments` quads along each side.
 * Triangles are counter-clockwise seen from above.
 */
export function make_plane_geometry(width = 1, depth = 1, segments = 1): Geometry {
    const n = Math.max(1, segments | 0);
    const vertices = (n + 1) * (n + 1);
    const position = new Float32Array(vertices * 3);
    const normal = new Float32Array(vertices * 3);
    const uv = new Float32Array(vertices * 2);
    for (let z = 0; z <= n; z++) {
        for (let x = 0; x <= n; x++) {
            const i = z * (n + 1) + x;
            position[i * 3] = (x / n - 0.5) * width;
            position[i * 3 + 2] = (z / n - 0.5) * depth;
            normal[i * 3 + 1] = 1;
            uv[i * 2] = x / n;
            uv[i * 2 + 1] = z / n;
        }
    }
    const index = vertices > 65535 ? new Uint32Array(n * n * 6) : new Uint16Array(n * n * 6);
    let k = 0;
    for (let z = 0; z < n; z++) {
        for (let x = 0; x < n; x++) {
            const a = z * (n + 1) + x;
            const b = a + 1;
            const c = a + n + 1;
            const d = c + 1;
            // seen from +Y: a(-x,-z) c(-x,+z) d(+x,+z) is counter-clockwise
            index[k++] = a;
            index[k++] = c;
            index[k++] = d;
            index[k++] = a;
            index[k++] = d;
            index[k++] = b;
        }
    }
    return new Geometry({ position, normal, uv, index });
}
