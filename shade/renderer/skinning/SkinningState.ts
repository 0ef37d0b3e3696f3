import type { Geometry } from "../geometry/Geometry.js";
import { GPUGeometryCache, type GPUGeometry } from "../mesh/GPUGeometryCache.js";
import type { Mesh } from "../scene/Mesh.js";
import type { MeshSkin } from "../scene/MeshSkin.js";
import type { SkinPaletteTable } from "../scene/SkinPaletteTable.js";
import { SKIN_BLEND_WGSL, SKINNING_WGSL } from "./skinning_wgsl.js";
import { SkinGroup } from "./SkinGroup.js";

// The skinning step's state on one device: its pipelines, each skinned mesh's instance (slot, output geometry),
// the groups that skin meshes of one geometry together, the skin attributes and palette tables uploaded, and the
// sweep that lets go of what went undrawn.

/** Frames a skin may go undrawn before its buffers are freed (a mesh hidden for a moment keeps them). */
const KEEP_FRAMES = 120;

/** @internal A geometry's skin attributes on the device: joints, then weights (4 floats a vertex each). */
export interface SkinSource {
    readonly attributes: GPUBuffer;
    version: number;
}

/** @internal One skinned mesh: its slot in a group and what the draws bind (the group's buffers at the slot's offset). */
export interface SkinInstance {
    readonly skin: MeshSkin;
    mesh: Mesh;
    group: SkinGroup | null;
    slot: number;
    readonly output: GPUGeometry;
    /** The mesh's world matrix at its last skinning (NaN: never skinned). */
    readonly world: Float32Array;
    skinned_version: number;
    last_frame: number;
    /** The geometry entry `output` last shared buffers with, and the geometry's version and detail stamp then. */
    shared: GPUGeometry | null;
    shared_version: number;
    shared_detail: number;
}

/** @internal The skinning step's state on one device. */
export interface SkinningState {
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

/** @internal One skinned mesh's instance on `state` (made on first sight), its output sharing the geometry's current buffers. */
export function instance_for(state: SkinningState, mesh: Mesh, frame: number): SkinInstance {
    const skin = mesh.skin!;
    // the record kept on the skin while this state is the last that skinned it (a map lookup per mesh spared)
    let instance = skin.skinning_owner === state ? (skin.skinning_record as SkinInstance) : state.instances.get(skin);
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
            shared: null,
            shared_version: -1,
            shared_detail: -1,
        };
        state.instances.set(skin, instance);
        state.geometries.set_skinned(skin, instance.output);
    }
    instance.mesh = mesh;
    instance.last_frame = frame;
    if (skin.skinning_owner !== state) {
        skin.skinning_owner = state;
        skin.skinning_record = instance;
    }
    // the cache changes an entry in place only with the geometry's version or detail stamp
    if (instance.shared !== source || instance.shared_version !== geometry.version || instance.shared_detail !== geometry.detail_stamp) {
        share_geometry(instance.output, source);
        instance.shared = source;
        instance.shared_version = geometry.version;
        instance.shared_detail = geometry.detail_stamp;
    }
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

/** @internal A palette table's copy on the device (uploaded once). */
export function table_buffer(state: SkinningState, table: SkinPaletteTable): GPUBuffer {
    let buffer = state.tables.get(table);
    if (buffer === undefined) {
        buffer = state.device.createBuffer({ label: `${table.label} (palette table)`, size: table.data.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        state.device.queue.writeBuffer(buffer, 0, table.data);
        state.tables.set(table, buffer);
    }
    return buffer;
}

/** @internal The first group of `geometry` (and palette table) with room this frame (a new one when all are full). */
export function group_for(state: SkinningState, geometry: Geometry, joint_count: number, table: SkinPaletteTable | null): SkinGroup {
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

/** @internal A geometry's skin attributes on the device, uploaded again when its version moved. */
export function source_for(state: SkinningState, geometry: Geometry): SkinSource {
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

/**
 * @internal Skins not drawn for a while let go of their slot (a removed character's within KEEP_FRAMES frames);
 * groups with no instance for as long give their buffers back.
 */
// forEach with module functions: no iterator objects
export function sweep(state: SkinningState): void {
    state.instances.forEach(sweep_instance, state);
    state.groups.forEach(sweep_groups, state);
}

function sweep_instance(this: SkinningState, instance: SkinInstance): void {
    if (this.frame - instance.last_frame <= KEEP_FRAMES) return;
    this.instances.delete(instance.skin);
    this.geometries.set_skinned(instance.skin, null);
    if (instance.skin.skinning_owner === this) {
        instance.skin.skinning_owner = null;
        instance.skin.skinning_record = null;
    }
}

function sweep_groups(this: SkinningState, groups: SkinGroup[], geometry: Geometry): void {
    for (let i = groups.length - 1; i >= 0; i--) {
        if (this.frame - groups[i].frame > KEEP_FRAMES) {
            groups[i].destroy();
            groups.splice(i, 1);
        }
    }
    if (groups.length === 0) this.groups.delete(geometry);
}

/** @internal The pipelines and empty tables of a device. */
export function build_state(device: GPUDevice): SkinningState {
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

