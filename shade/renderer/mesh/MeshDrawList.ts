import { GBufferFlags } from "../extension/GBufferFlags.js";
import { mat3 } from "gl-matrix";
import { texture_bits, write_object_data } from "./write_object_data.js";
import type { Geometry } from "../geometry/Geometry.js";
import type { Mesh } from "../scene/Mesh.js";
import type { MeshSkin } from "../scene/MeshSkin.js";
import type { Scene } from "../scene/Scene.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";
import { OBJECT_FLOATS } from "./mesh_wgsl.js";
import type { ObjectBuffer } from "./ObjectBuffer.js";

/** Last frame's world matrix of one mesh, which build wrote it, and what its object slot was written from. */
interface PreviousTransform {
    readonly matrix: Float32Array;
    build: number;
    /** The object slot it had; -1: none yet. */
    slot: number;
    /** Whether its matrix differed from the frame before (then this frame's previous matrix differs too). */
    moved: boolean;
    /** Position 3, rotation 4, scale 3, mesh colour 4, base colour 4, roughness, metalness. */
    readonly inputs: Float32Array;
    object_id: number;
    material_id: number;
    flags: number;
}

const INPUTS = 29;

/** Consecutive objects sharing geometry and material: one instanced draw. */
export interface DrawRun {
    geometry: Geometry;
    /** A skinned mesh's skin (its run holds it alone: its vertices are its own), else null. */
    skin: MeshSkin | null;
    material: StandardMaterial;
    first: number;
    count: number;
}


let next_geometry_key = 1;
const geometry_keys = new WeakMap<Geometry, number>();
function geometry_key(g: Geometry): number {
    let key = geometry_keys.get(g);
    if (key === undefined) {
        key = next_geometry_key++;
        geometry_keys.set(g, key);
    }
    return key;
}

/**
 * The frame's mesh draws. Opaque meshes are sorted by material then geometry (only when the scene's
 * membership changes) and written to the object buffer in that order, so runs of equal meshes become one
 * instanced draw. Blended meshes follow, sorted back to front every frame, one draw each.
 */
export class MeshDrawList {
    /** Lists only meshes with `cast_shadows` (a shadow map's list). */
    casters_only = false;
    readonly opaque_runs: DrawRun[] = [];
    opaque_run_count = 0;
    readonly blended_runs: DrawRun[] = [];
    blended_run_count = 0;

    readonly #sorted: Mesh[] = [];
    #sorted_version = -1;
    #sorted_scene: Scene | null = null;
    // cleared by count: `length = 0` would make V8 drop the backing store and the next push allocate one
    readonly #blended: Mesh[] = [];
    #blended_count = 0;
    #blended_depth = new Float32Array(64);
    readonly #normal = mat3.create();
    // per mesh, made once when a mesh is first drawn (a WeakMap: a mesh dropped from the scene lets its entry go)
    readonly #previous = new WeakMap<Mesh, PreviousTransform>();
    #build = 0;
    #moved = 0;
    // the texture bits of the material last seen this build (slots may change between frames: worked out anew)
    #bits_material: StandardMaterial | null = null;
    #bits = 0;

    /**
     * Meshes drawn this frame whose world matrix differs from last frame's (a mesh not drawn last frame does
     * not count: it has no motion). What "TAA uses velocity when it pays" looks at.
     */
    get moved_count(): number {
        return this.#moved;
    }

