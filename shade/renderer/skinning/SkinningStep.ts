import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import type { Mesh } from "../scene/Mesh.js";
import type { MeshSkin } from "../scene/MeshSkin.js";
import type { Scene } from "../scene/Scene.js";
import { SKINNING_WORKGROUP } from "./skinning_wgsl.js";
import type { SkinGroup } from "./SkinGroup.js";
import { build_state, group_for, instance_for, source_for, sweep, table_buffer, type SkinningState, type SkinInstance } from "./SkinningState.js";

/**
 * Skins the scene's skinned meshes (`Mesh.skin`) on the GPU before anything draws them: a compute pass
 * ("skinning", first of the frame) writes each one's positions and normals, in the mesh's own space, which every
 * mesh pass then binds in place of the geometry's (`GPUGeometryCache.get(geometry, skin)`). Meshes sharing a
 * geometry are skinned together: their palettes go up in one `writeBuffer` and one dispatch skins them all into
 * one buffer (each at its offset), so a thousand characters cost a few calls, not thousands. A group is skinned
 * again only when one of its meshes' skin `version` or world matrix changed; last frame's positions are kept for
 * the velocity product. A skin with a `SkinPaletteTable` names frames and weights instead of matrices: its group's
 * palettes are blended from the table on the GPU in the same pass, before the skinning reads them. Allocates nothing
 * per frame once the groups' buffers exist.
 */
export class SkinningStep {
    readonly #meshes: Mesh[] = [];
    // each mesh's instance, as `#place` found it (execute points them without looking them up again)
    readonly #instances: SkinInstance[] = [];
    #count = 0;
    readonly #skinned: Mesh[] = [];
    #scanned_scene: Scene | null = null;
    #scanned_version = -1;
    readonly #per_device = new WeakMap<GPUDevice, SkinningState>();
    readonly #descriptor: GPUComputePassDescriptor = { label: "skinning" };
    /** The device state the meshes were placed in at record (its `execute` skins them). */
    #placed: SkinningState | null = null;

    /**
     * Whether the skinned meshes sharing a geometry are drawn as one instanced draw per mesh pass (each pulling its
     * vertices from the group's buffers at its own base: `GPUGeometry.skin_batch`), or each on its own. Default true.
     */
    instanced = true;

    /** Skinned meshes drawn last frame. */
    get skinned_count(): number {
        return this.#count;
    }

    record(frame: FrameContext, scene: Scene): void {
        // the scene's skinned meshes, found again only when its membership (or a mesh's skin) changes: a frame
        // walks those, not every mesh
        if (scene !== this.#scanned_scene || scene.version !== this.#scanned_version) this.#scan(scene);
        const meshes = this.#skinned;
        let count = 0;
        for (let i = 0; i < meshes.length; i++) {
            const mesh = meshes[i];
            if (mesh.skin === null || !mesh.visible) continue;
            this.#meshes[count++] = mesh;
        }
        for (let i = count; i < this.#count; i++) {
            this.#meshes[i] = null as unknown as Mesh;
            this.#instances[i] = null as unknown as SkinInstance;
        }
        this.#count = count;
        if (count === 0) return;
        // slots are handed out now, so the passes that build draw lists this frame (G-buffer, shadows) know each
        // mesh's batch and vertex base
        this.#place(this.#state(frame.device));
        frame.graph.add("skinning", this, execute_skinning).make_side_effect();
    }

