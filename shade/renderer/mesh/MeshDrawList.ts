import { GBufferFlags } from "../extension/GBufferFlags.js";
import { texture_bits, write_object_data } from "./write_object_data.js";
import type { Geometry } from "../geometry/Geometry.js";
import type { Mesh } from "../scene/Mesh.js";
import type { MeshSkin } from "../scene/MeshSkin.js";
import type { Scene } from "../scene/Scene.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";
import { material_run_key } from "./material_variant.js";
import { MaterialWatch } from "./MaterialWatch.js";
import { MESH_INPUTS, same_inputs, same_mesh_inputs, store_inputs } from "./mesh_inputs.js";
import { BlendedMeshes } from "./BlendedMeshes.js";
import { DrawRecords, NEVER_DRAWN, RECORD_INTS } from "./DrawRecords.js";
import type { ObjectBuffer } from "./ObjectBuffer.js";
import { OBJECT_CASTS_SHADOWS } from "./mesh_wgsl.js";
import type { GPUGeometryCache } from "./GPUGeometryCache.js";
import type { SkinBatch } from "./skinned_vertices.js";

/**
 * Consecutive objects drawn by one instanced draw: one geometry, and materials that bind alike (`material` is the
 * first mesh's; untextured materials of one pipeline variant share runs, their values travel per object).
 */
