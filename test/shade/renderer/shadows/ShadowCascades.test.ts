// Device-independent: the cascade fitting math (no GPU).
import { mat4, vec3, vec4 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { Camera } from "../../../../shade/renderer/scene/Camera.js";
import { ShadowCascades } from "../../../../shade/renderer/shadows/ShadowCascades.js";

const SUN = [-0.4, -1, -0.3];
const RES = 512;

function camera_at(position: number[], target: number[]): Camera {
    const camera = new Camera();
    camera.position.set(position);
    camera.target.set(target);
    camera.near = 0.1;
    camera.far = 200;
    camera.update(16, 9);
    return camera;
}

function fit(camera: Camera, count = 3): ShadowCascades {
    const c = new ShadowCascades();
    c.fit(camera, 16 / 9, SUN, count, 60, 0.6, RES, 40);
    return c;
}

function cascade(c: ShadowCascades, i: number): mat4 {
    return mat4.clone(c.matrices.subarray(i * 16, i * 16 + 16) as unknown as mat4);
}

/** World-space corners of the camera frustum between view depths a and b. */
function slice_corners(camera: Camera, a: number, b: number): vec3[] {
    const forward = vec3.normalize(vec3.create(), vec3.subtract(vec3.create(), camera.target, camera.position));
    const right = vec3.normalize(vec3.create(), vec3.cross(vec3.create(), forward, camera.up));
    const up = vec3.cross(vec3.create(), right, forward);
    const tan = Math.tan(camera.fov_y / 2);
    const corners: vec3[] = [];
    for (const d of [a, b]) {
        for (const sx of [-1, 1]) {
            for (const sy of [-1, 1]) {
                const p = vec3.scaleAndAdd(vec3.create(), camera.position, forward, d);
                vec3.scaleAndAdd(p, p, right, sx * tan * d * (16 / 9));
                vec3.scaleAndAdd(p, p, up, sy * tan * d);
                corners.push(p);
            }
        }
    }
    return corners;
}

describe("ShadowCascades (device-independent)", () => {
    it("splits the view up to the shadow distance and covers each slice's frustum corners with its cascade", () => {
        const camera = camera_at([3, 8, 12], [0, 0, 0]);
        const c = fit(camera);
        expect(c.count).toBe(3);
        expect(c.splits[2]).toBeCloseTo(60, 5);
        expect(c.splits[0]).toBeLessThan(c.splits[1]);
        expect(c.splits[1]).toBeLessThan(c.splits[2]);
        let a = camera.near;
        for (let i = 0; i < 3; i++) {
            const m = cascade(c, i);
            for (const corner of slice_corners(camera, a, c.splits[i])) {
                const clip = vec4.transformMat4(vec4.create(), [corner[0], corner[1], corner[2], 1], m);
                expect(Math.abs(clip[0]), `cascade ${i} x`).toBeLessThanOrEqual(1);
                expect(Math.abs(clip[1]), `cascade ${i} y`).toBeLessThanOrEqual(1);
                expect(clip[2], `cascade ${i} depth`).toBeGreaterThanOrEqual(0);
                expect(clip[2], `cascade ${i} depth`).toBeLessThanOrEqual(1);
            }
            a = c.splits[i];
        }
        // near cascades are finer
        expect(c.texel_world[0]).toBeLessThan(c.texel_world[1]);
    });

    it("is stable: turning the camera keeps each cascade's size, moving it shifts the map by whole texels only", () => {
        const c0 = fit(camera_at([0, 8, 12], [0, 0, 0]));
        const turned = fit(camera_at([0, 8, 12], [5, -1, 3]));
        for (let i = 0; i < 3; i++) expect(turned.texel_world[i]).toBeCloseTo(c0.texel_world[i], 6);
        // a fixed world point lands at the same sub-texel position in every frame of a slow pan
        const point = [1.234, 0.5, -2.345, 1];
        const fraction = (c: ShadowCascades, i: number) => {
            const clip = vec4.transformMat4(vec4.create(), point as unknown as vec4, cascade(c, i));
            const tx = ((clip[0] + 1) / 2) * RES;
            const ty = ((clip[1] + 1) / 2) * RES;
            return [tx - Math.floor(tx), ty - Math.floor(ty)];
        };
        for (let step = 1; step < 12; step++) {
            const moved = fit(camera_at([0.013 * step, 8, 12 - 0.007 * step], [0.013 * step, 0, -0.007 * step]));
            for (let i = 0; i < 3; i++) {
                const [fx, fy] = fraction(moved, i);
                const [gx, gy] = fraction(c0, i);
                // equal modulo one texel (float error near the wrap-around)
                expect(Math.min(Math.abs(fx - gx), 1 - Math.abs(fx - gx)), `cascade ${i}, step ${step}`).toBeLessThan(1e-2);
                expect(Math.min(Math.abs(fy - gy), 1 - Math.abs(fy - gy)), `cascade ${i}, step ${step}`).toBeLessThan(1e-2);
            }
        }
    });

    it("a straight-down sun still has a light basis", () => {
        const c = new ShadowCascades();
        c.fit(camera_at([0, 8, 12], [0, 0, 0]), 1, [0, -1, 0], 2, 30, 0.5, 256, 20);
        for (const v of c.matrices.subarray(0, 32)) expect(Number.isFinite(v)).toBe(true);
    });
});
