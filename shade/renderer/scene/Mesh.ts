import { mat4, quat, vec3 } from "gl-matrix";
import type { Geometry } from "../geometry/Geometry.js";
import type { StandardMaterial } from "./StandardMaterial.js";

/**
 * A static-topology mesh in the scene: geometry + material + transform. The renderer derives the world
 * matrix from `position`, `rotation` and `scale` every frame; `object_id` is written to the G-buffer's id
 * target (for picking and highlight) and is assigned when the mesh joins a `Scene`.
 */
export class Mesh {
    geometry: Geometry;
    material: StandardMaterial;
    readonly position: Float32Array = vec3.create() as Float32Array;
    readonly rotation: Float32Array = quat.create() as Float32Array;
    readonly scale: Float32Array = vec3.fromValues(1, 1, 1) as Float32Array;
    readonly world_matrix = mat4.create();
    /**
     * RGBA multiplied with the material's base colour, per mesh (three.js `setColorAt`): meshes sharing a
     * geometry and a material are drawn as one instanced draw whatever their colours. Written in place; read
     * every frame. White by default.
     */
    readonly color: Float32Array = new Float32Array([1, 1, 1, 1]);
    visible = true;
    /** Decals project onto this mesh (the ground, walls); off by default, so units under a selection circle keep their colour. */
    receive_decals = false;
    /** 0 until the mesh is added to a scene; then unique within it and never 0. */
    object_id = 0;

    constructor(geometry: Geometry, material: StandardMaterial) {
        this.geometry = geometry;
        this.material = material;
    }

    /** Derives `world_matrix` from the local transform. */
    update_matrix(): void {
        mat4.fromRotationTranslationScale(this.world_matrix, this.rotation, this.position, this.scale);
    }
}
