// The jitter sequence, and the camera convention the resolve relies on to take the jitter back out.
import { mat4, vec4 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { Camera } from "../../../../shade/renderer/scene/Camera.js";
import { TemporalJitter } from "../../../../shade/renderer/steps/TemporalJitter.js";
import { UpscaleStep } from "../../../../shade/renderer/steps/UpscaleStep.js";

describe("TemporalJitter", () => {
    it("is Halton(2, 3) centred on the pixel: offsets in [-0.5, 0.5), all distinct, mean near zero", () => {
        const jitter = new TemporalJitter(16);
        const o = jitter.offsets;
        // Halton(2) = 1/2, 1/4, 3/4, 1/8 ...; Halton(3) = 1/3, 2/3, 1/9 ...
        expect(Array.from(o.slice(0, 8))).toEqual([0, 1 / 3 - 0.5, -0.25, 2 / 3 - 0.5, 0.25, 1 / 9 - 0.5, -0.375, 4 / 9 - 0.5].map(Math.fround));
        const seen = new Set<string>();
        let mx = 0;
        let my = 0;
        for (let i = 0; i < 16; i++) {
            for (const v of [o[i * 2], o[i * 2 + 1]]) {
                expect(v).toBeGreaterThanOrEqual(-0.5);
                expect(v).toBeLessThan(0.5);
            }
            seen.add(`${o[i * 2]},${o[i * 2 + 1]}`);
            mx += o[i * 2] / 16;
            my += o[i * 2 + 1] / 16;
        }
        expect(seen.size).toBe(16);
        expect(Math.abs(mx)).toBeLessThan(0.05);
        expect(Math.abs(my)).toBeLessThan(0.05);
    });

    it("writes clip-space offsets (2 x pixels / size), cycling with the frame number", () => {
        const jitter = new TemporalJitter(8);
        const out = new Float32Array(2);
        expect(jitter.write_clip(1, 32, 16, out)).toBe(out);
        expect(out[0]).toBeCloseTo((2 * jitter.offsets[2]) / 32, 7);
        expect(out[1]).toBeCloseTo((2 * jitter.offsets[3]) / 16, 7);
        const again = new Float32Array(2);
        jitter.write_clip(9, 32, 16, again);
        expect(Array.from(again)).toEqual(Array.from(out));
    });

    it("UpscaleStep.next_jitter fills and returns its own `jitter` (no allocation)", () => {
        const step = new UpscaleStep();
        const j = step.next_jitter(3, 48, 48);
        expect(j).toBe(step.jitter);
        expect(j[0]).toBeCloseTo((2 * step.sequence.offsets[6]) / 48, 7);
        expect(j[1]).toBeCloseTo((2 * step.sequence.offsets[7]) / 48, 7);
    });

    it("UpscaleStep.jitter_camera updates the camera with next_jitter's offsets for that frame", () => {
        const step = new UpscaleStep();
        const camera = new Camera();
        for (const [frame_number, w, h] of [
            [0, 48, 48],
            [5, 48, 48],
            [21, 32, 24],
        ]) {
            step.jitter_camera(camera, frame_number, w, h);
            const expected = new UpscaleStep().next_jitter(frame_number, w, h);
            expect(Array.from(step.jitter)).toEqual(Array.from(expected));
            expect(camera.data[88]).toBe(expected[0]);
            expect(camera.data[89]).toBe(expected[1]);
            expect(camera.data[84]).toBe(w);
            expect(camera.data[85]).toBe(h);
        }
    });

    it("Camera.update(w, h, jx, jy) moves the image by -jitter in NDC (the resolve takes exactly that back out)", () => {
        const plain = new Camera();
        const jittered = new Camera();
        plain.update(64, 64);
        jittered.update(64, 64, 0.1, -0.05);
        for (const p of [
            [0.3, 0.2, -1],
            [-2, 1, -20],
        ]) {
            const a = vec4.transformMat4(vec4.create(), [p[0], p[1], p[2], 1], plain.view_projection);
            const b = vec4.transformMat4(vec4.create(), [p[0], p[1], p[2], 1], jittered.view_projection);
            expect(b[0] / b[3] - a[0] / a[3]).toBeCloseTo(-0.1, 5);
            expect(b[1] / b[3] - a[1] / a[3]).toBeCloseTo(0.05, 5);
        }
        // and the uniform block carries the jitter where the step reads it
        expect(jittered.data[88]).toBeCloseTo(0.1, 6);
        expect(jittered.data[89]).toBeCloseTo(-0.05, 6);
        expect(Array.from(jittered.data.slice(0, 16))).toEqual(Array.from(mat4.clone(jittered.view_projection)));
    });
});
