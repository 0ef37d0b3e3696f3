// Geometry, GeometryAttribute and make_box_geometry (no GPU).
import { describe, expect, it } from "vitest";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";

describe("Geometry", () => {
    it("attributes is a plain object: its present attributes enumerate, as three.js's do", () => {
        const g = new Geometry({ position: new Float32Array(9), normal: new Float32Array(9), uv: new Float32Array(6), index: Uint16Array.of(0, 1, 2) });
        expect(Object.keys(g.attributes)).toEqual(["position", "normal", "uv"]);
    });

    it("needsUpdate = true bumps version; a renderer clearing the flag does not", () => {
        const g = new Geometry({ position: new Float32Array(9), index: Uint16Array.of(0, 1, 2) });
        const v0 = g.version;
        expect([g.needsUpdate, g.vertex_count]).toEqual([false, 3]);
        g.needsUpdate = true;
        const v1 = g.version;
        g.needsUpdate = true;
        const v2 = g.version;
        expect(v1).toBeGreaterThan(v0);
        expect(v2).toBeGreaterThan(v1);
        expect(g.needsUpdate).toBe(true);
        g.needsUpdate = false;
        expect([g.needsUpdate, g.version]).toEqual([false, v2]);
    });

    it("an attribute's needsUpdate moves the geometry's version but not its whole_version; clearing the geometry clears it", () => {
        const g = new Geometry({ position: new Float32Array(9), color: new Float32Array(12), index: Uint16Array.of(0, 1, 2) });
        const [version, whole] = [g.version, g.whole_version];
        g.attributes.color!.needsUpdate = true;
        expect(g.needsUpdate).toBe(true);
        expect(g.version).toBeGreaterThan(version);
        expect(g.whole_version).toBe(whole);
        const after_color = g.version;
        g.attributes.position.needsUpdate = true;
        expect(g.version).toBeGreaterThan(after_color);
        g.needsUpdate = false;
        expect([g.needsUpdate, g.attributes.position.needsUpdate, g.attributes.color!.needsUpdate]).toEqual([false, false, false]);
    });

    it("never returns to an earlier version, even when an attribute is replaced by a new one", () => {
        const a = new Geometry({ position: new Float32Array(9), index: Uint16Array.of(0, 1, 2) });
        const seen = new Set([a.version]);
        for (let i = 0; i < 5; i++) {
            a.attributes.position = new (a.attributes.position.constructor as typeof import("../../../../shade/renderer/geometry/GeometryAttribute.js").GeometryAttribute)(new Float32Array(9), 3);
            expect(seen.has(a.version)).toBe(false);
            seen.add(a.version);
            a.needsUpdate = true;
            expect(seen.has(a.version)).toBe(false);
            seen.add(a.version);
        }
    });

    it("each geometry's version, read again and again, moves when one of its own attributes is flagged, not another geometry's", () => {
        const a = make_box_geometry(1, 1, 1);
        const b = make_box_geometry(1, 1, 1);
        const [va, vb] = [a.version, b.version];
        expect([a.version, b.version]).toEqual([va, vb]);
        b.attributes.normal!.needsUpdate = true;
        expect(a.version).toBe(va);
        const vb1 = b.version;
        expect(vb1).toBeGreaterThan(vb);
        a.attributes.uv!.needsUpdate = true;
        expect(b.version).toBe(vb1);
        expect(a.version).toBeGreaterThan(vb1);
        // a geometry made later (a new stamp) leaves both as they were
        const [va2, vb2] = [a.version, b.version];
        make_box_geometry(2, 2, 2);
        expect([a.version, b.version]).toEqual([va2, vb2]);
    });

    it("an attribute swapped for another geometry's older one moves the version (and the whole version) forward, with no stamp issued since", () => {
        const old = make_box_geometry(1, 1, 1);
        const g = make_box_geometry(2, 2, 2);
        const [v, whole] = [g.version, g.whole_version];
        expect(g.version).toBe(v);
        g.attributes.uv = old.attributes.uv;
        const v1 = g.version;
        expect(v1).toBeGreaterThan(v);
        expect(g.whole_version).toBeGreaterThan(whole);
        expect(g.version).toBe(v1);
        // swapped back: forward again, never an earlier value
        g.attributes.uv = make_box_geometry(2, 2, 2).attributes.uv;
        expect(g.version).toBeGreaterThan(v1);
    });

    it("names what is wrong with its arrays", () => {
        expect(() => new Geometry({ position: new Float32Array(8), index: Uint16Array.of(0, 1, 2) })).toThrow(/whole number of 3-float items/);
        expect(() => new Geometry({ position: new Float32Array(9), index: Uint16Array.of(0, 1) })).toThrow(/not a multiple of 3/);
        expect(() => new Geometry({ position: new Float32Array(9), color: new Float32Array(9), index: Uint16Array.of(0, 1, 2) })).toThrow(
            /3 positions but 2.25 color values; color is 4 floats per vertex/,
        );
    });
});

