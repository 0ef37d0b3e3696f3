import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import type { Geometry } from "../geometry/Geometry.js";
import { GPUGeometryCache, type GPUGeometry } from "../mesh/GPUGeometryCache.js";
import type { Mesh } from "../scene/Mesh.js";
import type { MeshSkin } from "../scene/MeshSkin.js";
import type { Scene } from "../scene/Scene.js";
import type { SkinPaletteTable } from "../scene/SkinPaletteTable.js";
import { SKIN_BLEND_WGSL, SKINNING_WGSL, SKINNING_WORKGROUP } from "./skinning_wgsl.js";
import { SkinGroup } from "./SkinGroup.js";

/** Frames a skin may go undrawn before its buffers are freed (a mesh hidden for a moment keeps them). */
const KEEP_FRAMES = 120;

/** A geometry's skin attributes on the device: joints, then weights (4 floats a vertex each). */
interface SkinSource {
    readonly attributes: GPUBuffer;
    version: number;
}

/** One skinned mesh: its slot in a group and what the draws bind (the group's buffers at the slot's offset). */
interface SkinInstance {
    readonly skin: MeshSkin;
    mesh: Mesh;
    group: SkinGroup | null;
    slot: number;
    readonly output: GPUGeometry;
    /** The mesh's world matrix at its last skinning (NaN: never skinned). */
    readonly world: Float32Array;
    skinned_version: number;
    last_frame: number;
}

