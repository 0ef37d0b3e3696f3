import { Geometry } from "../Geometry.js";

/**
 * A capped cylinder along Y, centred at the origin. The side has smooth outward normals; each cap its own
 * flat normal. Triangles are counter-clockwise seen from outside.
 */
export function make_cylinder_geometry(radius = 0.5, height = 1, radial_segments = 32): Geometry {
    const n = Math.max(3, radial_segments | 0);
    const side = (n + 1) * 2;
    const cap = n + 2; // centre + rim (closed)
    const vertices = side + cap * 2;
    const position = new Float32Array(vertices * 3);
    const normal = new Float32Array(vertices * 3);
    const uv = new Float32Array(vertices * 2);
    const half = height / 2;
    const put = (i: number, p: number[], nn: number[], t: number[]) => {
        position.set(p, i * 3);
        normal.set(nn, i * 3);
        uv.set(t, i * 2);
    };
    for (let s = 0; s <= n; s++) {
        const a = (s / n) * Math.PI * 2;
        const x = Math.sin(a);
        const z = Math.cos(a);
        put(s * 2, [x * radius, half, z * radius], [x, 0, z], [s / n, 0]);
        put(s * 2 + 1, [x * radius, -half, z * radius], [x, 0, z], [s / n, 1]);
    }
    const indices: number[] = [];
    for (let s = 0; s < n; s++) {
        const top = s * 2;
        const bottom = top + 1;
        // angle grows from +z towards +x: seen from outside, (top, bottom, next bottom) runs counter-clockwise
        indices.push(top, bottom, bottom + 2, top, bottom + 2, top + 2);
    }
    for (const [base, y, ny] of [
        [side, half, 1],
        [side + cap, -half, -1],
    ] as const) {
        put(base, [0, y, 0], [0, ny, 0], [0.5, 0.5]);
        for (let s = 0; s <= n; s++) {
            const a = (s / n) * Math.PI * 2;
            const x = Math.sin(a);
            const z = Math.cos(a);
            put(base + 1 + s, [x * radius, y, z * radius], [0, ny, 0], [0.5 + x / 2, 0.5 + z / 2]);
        }
        for (let s = 0; s < n; s++) {
            if (ny > 0) indices.push(base, base + 1 + s, base + 2 + s);
            else indices.push(base, base + 2 + s, base + 1 + s);
        }
    }
    return new Geometry({ position, normal, uv, index: new Uint16Array(indices) });
}