describe("Geometry: the glTF attributes (uv1, tangent, joints, weights)", () => {
    const spec = () => ({
        position: new Float32Array(9),
        uv1: new Float32Array(6),
        tangent: new Float32Array(12),
        joints: new Float32Array(12),
        weights: new Float32Array(12),
        index: Uint16Array.of(0, 1, 2),
    });

    it("keeps each with its item size; flagging any one moves the version and clearing the geometry clears it", () => {
        const g = new Geometry(spec());
        const a = g.attributes;
        expect([a.uv1!.item_size, a.tangent!.item_size, a.joints!.item_size, a.weights!.item_size]).toEqual([2, 4, 4, 4]);
        for (const name of ["uv1", "tangent", "joints", "weights"] as const) {
            const before = g.version;
            a[name]!.needsUpdate = true;
            expect(g.needsUpdate, name).toBe(true);
            expect(g.version, name).toBeGreaterThan(before);
            g.needsUpdate = false;
            expect(a[name]!.needsUpdate, name).toBe(false);
            expect(g.needsUpdate, name).toBe(false);
        }
    });

    it("refuses a wrong length by name, and joints without weights", () => {
        expect(() => new Geometry({ ...spec(), tangent: new Float32Array(9) })).toThrow(/3 positions but 2.25 tangent values; tangent is 4 floats per vertex/);
        expect(() => new Geometry({ ...spec(), weights: undefined })).toThrow(/joints and weights come together; got joints alone/);
    });
});

describe("make_box_geometry", () => {
    it("is 24 vertices and 36 indices, centred, sized, with every triangle facing out (counter-clockwise from outside)", () => {
        const g = make_box_geometry(2, 4, 6);
        const p = g.attributes.position.array;
        expect(g.vertex_count).toBe(24);
        expect(g.index.length).toBe(36);
        expect(g.index).toBeInstanceOf(Uint16Array);
        for (let axis = 0; axis < 3; axis++) {
            const values = Array.from({ length: 24 }, (_, v) => p[v * 3 + axis]);
            expect(Math.min(...values)).toBe(-[1, 2, 3][axis]);
            expect(Math.max(...values)).toBe([1, 2, 3][axis]);
        }
        const n = g.attributes.normal!.array;
        for (let t = 0; t < 12; t++) {
            const [a, b, c] = [g.index[t * 3], g.index[t * 3 + 1], g.index[t * 3 + 2]];
            const e1 = [0, 1, 2].map((k) => p[b * 3 + k] - p[a * 3 + k]);
            const e2 = [0, 1, 2].map((k) => p[c * 3 + k] - p[a * 3 + k]);
            const cross = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
            const centre = [0, 1, 2].map((k) => (p[a * 3 + k] + p[b * 3 + k] + p[c * 3 + k]) / 3);
            // the winding normal points away from the box's centre, and agrees with the stored normal
            expect(cross[0] * centre[0] + cross[1] * centre[1] + cross[2] * centre[2]).toBeGreaterThan(0);
            expect(cross[0] * n[a * 3] + cross[1] * n[a * 3 + 1] + cross[2] * n[a * 3 + 2]).toBeGreaterThan(0);
        }
        expect(g.attributes.uv!.count).toBe(24);
        expect(g.attributes.color).toBeUndefined();
    });
});