interface DeviceState {
    readonly device: GPUDevice;
    readonly pipeline: GPUComputePipeline;
    readonly layout: GPUBindGroupLayout;
    /** The blend of palettes from a table (`SKIN_BLEND_WGSL`). */
    readonly blend_pipeline: GPUComputePipeline;
    readonly blend_layout: GPUBindGroupLayout;
    /** Each palette table's copy on the device (uploaded once). */
    readonly tables: WeakMap<SkinPaletteTable, GPUBuffer>;
    readonly geometries: GPUGeometryCache;
    readonly sources: WeakMap<Geometry, SkinSource>;
    readonly instances: Map<MeshSkin, SkinInstance>;
    /** Per geometry, its groups (more than one when the instances outgrow one storage binding). */
    readonly groups: Map<Geometry, SkinGroup[]>;
    /** Groups with instances this frame, in first-use order (the first `active_count`; never shrunk: no garbage). */
    readonly active: SkinGroup[];
    active_count: number;
    frame: number;
}

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
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #descriptor: GPUComputePassDescriptor = { label: "skinning" };
    /** The device state the meshes were placed in at record (its `execute` skins them). */
    #placed: DeviceState | null = null;

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
    #place(state: DeviceState): void {
        const frame = ++state.frame;
        const active = state.active;
        state.active_count = 0;
        const instanced = this.instanced;
        for (let i = 0; i < this.#count; i++) {
            const mesh = this.#meshes[i];
            const instance = instance_for(state, mesh, frame);
            this.#instances[i] = instance;
            const group = group_for(state, mesh.geometry, mesh.skin!.joint_count, mesh.skin!.table);
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
            const skin = instance.skin;
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

    #state(device: GPUDevice): DeviceState {
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

function instance_for(state: DeviceState, mesh: Mesh, frame: number): SkinInstance {
    const skin = mesh.skin!;
    let instance = state.instances.get(skin);
    if (instance !== undefined && instance.last_frame === frame && instance.mesh !== mesh) {
        throw new Error(`MeshSkin '${skin.label}' is on two meshes this frame; each skinned mesh needs a skin of its own (its vertices are skinned into buffers of its own)`);
    }
    const geometry = mesh.geometry;
    if (geometry.attributes.joints === undefined || geometry.attributes.weights === undefined) {
        throw new Error(`MeshSkin '${skin.label}': the mesh's geometry has no joints and weights (a skinned mesh's geometry needs both)`);
    }
    // the geometry's GPU copy (uploaded if new or changed): the skinning's source, and the draws' uvs and indices
    const source = state.geometries.get(geometry, null);
    if (instance === undefined) {
        instance = {
            skin,
            mesh,
            group: null,
            slot: -1,
            // the positions and normals are pointed at the skin group's slot once placed (`SkinGroup.point`)
            output: { ...source, previous_position: source.position, position_offset: 0, previous_offset: 0, normal_offset: 0, skin_batch: null, skin_base: 0 },
            // NaN: never equal, so the first frame skins
            world: new Float32Array(16).fill(Number.NaN),
            skinned_version: -1,
            last_frame: 0,
        };
        state.instances.set(skin, instance);
        state.geometries.set_skinned(skin, instance.output);
    }
    instance.mesh = mesh;
    instance.last_frame = frame;
    share_geometry(instance.output, source);
    return instance;
}

// uvs, tangents, indices and levels of detail are the geometry's (re-uploads may replace its buffers); tangents are
// not skinned: a normal-mapped skinned mesh shades with its rest-pose tangents
function share_geometry(output: GPUGeometry, source: GPUGeometry): void {
    output.uv = source.uv;
    output.tangent = source.tangent;
    output.uv1 = source.uv1;
    output.index = source.index;
    output.position_index = source.position_index;
    output.surface_index = source.surface_index;
    output.flat = source.flat;
    output.index_format = source.index_format;
    output.index_count = source.index_count;
    output.detail_index = source.detail_index;
    output.levels = source.levels;
    output.level_first = source.level_first;
    output.level_count = source.level_count;
    output.level_screen = source.level_screen;
    output.detail_stamp = source.detail_stamp;
    output.version = source.version;
    output.vertex_count = source.vertex_count;
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

function table_buffer(state: DeviceState, table: SkinPaletteTable): GPUBuffer {
    let buffer = state.tables.get(table);
    if (buffer === undefined) {
        buffer = state.device.createBuffer({ label: `${table.label} (palette table)`, size: table.data.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        state.device.queue.writeBuffer(buffer, 0, table.data);
        state.tables.set(table, buffer);
    }
    return buffer;
}

// the first group of `geometry` (and palette table) with room this frame (a new one when all are full)
function group_for(state: DeviceState, geometry: Geometry, joint_count: number, table: SkinPaletteTable | null): SkinGroup {
    let groups = state.groups.get(geometry);
    if (groups === undefined) {
        groups = [];
        state.groups.set(geometry, groups);
    }
    for (let i = 0; i < groups.length; i++) {
        const group = groups[i];
        if (group.joint_count === joint_count && group.table === table && group.vertex_count === geometry.vertex_count && (group.frame !== state.frame || group.has_room())) return group;
    }
    const group = new SkinGroup(state.device, geometry, joint_count, table);
    groups.push(group);
    return group;
}

function source_for(state: DeviceState, geometry: Geometry): SkinSource {
    let source = state.sources.get(geometry);
    if (source !== undefined && source.version === geometry.version) return source;
    const joints = geometry.attributes.joints!.array;
    const weights = geometry.attributes.weights!.array;
    if (source === undefined || source.attributes.size < 2 * joints.byteLength) {
        source?.attributes.destroy();
        const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
        const size = Math.max(32, 2 * joints.byteLength);
        source = {
            attributes: state.device.createBuffer({ label: "geometry skin joints and weights", size, usage }),
            version: -1,
        };
        state.sources.set(geometry, source);
    }
    state.device.queue.writeBuffer(source.attributes, 0, joints);
    state.device.queue.writeBuffer(source.attributes, joints.byteLength, weights);
    source.version = geometry.version;
    return source;
}

// skins not drawn for a while let go of their slot (a removed character's within KEEP_FRAMES frames); groups
// with no instance for as long give their buffers back. forEach with module functions: no iterator objects
function sweep(state: DeviceState): void {
    state.instances.forEach(sweep_instance, state);
    state.groups.forEach(sweep_groups, state);
}

function sweep_instance(this: DeviceState, instance: SkinInstance): void {
    if (this.frame - instance.last_frame <= KEEP_FRAMES) return;
    this.instances.delete(instance.skin);
    this.geometries.set_skinned(instance.skin, null);
}

function sweep_groups(this: DeviceState, groups: SkinGroup[], geometry: Geometry): void {
    for (let i = groups.length - 1; i >= 0; i--) {
        if (this.frame - groups[i].frame > KEEP_FRAMES) {
            groups[i].destroy();
            groups.splice(i, 1);
        }
    }
    if (groups.length === 0) this.groups.delete(geometry);
}

function build_state(device: GPUDevice): DeviceState {
    const storage = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } });
    const layout = device.createBindGroupLayout({
        label: "skinning bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
            storage(1, "read-only-storage"),
            storage(2, "read-only-storage"),
            storage(3, "read-only-storage"),
            storage(4, "read-only-storage"),
            storage(6, "storage"),
            storage(7, "storage"),
            storage(8, "read-only-storage"),
            storage(9, "storage"),
        ],
    });
    const module = device.createShaderModule({ label: "skinning shader", code: SKINNING_WGSL });
    const pipeline = device.createComputePipeline({
        label: "skinning pipeline",
        layout: device.createPipelineLayout({ label: "skinning pipeline layout", bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: "cs_skin" },
    });
    const blend_layout = device.createBindGroupLayout({
        label: "skin blend bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
            storage(1, "storage"),
            storage(2, "read-only-storage"),
            storage(3, "read-only-storage"),
        ],
    });
    const blend_pipeline = device.createComputePipeline({
        label: "skin blend pipeline",
        layout: device.createPipelineLayout({ label: "skin blend pipeline layout", bindGroupLayouts: [blend_layout] }),
        compute: { module: device.createShaderModule({ label: "skin blend shader", code: SKIN_BLEND_WGSL }), entryPoint: "cs_blend" },
    });
    return { device, pipeline, layout, blend_pipeline, blend_layout, tables: new WeakMap(), geometries: GPUGeometryCache.of(device), sources: new WeakMap(), instances: new Map(), groups: new Map(), active: [], active_count: 0, frame: 0 };
}