    /** Fills `objects` with this frame's meshes and rebuilds the runs. `eye` is the camera position. */
    build(scene: Scene, objects: ObjectBuffer, eye: ArrayLike<number>): void {
        if (scene !== this.#sorted_scene || scene.version !== this.#sorted_version) this.#sort(scene);
        objects.clear();
        this.#build++;
        this.#bits_material = null;
        this.#moved = 0;
        this.opaque_run_count = 0;
        this.#blended_count = 0;
        let run: DrawRun | null = null;
        const sorted = this.#sorted;
        for (let i = 0; i < sorted.length; i++) {
            const mesh = sorted[i];
            if (!mesh.visible || (this.casters_only && !mesh.cast_shadows)) continue;
            if (mesh.material.transparency === "blended") {
                // sorted by the world position before it is written: derive this frame's now
                mesh.update_matrix();
                this.#blended[this.#blended_count++] = mesh;
                continue;
            }
            const slot = this.#write(objects, mesh);
            if (run !== null && run.geometry === mesh.geometry && run.material === mesh.material && run.skin === null && mesh.skin === null) {
                run.count++;
            } else {
                run = this.#run(this.opaque_runs, this.opaque_run_count++, mesh, slot);
            }
        }
        this.#sort_back_to_front(eye);
        this.blended_run_count = 0;
        for (let i = 0; i < this.#blended_count; i++) {
            const mesh = this.#blended[i];
            this.#run(this.blended_runs, this.blended_run_count++, mesh, this.#write(objects, mesh));
        }
    }

    #run(runs: DrawRun[], index: number, mesh: Mesh, first: number): DrawRun {
        let run = runs[index];
        if (run === undefined) {
            run = { geometry: mesh.geometry, skin: mesh.skin, material: mesh.material, first, count: 1 };
            runs.push(run);
        } else {
            run.geometry = mesh.geometry;
            run.skin = mesh.skin;
            run.material = mesh.material;
            run.first = first;
            run.count = 1;
        }
        return run;
    }

    // writes one object's data; returns its index. A mesh drawn last frame in the same slot, not moving then
    // and unchanged since (transform, colours, material values, ids) keeps its slot as it is: no matrix work,
    // nothing written, nothing uploaded.
    #write(objects: ObjectBuffer, mesh: Mesh): number {
        const index = objects.count;
        let previous = this.#previous.get(mesh);
        if (previous === undefined) {
            previous = { matrix: new Float32Array(16), build: -1, slot: -1, moved: false, inputs: new Float32Array(INPUTS), object_id: 0, material_id: 0, flags: 0 };
            this.#previous.set(mesh, previous);
        }
        const material = mesh.material;
        // meshes come sorted by material: the material's texture bits are worked out once per run of it
        if (material !== this.#bits_material) {
            this.#bits_material = material;
            this.#bits = texture_bits(material);
        }
        const bits = this.#bits;
        const flags = GBufferFlags.lit | (material.base_color_texture !== null ? GBufferFlags.textured : 0) | (mesh.receive_decals ? GBufferFlags.receives_decals : 0);
        const drawn_last_frame = previous.build === this.#build - 1;
        if (
            drawn_last_frame &&
            previous.slot === index &&
            !previous.moved &&
            previous.object_id === mesh.object_id &&
            previous.material_id === material.id &&
            previous.flags === flags &&
            same_inputs(previous.inputs, mesh, material, bits)
        ) {
            objects.keep();
            // a skinned mesh moves with its skin (the velocity product reads its last positions): counted as moving
            if (mesh.skin !== null) this.#moved++;
            previous.build = this.#build;
            return index;
        }
        mesh.update_matrix();
        const o = objects.push();
        const f = objects.floats;
        const u = objects.uints;
        const m = mesh.world_matrix;
        write_object_data(f, u, o, mesh, this.#normal, bits);
        u[o + 38] = flags;
        // last frame's matrix (this frame's if it was not drawn last frame), and this frame's kept for the next
        const p = previous.matrix;
        const at = o + 40;
        let moved = false;
        for (let k = 0; k < 16; k++) {
            if (drawn_last_frame) {
                f[at + k] = p[k];
                if (p[k] !== m[k]) moved = true;
            } else {
                f[at + k] = m[k];
            }
            p[k] = m[k];
        }
        if (moved || mesh.skin !== null) this.#moved++;
        previous.build = this.#build;
        previous.slot = index;
        previous.moved = moved;
        previous.object_id = mesh.object_id;
        previous.material_id = material.id;
        previous.flags = flags;
        store_inputs(previous.inputs, mesh, material, bits);
        return index;
    }

