// Camera.update's matrices against gl-matrix's (device-independent: no GPU).
import { mat4 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { Camera } from "../../../../shade/renderer/scene/Camera.js";

function close(a: ArrayLike<number>, b: ArrayLike<number>): void {
    for (let i = 0; i < 16; i++) expect(a[i], `element ${i}`).toBeCloseTo(b[i], 4);
}

describe("Camera", () => {
    it("update's projection is gl-matrix's perspectiveZO plus the jitter, finite and infinite far planes; view-projection and inverse follow", () => {
        const cases = [
            { fov: Math.PI / 3, w: 1920, h: 1080, near: 0.1, far: 200, jx: 0, jy: 0 },
            { fov: 0.9, w: 640, h: 960, near: 0.5, far: 1e4, jx: 1 / 640, jy: -1 / 960 },
            { fov: 1.2, w: 300, h: 300, near: 0.05, far: Infinity, jx: -0.002, jy: 0.003 },
        ];
        for (const c of cases) {
            const camera = new Camera();
            camera.position.set([3, 4, 5]);
            camera.target.set([-1, 0.5, 2]);
            camera.fov_y = c.fov;
            camera.near = c.near;
            camera.far = c.far;
            camera.update(c.w, c.h, c.jx, c.jy);
            const projection = mat4.perspectiveZO(mat4.create(), c.fov, c.w / c.h, c.near, c.far);
            projection[8] += c.jx;
            projection[9] += c.jy;
            close(camera.projection, projection);
            const view = mat4.lookAt(mat4.create(), [3, 4, 5], [-1, 0.5, 2], [0, 1, 0]);
            close(camera.view, view);
            const view_projection = mat4.multiply(mat4.create(), projection, view);
            close(camera.view_projection, view_projection);
            close(camera.inverse_view_projection, mat4.invert(mat4.create(), view_projection)!);
            // the uniform block carries the same projection
            close(camera.data.subarray(32, 48), projection);
        }
    });

    it("a second update keeps the first's view-projection as the previous one", () => {
        const camera = new Camera();
        camera.update(100, 100);
        const first = mat4.clone(camera.view_projection);
        camera.position.set([10, 2, 0]);
        camera.update(100, 100);
        close(camera.previous_view_projection, first);
        let moved = 0;
        for (let i = 0; i < 16; i++) moved += Math.abs(camera.view_projection[i] - first[i]);
        expect(moved).toBeGreaterThan(0.1);
    });
});
