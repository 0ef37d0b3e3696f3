import { Geometry } from "../Geometry.js";

/**
 * A UV sphere centred at the origin: `width_segments` around, `height_segments` pole to pole. Normals point
 * outward; triangles are counter-clockwise seen from outside.
 */
export function make_sphere_geometry(radius = 0.5, width_segments = 32, height_segments = 16): Geometry {
    const w = Math.max(3, width_segments | 0);
    const h = Math.max(2, height_segments | 0);
    const vertices = (w + 1) * (h + 1);
    const position = new Float32Array(vertices * 3);
    const normal = new Float32Array(vertices * 3);
    const uv = new Float32Array(vertices * 2);
    for (let y = 0; y <= h; y++) {
        const v = y / h;
        const theta = v * Math.PI;
        for (let x = 0; x <= w; x++) {
            const u = x / w;
            const phi = u * Math.PI * 2;
            const i = y * (w + 1) + x;
            const nx = -Math.cos(phi) * Math.sin(theta);
            const ny = Math.cos(theta);
            const nz = Math.sin(phi) * Math.sin(theta);
            normal[i * 3] = nx;
            normal[i * 3 + 1] = ny;
            normal[i * 3 + 2] = nz;
            position[i * 3] = nx * radius;
            position[i * 3 + 1] = ny * radius;
            position[i * 3 + 2] = nz * radius;
            uv[i * 2] = u;
            uv[i * 2 + 1] = v;
        }
    }
    const indices: number[] = [];
    for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
            const a = y * (w + 1) + x;
            const b = a + 1;
            const c = a + w + 1;
            const d = c + 1;
            if (y !== 0) indices.push(a, c, b);
            if (y !== h - 1) indices.push(b, c, d);
        }
    }
    const index = vertices > 65535 ? new Uint32Array(indices) : new Uint16Array(indices);
    return new Geometry({ position, normal, uv, index });
}
