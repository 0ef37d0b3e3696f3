// SceneSystem on the real engine (Dawn): a level's MeshRenderer, Camera, DirectionalLight and PointLight
// entities draw the expected picture, and removing each component removes its effect in the next frame; meshes
// follow the transform hierarchy; the active camera switches at run time.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { load_level } from "../../../engine/level/load_level.js";
import { save_level } from "../../../engine/level/save_level.js";
import { Camera } from "../../../systems/scene/Camera.js";
import { DirectionalLight } from "../../../systems/scene/DirectionalLight.js";
import { MeshRenderer } from "../../../systems/scene/MeshRenderer.js";
import { PointLight } from "../../../systems/scene/PointLight.js";
import { pixel_at, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { look_rotation, start_scene } from "./scene_fixture.js";

const DT = 1 / 30;
const EYE = [0, 5, 9];

function level(): unknown {
    return {
        entities: [
            { name: "ground", Transform: { scale: [24, 1, 24] }, MeshRenderer: { geometry: "plane", color: [0.35, 0.35, 0.35, 1] } },
            { name: "box", Transform: { position: [-1.5, 0.75, 0], scale: [1.5, 1.5, 1.5] }, MeshRenderer: { geometry: "box", color: [0.9, 0.1, 0.1, 1] } },
            { name: "ball", Transform: { position: [1.5, 0.6, 0] , scale: [1.2, 1.2, 1.2]}, MeshRenderer: { geometry: "sphere", color: [0.9, 0.9, 0.9, 1], cast_shadows: false } },
            { name: "eye", Transform: { position: EYE, rotation: look_rotation(EYE, [0, 0, 0]) }, Camera: { fov: 50, near: 0.5, far: 60 } },
            { name: "sun", Transform: {}, DirectionalLight: { direction: [-0.3, -1, -0.4], color: [1, 0.95, 0.9], intensity: 1.2 } },
            { name: "lamp", Transform: { position: [2.5, 0.5, 2.5] }, PointLight: { color: [0.2, 0.4, 1], intensity: 12, range: 6 } },
        ],
    };
}

function luminance(image: TextureReadback, x: number, y: number): number {
    const p = pixel_at(image, x, y);
    return p[0] + p[1] + p[2];
}

describe("SceneSystem (Dawn)", () => {
    it("a level with mesh, camera and light entities renders the picture; removing each component removes its effect the same frame", async () => {
        const f = await start_scene();
        const em = f.engine.entityManager;
        const [ground, box, ball, eye, sun, lamp] = load_level(f.engine, level());
        f.engine.tick(DT);
        // the camera entity drives the view
        const camera = f.engine.graphics.view.camera;
        expect(Array.from(camera.position)).toEqual(EYE);
        expect(camera.fov_y).toBeCloseTo((50 * Math.PI) / 180, 6);
        expect(f.scene.active_camera).toBe(eye);
        expect(f.scene.sun).toBe(sun);
        const full = await f.read();
        write_readback_png(full, "scene_system_level");
        const at_box = f.project([-1.5, 1.2, 0.76]);
        const at_ball = f.project([1.5, 0.8, 0.5]);
        const at_ground = f.project([-2, 0, 3.5]);
        const near_lamp = f.project([2.5, 0, 2]);
        const box_pixel = pixel_at(full, ...at_box);
        expect(box_pixel[0], `box at ${at_box}: ${box_pixel}`).toBeGreaterThan(box_pixel[1] * 2);
        const ball_pixel = pixel_at(full, ...at_ball);
        expect(Math.abs(ball_pixel[0] - ball_pixel[2]), `ball at ${at_ball}: ${ball_pixel}`).toBeLessThan(40);
        const lamp_pixel = pixel_at(full, ...near_lamp);
        expect(lamp_pixel[2], `the blue lamp's pool at ${near_lamp}: ${lamp_pixel}`).toBeGreaterThan(lamp_pixel[0] + 20);
        // the level saves back what it said
        const saved = save_level(f.engine) as { entities: Record<string, unknown>[] };
        expect(saved.entities[1].MeshRenderer).toMatchObject({ geometry: "box", material: "default", cast_shadows: true, receive_decals: false, visible: true });
        expect(saved.entities[2].MeshRenderer).toMatchObject({ geometry: "sphere", cast_shadows: false });
        expect(saved.entities[3].Camera).toMatchObject({ fov: 50, far: 60, active: true });

        // the box's MeshRenderer goes: the ground shows where it stood, this frame
        em.remove_component(box, MeshRenderer);
        f.engine.tick(DT);
        const no_box = await f.read();
        const p = pixel_at(no_box, ...at_box);
        expect(p[0], `no box at ${at_box}: ${p}`).toBeLessThan(p[1] * 1.3);
        expect(f.engine.graphics.scene.meshes.length).toBe(2);

        // the lamp goes: its blue pool goes
        em.remove_component(lamp, PointLight);
        f.engine.tick(DT);
        const no_lamp = await f.read();
        const q = pixel_at(no_lamp, ...near_lamp);
        expect(q[2] - q[0], `no lamp at ${near_lamp}: ${q}`).toBeLessThan((lamp_pixel[2] - lamp_pixel[0]) / 3);
        expect(f.engine.graphics.scene.point_light_count).toBe(0);

        // the sun goes: the sunlit ground darkens to its ambient
        const sunlit = luminance(no_lamp, ...at_ground);
        em.remove_component(sun, DirectionalLight);
        f.engine.tick(DT);
        const dark = luminance(await f.read(), ...at_ground);
        expect(dark, `ground ${sunlit} -> ${dark} without the sun`).toBeLessThan(sunlit / 3);
        expect(f.scene.sun).toBe(null);

        // removing whole entities takes their meshes
        em.remove_entity(ball);
        em.remove_entity(ground);
        f.engine.tick(DT);
        expect(f.engine.graphics.scene.meshes.length).toBe(0);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("switches the active camera at run time: set_active_camera, the active flag, and removal hand the view over", async () => {
        const f = await start_scene();
        const em = f.engine.entityManager;
        const [, , , first] = load_level(f.engine, level());
        const side = [9, 3, 0];
        const [second] = load_level(f.engine, { entities: [{ name: "side", Transform: { position: side, rotation: look_rotation(side, [0, 0, 0]) }, Camera: { active: false, fov: 40 } }] });
        f.engine.tick(DT);
        expect(f.scene.active_camera).toBe(first);
        const from_front = await f.read();
        f.scene.set_active_camera(second);
        f.engine.tick(DT);
        const camera = f.engine.graphics.view.camera;
        expect(f.scene.active_camera).toBe(second);
        expect(Array.from(camera.position).map((v) => Math.round(v * 1e4) / 1e4)).toEqual(side);
        expect(camera.fov_y).toBeCloseTo((40 * Math.PI) / 180, 6);
        // it looks at the origin: its target lies on the line from its eye to the origin
        const t = Array.from(camera.target);
        expect(t[1] / t[0]).toBeCloseTo(3 / 9, 4);
        const from_side = await f.read();
        let differ = 0;
        for (let y = 0; y < 64; y += 4) for (let x = 0; x < 64; x += 4) if (Math.abs(luminance(from_side, x, y) - luminance(from_front, x, y)) > 30) differ++;
        expect(differ, "another camera draws another picture").toBeGreaterThan(20);
        // clearing the flag in place hands the view back to the latest camera still active
        Camera.active[second] = 0;
        f.engine.tick(DT);
        expect(f.scene.active_camera).toBe(first);
        f.scene.set_active_camera(second);
        f.engine.tick(DT);
        em.remove_component(second, Camera);
        f.engine.tick(DT);
        expect(f.scene.active_camera).toBe(first);
        expect(Array.from(camera.position)).toEqual(EYE);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("meshes follow the transform hierarchy: a child's mesh moves with its parent, and only moved meshes are copied", async () => {
        const f = await start_scene();
        const em = f.engine.entityManager;
        const [, , , , , , base, arm] = load_level(f.engine, {
            entities: [
                ...(level() as { entities: unknown[] }).entities,
                { name: "base", Transform: { position: [0, 0, -3], scale: [2, 1, 1] } },
                { name: "arm", parent: "base", Transform: { position: [1, 2, 0] }, MeshRenderer: { geometry: "box", color: [0.1, 0.9, 0.1, 1] } },
            ],
        });
        f.engine.tick(DT);
        const mesh = f.scene.mesh_of(arm)!;
        // world = parent x local: x doubled by the parent's scale
        expect(Array.from(mesh.world_matrix).slice(12, 15)).toEqual([2, 2, -3]);
        expect(mesh.world_matrix[0]).toBe(2);
        const before = mesh.matrix_version;
        f.engine.tick(DT);
        expect(mesh.matrix_version, "nothing moved: the matrix is not copied again").toBe(before);
        em.set_position(base, 0, 0, 1);
        f.engine.tick(DT);
        expect(Array.from(mesh.world_matrix).slice(12, 15)).toEqual([2, 2, 1]);
        expect(mesh.matrix_version).toBe(before + 1);
        const image = await f.read();
        const at = f.project([2, 2, 1.5]);
        const p = pixel_at(image, ...at);
        expect(p[1], `the arm at its new place ${at}: ${p}`).toBeGreaterThan(p[0] * 2);
        // the parent's removal takes the child, and its mesh
        em.remove_entity(base);
        f.engine.tick(DT);
        expect(f.scene.mesh_of(arm)).toBe(null);
        expect(f.engine.graphics.scene.meshes.includes(mesh)).toBe(false);
        void Transform;
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });
});
