import { make_box_geometry } from "../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_cylinder_geometry } from "../../shade/renderer/geometry/primitives/make_cylinder_geometry.js";
import { make_plane_geometry } from "../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { make_sphere_geometry } from "../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import type { Camera } from "../../shade/renderer/scene/Camera.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { PointLight } from "../../shade/renderer/scene/PointLight.js";
import { Scene } from "../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";

/**
 * The reference scene: a floor, a metal sphere, a rough box, a cylinder, a glass pane in front, a warm sun
 * and a ring of coloured point lights. The golden-image test and the reference sample both draw it.
 */
export function make_reference_scene(point_lights = 8): Scene {
    const scene = new Scene();
    scene.sun.direction.set([-0.5, -1, -0.35]);
    scene.sun.color.set([1, 0.93, 0.82]);
    scene.sun.intensity = 2.2;
    scene.ambient.set([0.05, 0.06, 0.08]);

    const floor = scene.add(new Mesh(make_plane_geometry(12, 12, 4), new StandardMaterial({ base_color: [0.3, 0.29, 0.28, 1], roughness: 0.85, label: "floor" })));
    floor.position.set([0, 0, 0]);

    const sphere = scene.add(new Mesh(make_sphere_geometry(0.8, 48, 24), new StandardMaterial({ base_color: [0.95, 0.7, 0.35, 1], roughness: 0.35, metalness: 1, label: "gold" })));
    sphere.position.set([-1.2, 0.8, 0]);

    const box = scene.add(new Mesh(make_box_geometry(1.2, 1.2, 1.2), new StandardMaterial({ base_color: [0.2, 0.45, 0.8, 1], roughness: 0.6, label: "blue plastic" })));
    box.position.set([1.3, 0.6, -0.3]);
    box.rotation.set([0, Math.sin(0.35), 0, Math.cos(0.35)]);

    const pillar = scene.add(new Mesh(make_cylinder_geometry(0.35, 2.4, 32), new StandardMaterial({ base_color: [0.75, 0.75, 0.72, 1], roughness: 0.5, label: "stone" })));
    pillar.position.set([0.1, 1.2, -2]);

    const glass = scene.add(
        new Mesh(make_box_geometry(1.6, 1.2, 0.05), new StandardMaterial({ base_color: [0.3, 0.9, 0.6, 0.35], roughness: 0.1, transparency: "blended", label: "green glass" })),
    );
    glass.position.set([0.2, 0.6, 1.4]);

    for (let i = 0; i < point_lights; i++) {
        const a = (i / point_lights) * Math.PI * 2;
        const light = scene.add_point_light(new PointLight());
        light.position.set([Math.cos(a) * 3.2, 0.5, Math.sin(a) * 3.2]);
        light.color.set([0.5 + 0.5 * Math.cos(a), 0.5 + 0.5 * Math.cos(a + 2.1), 0.5 + 0.5 * Math.cos(a + 4.2)]);
        light.intensity = 1.6;
        light.range = 4;
    }
    return scene;
}

/** Places the camera where the reference views the scene from. */
export function place_reference_camera(camera: Camera): void {
    camera.position.set([0.5, 2.6, 6]);
    camera.target.set([0, 0.6, 0]);
    camera.fov_y = Math.PI / 4;
}