export interface DrawRun {
    geometry: Geometry;
    /**
     * A skinned mesh's skin (the first mesh's, for a run of a skin batch), else null. A skinned run without a
     * `batch` holds one mesh, drawn from its own vertices.
     */
    skin: MeshSkin | null;
    /**
     * The skin batch of a run of skinned meshes drawn as one instanced draw, each pulling its vertices from the
     * batch's buffers at the base its object data holds; null for rigid runs and unbatched skinned meshes.
     */
    batch: SkinBatch | null;
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
 * The frame's mesh draws. Opaque meshes are sorted by how their material binds (`material_run_key`) then
 * geometry (only when the scene's membership changes) and written to the object buffer in that order, so runs
 * of meshes sharing a geometry become one instanced draw whatever their (untextured) materials. Frozen meshes
 * (`Mesh.frozen`) come first and are read again only when one reports a change or a material's values move: in
 * other frames their slots and runs are kept as they are, so the list costs CPU for the meshes not frozen.
 * Blended meshes follow, sorted back to front every frame, one draw each.
 */
export class MeshDrawList {
    readonly opaque_runs: DrawRun[] = [];
    opaque_run_count = 0;
    readonly blended_runs: DrawRun[] = [];
    blended_run_count = 0;
    /** Opaque runs of a skin batch this frame (each drawn by a pass's pulling pipelines). */
    batch_run_count = 0;

    // frozen opaque rigid meshes, then the rest (live), each sorted by run key then geometry; keys alongside
    readonly #frozen: Mesh[] = [];
    #frozen_keys = new Float64Array(64);
    readonly #live: Mesh[] = [];
    #live_keys = new Float64Array(64);
    #sorted_version = -1;
    #sorted_scene: Scene | null = null;
    readonly #materials = new MaterialWatch();
    // whether a watched material's values moved this frame: if not, a kept mesh compares only its own inputs
    #materials_moved = true;
    // the frozen part as last written: how many slots and runs, the build serial, whether it can be kept
    #frozen_build = 0;
    #frozen_valid = false;
    #frozen_slots = 0;
    #frozen_runs = 0;
    #frozen_seen = -1;
    #frozen_moved = false;
    #frozen_objects: ObjectBuffer | null = null;
    #frozen_writes = 0;
    #still_runs = 0;
    readonly #blended = new BlendedMeshes();
    // what each mesh's slot was last written from, by part (0 frozen, 1 live) and position in it; and the records
    // the next re-sort lays out into (swapped in then)
    #records: DrawRecords[] = [new DrawRecords(), new DrawRecords()];
    #spare: DrawRecords[] = [new DrawRecords(), new DrawRecords()];
    #build = 0;
    #moved = 0;
    // where skinned meshes' batches are found this build (null: every skinned mesh drawn alone)
    #geometries: GPUGeometryCache | null = null;
    #batch: SkinBatch | null = null;

    /**
     * Meshes drawn this frame whose world matrix differs from last frame's (a mesh not drawn last frame does
     * not count: it has no motion). What "TAA uses velocity when it pays" looks at.
     */
    get moved_count(): number {
        return this.#moved;
    }

    /**
     * Leading opaque runs whose every mesh is known still this frame (the frozen part, when none of it moved):
     * their motion is the camera's alone, which the velocity product's full-screen pass already writes, so its
     * mesh pass starts after them.
     */
    get still_runs(): number {
        return this.#still_runs;
    }

    /** Leading opaque runs that hold the frozen meshes (whether or not one moved this frame). */
    get frozen_runs(): number {
        return this.#frozen_runs;
    }

    /** Counts `build` calls: what was built from the list changes with it. */
    get build_serial(): number {
        return this.#build;
    }

    /** How many times the frozen meshes were read (not kept as they were); for tests and inspectors. */
    get frozen_writes(): number {
        return this.#frozen_writes;
    }

    /**
     * Fills `objects` with this frame's meshes and rebuilds the runs. `eye` is the camera position. With
     * `geometries`, skinned meshes the skinning step batched this frame (`GPUGeometry.skin_batch`) join runs of
     * their batch; without, each skinned mesh is a run of its own.
     */
    build(scene: Scene, objects: ObjectBuffer, eye: ArrayLike<number>, geometries: GPUGeometryCache | null = null): void {
        this.#geometries = geometries;
        const change = this.#materials.check();
        this.#materials_moved = change !== 0;
        if (change === 2 || scene !== this.#sorted_scene || scene.version !== this.#sorted_version) this.#sort(scene);
        objects.clear();
        this.#build++;
        this.#moved = 0;
        this.opaque_run_count = 0;
        this.batch_run_count = 0;
        this.#blended.clear();
        const keep =
            change === 0 &&
            this.#frozen_seen === scene.frozen_version &&
            this.#frozen_objects === objects &&
            !this.#frozen_moved &&
            this.#frozen_valid;
        if (keep) {
            // kept only when the last read moved nothing: every slot's last matrix is its matrix
            objects.keep_span(this.#frozen_slots);
            this.opaque_run_count = this.#frozen_runs;
            this.#still_runs = this.#frozen_runs;
        } else {
            this.#frozen_build++;
            this.#frozen_writes++;
            this.#add_opaque(this.#frozen, this.#frozen_keys, objects, true);
            this.#frozen_slots = objects.count;
            this.#frozen_runs = this.opaque_run_count;
            this.#frozen_moved = this.#moved > 0;
            this.#frozen_seen = scene.frozen_version;
            this.#frozen_objects = objects;
            this.#frozen_valid = true;
            this.#still_runs = this.#frozen_moved ? 0 : this.#frozen_runs;
        }
        this.#add_opaque(this.#live, this.#live_keys, objects, false);
        const blended = this.#blended;
        blended.sort_back_to_front(eye);
        this.blended_run_count = 0;
        const live = this.#records[1];
        for (let i = 0; i < blended.count; i++) {
            const mesh = blended.meshes[i];
            this.#run(this.blended_runs, this.blended_run_count++, mesh, this.#write(objects, mesh, live, blended.records[i], this.#build));
        }
    }

    // writes one part's opaque meshes (blended ones are gathered for sorting) and appends their runs; a run never
    // spans the two parts, so the frozen part's runs stay valid on their own
    #add_opaque(list: readonly Mesh[], keys: Float64Array, objects: ObjectBuffer, frozen: boolean): void {
        const serial = frozen ? this.#frozen_build : this.#build;
        const records = this.#records[frozen ? 0 : 1];
        let run: DrawRun | null = null;
        let run_key = 0;
        for (let i = 0; i < list.length; i++) {
            const mesh = list[i];
            if (!mesh.visible) continue;
            const key = keys[i];
            if (key < 0) {
                // sorted by the world position before it is written: derive this frame's now
                mesh.update_matrix();
                this.#blended.add(mesh, i);
                continue;
            }
            const slot = this.#write(objects, mesh, records, i, serial);
            // #write found the mesh's batch (null for a rigid or unbatched mesh)
            const batch = this.#batch;
            if (
                run !== null &&
                key === run_key &&
                run.geometry === mesh.geometry &&
                (mesh.skin === null ? run.skin === null : batch !== null && run.batch === batch)
            ) {
                run.count++;
            } else {
                run = this.#run(this.opaque_runs, this.opaque_run_count++, mesh, slot);
                run.batch = batch;
                if (batch !== null) this.batch_run_count++;
                run_key = key;
            }
        }
    }

    #run(runs: DrawRun[], index: number, mesh: Mesh, first: number): DrawRun {
        let run = runs[index];
        if (run === undefined) {
            run = { geometry: mesh.geometry, skin: mesh.skin, batch: null, material: mesh.material, first, count: 1 };
            runs.push(run);
        } else {
            run.geometry = mesh.geometry;
            run.skin = mesh.skin;
            run.batch = null;
            run.material = mesh.material;
            run.first = first;
            run.count = 1;
        }
        return run;
    }

    // writes one object's data (record `r` of `records` says what its slot was last written from); returns its
    // index. A mesh drawn by the previous build of its part in the same slot, not moving then and unchanged since
    // (transform, colours, material values, ids) keeps its slot as it is: no matrix work, nothing written, nothing
    // uploaded.
    #write(objects: ObjectBuffer, mesh: Mesh, records: DrawRecords, r: number, serial: number): number {
        const index = objects.count;
        const ints = records.ints;
        const q = r * RECORD_INTS;
        let batch: SkinBatch | null = null;
        let base = 0;
        if (mesh.skin !== null && this.#geometries !== null) {
            const skinned = this.#geometries.skinned(mesh.skin);
            if (skinned !== undefined && skinned.skin_batch !== null) {
                batch = skinned.skin_batch;
                base = skinned.skin_base;
            }
        }
        this.#batch = batch;
        const material = mesh.material;
        // kept by the material as its slots are assigned: two reads, no cache needed
        const bits = texture_bits(material);
        const flags =
            GBufferFlags.lit |
            (material.base_color_texture !== null ? GBufferFlags.textured : 0) |
            (mesh.receive_decals ? GBufferFlags.receives_decals : 0) |
            (mesh.cast_shadows ? OBJECT_CASTS_SHADOWS : 0);
        const drawn_last_frame = ints[q] !== NEVER_DRAWN && ints[q] === serial - 1;
        const inputs = records.inputs;
        const io = r * MESH_INPUTS;
        if (
            drawn_last_frame &&
            ints[q + 1] === index &&
            ints[q + 2] === 0 &&
            ints[q + 3] === mesh.object_id &&
            ints[q + 4] === material.id &&
            ints[q + 5] === flags &&
            ints[q + 6] === base &&
            (this.#materials_moved ? same_inputs(inputs, mesh, material, bits, io) : same_mesh_inputs(inputs, mesh, io))
        ) {
            objects.keep();
            // a skinned mesh moves with its skin (the velocity product reads its last positions): counted as moving
            if (mesh.skin !== null) this.#moved++;
            ints[q] = serial;
            return index;
        }
        mesh.update_matrix();
        const o = objects.push();
        const f = objects.floats;
        const u = objects.uints;
        write_object_data(f, u, o, mesh, bits);
        u[o + 38] = flags;
        // the normal matrix's first column's w: a batched skinned mesh's vertex base (skinned_vertices_wgsl)
        u[o + 19] = base;
        // last frame's matrix (this frame's if it was not drawn last frame), and this frame's kept for the next
        const p = records.matrices;
        const pm = r * 16;
        const at = o + 40;
        let moved = false;
        if (drawn_last_frame) {
            for (let k = 0; k < 16; k++) {
                const was = p[pm + k];
                // this frame's world matrix, as write_object_data just wrote it
                const is = f[o + k];
                f[at + k] = was;
                if (was !== is) moved = true;
                p[pm + k] = is;
            }
        } else {
            for (let k = 0; k < 16; k++) {
                const is = f[o + k];
                f[at + k] = is;
                p[pm + k] = is;
            }
        }
        if (moved || mesh.skin !== null) this.#moved++;
        ints[q] = serial;
        ints[q + 1] = index;
        ints[q + 2] = moved ? 1 : 0;
        ints[q + 3] = mesh.object_id;
        ints[q + 4] = material.id;
        ints[q + 5] = flags;
        ints[q + 6] = base;
        store_inputs(inputs, mesh, material, bits, io);
        return index;
    }

    #sort(scene: Scene): void {
        const frozen = this.#frozen;
        const live = this.#live;
        // where each mesh's record was (index * 2 + part), to carry it to its new position
        const where = new Map<Mesh, number>();
        for (let i = 0; i < frozen.length; i++) where.set(frozen[i], i * 2);
        for (let i = 0; i < live.length; i++) where.set(live[i], i * 2 + 1);
        frozen.length = 0;
        live.length = 0;
        const watch = this.#materials;
        watch.reset();
        for (let i = 0; i < scene.meshes.length; i++) {
            const mesh = scene.meshes[i];
            watch.watch(mesh.material);
            // blended and skinned meshes change every frame anyway (their order, their vertices)
            if (mesh.frozen && mesh.skin === null && mesh.material.transparency !== "blended") frozen.push(mesh);
            else live.push(mesh);
        }
        // each material's key worked out once (not once per comparison)
        const key_of = new Map<StandardMaterial, number>();
        for (let i = 0; i < scene.meshes.length; i++) {
            const material = scene.meshes[i].material;
            if (!key_of.has(material)) key_of.set(material, material_run_key(material));
        }
        // rigid meshes of a geometry before its skinned ones: each kind stays one run
        const order = (a: Mesh, b: Mesh): number =>
            key_of.get(a.material)! - key_of.get(b.material)! || geometry_key(a.geometry) - geometry_key(b.geometry) || (a.skin === null ? 0 : 1) - (b.skin === null ? 0 : 1);
        frozen.sort(order);
        live.sort(order);
        this.#frozen_keys = run_keys(frozen, this.#frozen_keys, key_of);
        this.#live_keys = run_keys(live, this.#live_keys, key_of);
        const old = this.#records;
        const records = this.#spare;
        records[0].remap(frozen, 0, where, old);
        records[1].remap(live, 1, where, old);
        this.#spare = old;
        this.#records = records;
        this.#sorted_scene = scene;
        this.#sorted_version = scene.version;
        // the slots may move: the frozen part is read again (each mesh still compared with what its slot holds)
        this.#frozen_valid = false;
    }
}

function run_keys(list: readonly Mesh[], keys: Float64Array<ArrayBuffer>, key_of: Map<StandardMaterial, number>): Float64Array<ArrayBuffer> {
    const out = keys.length >= list.length ? keys : new Float64Array(list.length * 2);
    for (let i = 0; i < list.length; i++) out[i] = key_of.get(list[i].material)!;
    return out;
}
