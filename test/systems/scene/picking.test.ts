// SceneSystem.pick on the real engine (Dawn): output (CSS) pixel coordinates, answered with the MeshRenderer
// entity (an O(1) look-up of the G-buffer id) and the world position under the pixel, also across a resolution
// scale (internal resolution half the output) with TAA's jitter; the ground (a mesh no entity owns) gives a
// position and no entity, the sky neither.
import { describe, expect, it } from "vitest";
import { load_level } from "../../../engine/level/load_level.js";
import { make_plane_geometry } from "../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { start_scene } from "./scene_fixture.js";

const DT = 1 / 30;
const SIZE = 64;

/** The distance along the ray from the camera at z = 10 (looking down -z, fov 60, square) through output pixel (x, y) to the plane z = plane_z. */
function ray_distance(x: number, y: number, plane_z: number): number {
    const half = Math.tan(Math.PI / 6);
    const dx = (((x + 0.5) / SIZE) * 2 - 1) * half;
    const dy = (1 - ((y + 0.5) / SIZE) * 2) * half;
    return (10 - plane_z) * Math.hypot(dx, dy, 1);
}

describe("SceneSystem.pick (Dawn)", () => {
    for (const taa of [false, true]) {
        it(`answers the entity and the world position under a CSS pixel${taa ? " (TAA on, internal resolution half the output)" : ""}`, async () => {
            const f = await start_scene({ taa });
            if (taa) f.engine.graphics.resolution_scale = 0.5;
            // a box 4 wide on the left half, its front face at z = 0.5; the ground behind it at z = -2 is a plain mesh
            const [box] = load_level(f.engine, {
                entities: [
                    { name: "box", Transform: { position: [-2.5, 0, 0], scale: [4, 4, 1] }, MeshRenderer: { geometry: "box" } },
                    { name: "eye", Transform: { position: [0, 0, 10] }, Camera: { fov: 60, near: 0.5, far: 50 } },
                ],
            });
            const wall = new Mesh(make_plane_geometry(12, 4), new StandardMaterial({}));
            wall.position.set([0, -4, -2]);
            wall.rotation.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2]); // +y up turned to face +z
            f.engine.graphics.scene.add(wall);
            for (let i = 0; i < 4; i++) f.engine.tick(DT);
            const eye = [0, 0, 10];
            const cases: [number, number, number | null, number | null][] = [
                // x, y (output pixels), the entity, the plane z hit
                [16, 30, box, 0.5],
                [20, 36, box, 0.5],
                [48, 50, null, -2],
                [48, 4, null, null],
            ];
            for (const [x, y, entity, z] of cases) {
                const picked = f.scene.pick(x, y);
                f.engine.tick(DT);
                const result = await picked;
                expect(result.entity, `entity at (${x}, ${y})`).toBe(entity);
                if (z === null) {
                    expect(result.position, `sky at (${x}, ${y})`).toBe(null);
                    continue;
                }
                const p = result.position!;
                expect(p, `a position at (${x}, ${y})`).not.toBe(null);
                const distance = Math.hypot(p[0] - eye[0], p[1] - eye[1], p[2] - eye[2]);
                const truth = ray_distance(x, y, z);
                expect(Math.abs(distance - truth) / truth, `distance at (${x}, ${y}): ${distance} vs ${truth}`).toBeLessThan(0.01);
                expect(p[2]).toBeCloseTo(z, 1);
            }
            // outside the output: nothing, and no pass recorded
            const passes = f.scene.extension!.pick_passes;
            const outside = f.scene.pick(SIZE + 3, 10);
            f.engine.tick(DT);
            expect(await outside).toEqual({ entity: null, object_id: 0, position: null });
            expect(f.scene.extension!.pick_passes).toBe(passes);
            await f.engine.shutdown();
            expect(f.errors).toEqual([]);
        });
    }
});
