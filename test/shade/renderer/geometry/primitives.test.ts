// Primitive geometries: counts, unit normals, and counter-clockwise winding seen from outside (device-independent).
import { describe, expect, it } from "vitest";
import type { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_cylinder_geometry } from "../../../../shade/renderer/geometry/primitives/make_cylinder_geometry.js";
import { make_plane_geometry } from "../../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";

// every triangle's face normal (from its winding) agrees with its vertices' normals
function check_winding(geometry: Geometry): void {
    const p = geometry.attributes.position.array;
    const n = geometry.attributes.normal!.array;
    const index = geometry.index;
    for (let t = 0; t < index.length; t += 3) {
        const [a, b, c] = [index[t], index[t + 1], index[t + 2]];
        const e1 = [0, 1, 2].map((k) => p[b * 3 + k] - p[a * 3 + k]);
        const e2 = [0, 1, 2].map((k) => p[c * 3 + k] - p[a * 3 + k]);
        const face = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        for (const v of [a, b, c]) {
            const dot = face[0] * n[v * 3] + face[1] * n[v * 3 + 1] + face[2] * n[v * 3 + 2];
            if (!(dot > 0)) throw new Error(`triangle ${t / 3} (${a}, ${b}, ${c}) winds against vertex ${v}'s normal`);
        }
    }
    for (let v = 0; v < n.length; v += 3) {
        expect(Math.hypot(n[v], n[v + 1], n[v + 2])).toBeCloseTo(1, 5);
    }
}

describe("primitive geometries", () => {
    it("box: 24 vertices, 36 indices, outward normals, ccw", () => {
        const g = make_box_geometry(1, 2, 3);
        expect(g.vertex_count).toBe(24);
        expect(g.index.length).toBe(36);
        check_winding(g);
    });
    it("plane: faces +Y, ccw from above", () => {
        const g = make_plane_geometry(2, 2, 4);
        expect(g.vertex_count).toBe(25);
        expect(g.index.length).toBe(96);
        check_winding(g);
    });
    it("sphere: outward normals, ccw from outside, radius respected", () => {
        const g = make_sphere_geometry(2, 16, 8);
        check_winding(g);
        const p = g.attributes.position.array;
        for (let v = 0; v < p.length; v += 3) expect(Math.hypot(p[v], p[v + 1], p[v + 2])).toBeCloseTo(2, 5);
    });
    it("cylinder: side and caps wind ccw from outside", () => {
        const g = make_cylinder_geometry(0.5, 2, 12);
        check_winding(g);
    });
});