    #sort(scene: Scene): void {
        const sorted = this.#sorted;
        sorted.length = 0;
        for (let i = 0; i < scene.meshes.length; i++) sorted.push(scene.meshes[i]);
        sorted.sort(by_material_then_geometry);
        this.#sorted_scene = scene;
        this.#sorted_version = scene.version;
    }

    // insertion sort on view distance: frame-coherent order makes it near linear, and it allocates nothing
    #sort_back_to_front(eye: ArrayLike<number>): void {
        const list = this.#blended;
        const n = this.#blended_count;
        if (this.#blended_depth.length < n) this.#blended_depth = new Float32Array(n * 2);
        const depth = this.#blended_depth;
        for (let i = 0; i < n; i++) {
            // the world position: the matrix's translation (derived this frame, or set from outside)
            const m = list[i].world_matrix;
            const dx = m[12] - eye[0];
            const dy = m[13] - eye[1];
            const dz = m[14] - eye[2];
            depth[i] = dx * dx + dy * dy + dz * dz;
        }
        for (let i = 1; i < n; i++) {
            const mesh = list[i];
            const d = depth[i];
            let j = i - 1;
            while (j >= 0 && depth[j] < d) {
                list[j + 1] = list[j];
                depth[j + 1] = depth[j];
                j--;
            }
            list[j + 1] = mesh;
            depth[j + 1] = d;
        }
    }
}

function by_material_then_geometry(a: Mesh, b: Mesh): number {
    return a.material.id - b.material.id || geometry_key(a.geometry) - geometry_key(b.geometry);
}

function same_inputs(a: Float32Array, mesh: Mesh, material: StandardMaterial, bits: number): boolean {
    const p = mesh.position;
    const r = mesh.rotation;
    const s = mesh.scale;
    const c = mesh.color;
    const b = material.base_color;
    return (
        a[0] === p[0] && a[1] === p[1] && a[2] === p[2] &&
        a[3] === r[0] && a[4] === r[1] && a[5] === r[2] && a[6] === r[3] &&
        a[7] === s[0] && a[8] === s[1] && a[9] === s[2] &&
        a[10] === c[0] && a[11] === c[1] && a[12] === c[2] && a[13] === c[3] &&
        a[14] === b[0] && a[15] === b[1] && a[16] === b[2] && a[17] === b[3] &&
        a[18] === Math.fround(material.roughness) && a[19] === Math.fround(material.metalness) &&
        a[21] === Math.fround(material.normal_scale) && a[22] === Math.fround(material.occlusion_strength) &&
        a[23] === material.emissive[0] && a[24] === material.emissive[1] && a[25] === material.emissive[2] &&
        a[26] === Math.fround(material.transparency === "masked" ? material.alpha_cutoff : 0) &&
        a[27] === bits &&
        // a matrix set from outside: its version (as float32, exact up to 2^24 changes, then wrapping through the same test)
        a[20] === Math.fround(mesh.matrix_auto_update ? -1 : mesh.matrix_version % 16777216)
    );
}

function store_inputs(a: Float32Array, mesh: Mesh, material: StandardMaterial, bits: number): void {
    a.set(mesh.position, 0);
    a.set(mesh.rotation, 3);
    a.set(mesh.scale, 7);
    a.set(mesh.color, 10);
    a.set(material.base_color, 14);
    a[18] = material.roughness;
    a[19] = material.metalness;
    a[20] = mesh.matrix_auto_update ? -1 : mesh.matrix_version % 16777216;
    a[21] = material.normal_scale;
    a[22] = material.occlusion_strength;
    a.set(material.emissive, 23);
    a[26] = material.transparency === "masked" ? material.alpha_cutoff : 0;
    a[27] = bits;
}