    // each mesh to its group's next slot; a mesh whose slot changed (membership changed) has no last positions
    #place(state: SkinningState): void {
        const frame = ++state.frame;
        const active = state.active;
        state.active_count = 0;
        const instanced = this.instanced;
        // a crowd's meshes come in runs of one geometry and table: the last group found is asked first
        let last: SkinGroup | null = null;
        for (let i = 0; i < this.#count; i++) {
            const mesh = this.#meshes[i];
            const instance = instance_for(state, mesh, frame);
            this.#instances[i] = instance;
            const skin = instance.skin;
            const group: SkinGroup =
                last !== null && last.geometry === mesh.geometry && last.joint_count === skin.joint_count && last.table === skin.table && last.vertex_count === mesh.geometry.vertex_count && last.has_room()
                    ? last
                    : group_for(state, mesh.geometry, skin.joint_count, skin.table);
            last = group;
            if (group.frame !== frame) {
                group.begin_frame(frame);
                active[state.active_count++] = group;
            }
            const slot = group.add();
            const relocated = instance.group !== group || instance.slot !== slot;
            instance.group = group;
            instance.slot = slot;
            instance.output.skin_batch = instanced ? group : null;
            instance.output.skin_base = slot * group.vertex_count;
            mesh.update_matrix();
            // a skin in the mesh's space is skinned again only when its matrices change: the draws place it
            const world = skin.space === "world";
            if (relocated || skin.version !== instance.skinned_version || (world && !same_matrix(instance.world, mesh.world_matrix))) {
                if (world) instance.world.set(mesh.world_matrix);
                if (skin.table !== null) group.write_blend(slot, checked_blend(skin), relocated);
                else group.write_palette(slot, world ? mesh.world_matrix : null, skin.matrices, relocated);
                instance.skinned_version = skin.version;
            }
        }
        this.#placed = state;
    }

    #scan(scene: Scene): void {
        const skinned = this.#skinned;
        skinned.length = 0;
        for (let i = 0; i < scene.meshes.length; i++) if (scene.meshes[i].skin !== null) skinned.push(scene.meshes[i]);
        this.#scanned_scene = scene;
        this.#scanned_version = scene.version;
    }

    /** @internal */
    execute(execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        // placed at record for another device (a restart between record and run): placed again here
        if (this.#placed !== state) this.#place(state);
        this.#placed = null;
        const frame = state.frame;
        const active = state.active;
        const queue = device.queue;
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginComputePass(this.#descriptor);
        for (let g = 0; g < state.active_count; g++) {
            const group = active[g];
            if (!group.dirty) continue;
            group.upload(queue);
            // palettes picked from a table are blended here first (the next dispatch reads them: WebGPU orders
            // a pass's dispatches)
            if (group.table !== null) {
                pass.setPipeline(state.blend_pipeline);
                pass.setBindGroup(0, group.blend_bind_group(state.blend_layout, table_buffer(state, group.table)));
                pass.dispatchWorkgroups(((group.stride + SKINNING_WORKGROUP - 1) / SKINNING_WORKGROUP) | 0, group.count);
            }
            pass.setPipeline(state.pipeline);
            const source = state.geometries.get(group.geometry, null);
            pass.setBindGroup(0, group.bind_group(state.layout, source, source_for(state, group.geometry)));
            pass.dispatchWorkgroups(((group.vertex_count + SKINNING_WORKGROUP - 1) / SKINNING_WORKGROUP) | 0, group.count);
            group.flip();
        }
        pass.end();
        for (let i = 0; i < this.#count; i++) {
            const instance = this.#instances[i];
            instance.group!.point(instance.output, instance.slot);
        }
        if ((frame & 63) === 0) sweep(state);
    }

    #state(device: GPUDevice): SkinningState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_state(device);
            this.#per_device.set(device, state);
        }
        return state;
    }
}

function execute_skinning(step: SkinningStep, resources: FrameGraphResources, execution: FrameExecution): void {
    void resources;
    step.execute(execution);
}

function same_matrix(a: Float32Array, b: ArrayLike<number>): boolean {
    for (let k = 0; k < 16; k++) if (a[k] !== b[k]) return false;
    return true;
}

// a skin's blend record, its frames checked against its table (a frame past the table would read another's)
function checked_blend(skin: MeshSkin): Float32Array {
    const blend = skin.blend;
    const frames = skin.table!.frames;
    for (let k = 0; k < 4; k++) {
        const f = blend[k];
        if (!(f >= 0 && f < frames && f === Math.floor(f))) {
            throw new RangeError(`MeshSkin '${skin.label}': blend frame ${k} is ${f}; its table '${skin.table!.label}' has frames 0..${frames - 1} (whole numbers)`);
        }
    }
    return blend;
}
