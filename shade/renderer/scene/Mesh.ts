import type { mat4 } from "gl-matrix";
import type { Geometry } from "../geometry/Geometry.js";
import type { MeshSkin } from "./MeshSkin.js";
import type { StandardMaterial } from "./StandardMaterial.js";

/** @internal What a mesh tells the scene it is in (`Scene` implements it). */
export interface MeshOwner {
    /** A frozen mesh of this scene changed (`Mesh.changed`). */
    frozen_mesh_changed(): void;
    /** Membership-like change: draw lists re-sort (`Scene.mark_changed`). */
    mark_changed(): void;
}

/**
 * A static-topology mesh in the scene: geometry + material + transform. The renderer derives the world
 * matrix from `position`, `rotation` and `scale` every frame; `object_id` is written to the G-buffer's id
 * target (for picking and highlight) and is assigned when the mesh joins a `Scene`.
 */
export class Mesh {
    #geometry: Geometry;
    #material: StandardMaterial;

    /** What is drawn. Setting another tells the scene (its draw lists re-sort and regroup their instanced runs). */
    get geometry(): Geometry {
        return this.#geometry;
    }

    set geometry(geometry: Geometry) {
        if (geometry === this.#geometry) return;
        this.#geometry = geometry;
        this.owner?.mark_changed();
    }

    /** How it is shaded. Setting another tells the scene (its draw lists re-sort: the material picks the pipeline). */
    get material(): StandardMaterial {
        return this.#material;
    }

    set material(material: StandardMaterial) {
        if (material === this.#material) return;
        this.#material = material;
        this.owner?.mark_changed();
    }

    /**
     * @internal The transform, colour and matrix in one array, which the fields below view: position 0-2,
     * rotation 4-7, scale 8-10, colour 11-14, world matrix 16-31. The renderer's per-mesh walk reads them
     * through this one view (first touches of five view objects per mesh were most of the walk's time).
     */
    readonly data = new Float32Array(32);
    readonly position: Float32Array = this.data.subarray(0, 3);
    readonly rotation: Float32Array = this.data.subarray(4, 8);
    readonly scale: Float32Array = this.data.subarray(8, 11);
    readonly world_matrix: mat4 = this.data.subarray(16, 32);
    /**
     * RGBA multiplied with the material's base colour, per mesh (three.js `setColorAt`): meshes sharing a
     * geometry and a material are drawn as one instanced draw whatever their colours. Written in place; read
     * every frame. White by default.
     */
    readonly color: Float32Array = this.data.subarray(11, 15);
    visible = true;
    /** Decals project onto this mesh (the ground, walls); off by default, so units under a selection circle keep their colour. */
    receive_decals = false;
    /** Drawn into the sun's shadow map (when a shadow extension is registered). Default true. */
    cast_shadows = true;
    /**
     * Skinned on the GPU with these joint matrices (world space: the vertices land where the joints put them,
     * whatever `world_matrix` says); null for a rigid mesh. The geometry needs `joints` and `weights`. The renderer
     * skins into the mesh's own space (through the inverse of `world_matrix`), so the world matrix still places
     * the mesh's bounds for shadow culling and its motion for the velocity product: keep it at the skinned node's.
     * Each skinned mesh needs a skin of its own. Setting it tells the scene (its draw lists re-sort).
     */
    get skin(): MeshSkin | null {
        return this.#skin;
    }

    set skin(skin: MeshSkin | null) {
        if (skin === this.#skin) return;
        this.#skin = skin;
        this.owner?.mark_changed();
    }

    #skin: MeshSkin | null = null;
    /** 0 until the mesh is added to a scene; then unique within it and never 0. */
    object_id = 0;
    /** @internal The scene it is in (set by `Scene.add`), told of changes to a frozen mesh. */
    owner: MeshOwner | null = null;
    #frozen = false;

    constructor(geometry: Geometry, material: StandardMaterial) {
        this.#geometry = geometry;
        this.#material = material;
        const d = this.data;
        // rotation w, scale, colour, and the world matrix's diagonal: identity transform, white
        d[7] = 1;
        d[8] = d[9] = d[10] = 1;
        d[11] = d[12] = d[13] = d[14] = 1;
        d[16] = d[21] = d[26] = d[31] = 1;
    }

    /**
     * True (the default): the renderer derives `world_matrix` from `position`, `rotation` and `scale` every
     * frame. False: `world_matrix` is used as written by `set_world_matrix` (a transform hierarchy computes it)
     * and the three fields are ignored.
     */
    matrix_auto_update = true;
    /** Counts `set_world_matrix` calls: how the renderer sees that a matrix it did not derive has changed. */
    matrix_version = 0;

    /**
     * Sets the world matrix (16 floats, column-major, from `offset` of `m`) and turns `matrix_auto_update`
     * off: from now on the mesh is where its matrix says. Call it whenever the matrix changes.
     */
    set_world_matrix(m: ArrayLike<number>, offset = 0): void {
        const d = this.data;
        for (let k = 0; k < 16; k++) d[16 + k] = m[offset + k];
        this.matrix_auto_update = false;
        this.matrix_version++;
        if (this.#frozen) this.owner?.frozen_mesh_changed();
    }

    /**
     * False (the default): the renderer compares this mesh's transform, colour and flags with last frame's every
     * frame to find what changed. True: it reads them when the mesh joins the scene and after each `changed()`
     * call (or `set_world_matrix`), and otherwise trusts they did not move, so a scene of mostly still meshes costs
     * CPU for what changed, not for how many meshes there are. Its material's values are still watched every frame
     * (one comparison per material, not per mesh). Freeze meshes that rarely change; call `changed()` after
     * writing `position`, `rotation`, `scale`, `color`, `visible`, `cast_shadows` or `receive_decals` of one.
     */
    get frozen(): boolean {
        return this.#frozen;
    }

    set frozen(frozen: boolean) {
        if (frozen === this.#frozen) return;
        this.#frozen = frozen;
        this.owner?.mark_changed();
    }

    /** Tells the renderer that a frozen mesh's transform, colour or flags changed (nothing for a mesh not frozen). */
    changed(): void {
        if (this.#frozen) this.owner?.frozen_mesh_changed();
    }

    /** Derives `world_matrix` from the local transform (nothing when `matrix_auto_update` is off). */
    update_matrix(): void {
        if (!this.matrix_auto_update) return;
        // gl-matrix's fromRotationTranslationScale, reading and writing `data` (one view, not four)
        const d = this.data;
        const x = d[4], y = d[5], z = d[6], w = d[7];
        const x2 = x + x, y2 = y + y, z2 = z + z;
        const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
        const wx = w * x2, wy = w * y2, wz = w * z2;
        const sx = d[8], sy = d[9], sz = d[10];
        d[16] = (1 - (yy + zz)) * sx;
        d[17] = (xy + wz) * sx;
        d[18] = (xz - wy) * sx;
        d[19] = 0;
        d[20] = (xy - wz) * sy;
        d[21] = (1 - (xx + zz)) * sy;
        d[22] = (yz + wx) * sy;
        d[23] = 0;
        d[24] = (xz + wy) * sz;
        d[25] = (yz - wx) * sz;
        d[26] = (1 - (xx + yy)) * sz;
        d[27] = 0;
        d[28] = d[0];
        d[29] = d[1];
        d[30] = d[2];
        d[31] = 1;
    }
}
