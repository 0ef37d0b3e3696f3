import { WorldTransform } from "../../engine/components/WorldTransform.js";
import type { Camera as ViewCamera } from "../../shade/renderer/scene/Camera.js";
import type { DirectionalLight as SceneSun } from "../../shade/renderer/scene/DirectionalLight.js";
import type { Mesh } from "../../shade/renderer/scene/Mesh.js";
import type { PointLight as ScenePointLight } from "../../shade/renderer/scene/PointLight.js";
import { Camera } from "./Camera.js";
import { DirectionalLight } from "./DirectionalLight.js";
import { MeshRenderer } from "./MeshRenderer.js";
import { PointLight } from "./PointLight.js";

// What the renderer's objects hold of an entity's components, copied by SceneSystem once per rendered frame (and
// when the object is made): read straight from the component stores, allocating nothing.

/** @internal `eid`'s `MeshRenderer` colour, visibility, shadow and decal flags and skin into `mesh`. */
export function copy_mesh_fields(mesh: Mesh, eid: number): void {
    const c = MeshRenderer.color;
    mesh.color[0] = c[eid * 4];
    mesh.color[1] = c[eid * 4 + 1];
    mesh.color[2] = c[eid * 4 + 2];
    mesh.color[3] = c[eid * 4 + 3];
    mesh.visible = MeshRenderer.visible[eid] === 1;
    mesh.cast_shadows = MeshRenderer.cast_shadows[eid] === 1;
    mesh.receive_decals = MeshRenderer.receive_decals[eid] === 1;
    mesh.skin = MeshRenderer.skin[eid] ?? null;
}

/** @internal `eid`'s world position and `PointLight` values into `light`. */
export function copy_light(light: ScenePointLight, eid: number): void {
    const m = WorldTransform.matrix;
    light.position[0] = m[eid * 16 + 12];
    light.position[1] = m[eid * 16 + 13];
    light.position[2] = m[eid * 16 + 14];
    light.color[0] = PointLight.color[eid * 3];
    light.color[1] = PointLight.color[eid * 3 + 1];
    light.color[2] = PointLight.color[eid * 3 + 2];
    // stored only when changed (see copy_camera)
    if (light.intensity !== PointLight.intensity[eid]) light.intensity = PointLight.intensity[eid];
    if (light.range !== PointLight.range[eid]) light.range = PointLight.range[eid];
}

/** @internal `eid`'s `DirectionalLight` into the scene's `sun`, its direction turned by the entity's world rotation. */
export function copy_sun(sun: SceneSun, eid: number): void {
    const m = WorldTransform.matrix;
    const o = eid * 16;
    const d = DirectionalLight.direction;
    const x = d[eid * 3];
    const y = d[eid * 3 + 1];
    const z = d[eid * 3 + 2];
    // the world matrix's 3x3 turns the local direction (scale does not matter once normalised)
    const wx = m[o] * x + m[o + 4] * y + m[o + 8] * z;
    const wy = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z;
    const wz = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z;
    const length = Math.sqrt(wx * wx + wy * wy + wz * wz) || 1;
    sun.direction[0] = wx / length;
    sun.direction[1] = wy / length;
    sun.direction[2] = wz / length;
    sun.color[0] = DirectionalLight.color[eid * 3];
    sun.color[1] = DirectionalLight.color[eid * 3 + 1];
    sun.color[2] = DirectionalLight.color[eid * 3 + 2];
    if (sun.intensity !== DirectionalLight.intensity[eid]) sun.intensity = DirectionalLight.intensity[eid];
}

/** @internal `eid`'s world pose and `Camera` lens into the view's `camera`. */
export function copy_camera(camera: ViewCamera, eid: number): void {
    const m = WorldTransform.matrix;
    const o = eid * 16;
    const px = m[o + 12];
    const py = m[o + 13];
    const pz = m[o + 14];
    // looks down local -z, local +y up
    const fx = -m[o + 8];
    const fy = -m[o + 9];
    const fz = -m[o + 10];
    const length = Math.sqrt(fx * fx + fy * fy + fz * fz) || 1;
    camera.position[0] = px;
    camera.position[1] = py;
    camera.position[2] = pz;
    camera.target[0] = px + fx / length;
    camera.target[1] = py + fy / length;
    camera.target[2] = pz + fz / length;
    camera.up[0] = m[o + 4];
    camera.up[1] = m[o + 5];
    camera.up[2] = m[o + 6];
    // stored only when changed: a number field that ever held another kind of number stores each new
    // double as a fresh heap number (garbage every frame)
    const fov_y = (Camera.fov[eid] * Math.PI) / 180;
    if (camera.fov_y !== fov_y) camera.fov_y = fov_y;
    if (camera.near !== Camera.near[eid]) camera.near = Camera.near[eid];
    if (camera.far !== Camera.far[eid]) camera.far = Camera.far[eid];
}
