import { mat4 } from "gl-matrix";
import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import type { Geometry } from "../geometry/Geometry.js";
import { GPUGeometryCache, type GPUGeometry } from "../mesh/GPUGeometryCache.js";
import type { Mesh } from "../scene/Mesh.js";
import type { MeshSkin } from "../scene/MeshSkin.js";
import type { Scene } from "../scene/Scene.js";
import { PALETTE_HEADER_BYTES, SKINNING_WGSL, SKINNING_WORKGROUP } from "./skinning_wgsl.js";

/** Frames a skin may go undrawn before its buffers are freed (a mesh hidden for a moment keeps them). */
const KEEP_FRAMES = 120;

/** A geometry's skin attributes on the device (joints and weights, 4 floats a vertex each). */
interface SkinSource {
    readonly joints: GPUBuffer;
    readonly weights: GPUBuffer;
    version: number;
}

/** One skinned mesh's buffers: its palette, two position buffers (this frame's and last frame's) and normals. */
interface SkinEntry {
    readonly skin: MeshSkin;
    readonly mesh: Mesh;
    readonly geometry: Geometry;
    readonly vertex_count: number;
    readonly palette: GPUBuffer;
    readonly scratch: Float32Array;
    readonly scratch_u32: Uint32Array;
    readonly inverse_world: Float32Array;
    readonly positions: readonly [GPUBuffer, GPUBuffer];
    readonly normal: GPUBuffer;
    /** What the draws bind: uvs and indices of the geometry's own buffers, positions and normals skinned. */
    readonly output: GPUGeometry;
    /** Bind groups writing positions[0] and positions[1]; rebuilt when the source buffers change. */
    readonly groups: [GPUBindGroup | null, GPUBindGroup | null];
    group_source: GPUBuffer | null;
    group_joints: GPUBuffer | null;
    current: number;
    skinned_version: number;
    readonly world: Float32Array;
    last_frame: number;
}

interface DeviceState {
    readonly pipeline: GPUComputePipeline;
    readonly layout: GPUBindGroupLayout;
    readonly geometries: GPUGeometryCache;
    readonly sources: WeakMap<Geometry, SkinSource>;
    readonly entries: Map<MeshSkin, SkinEntry>;
    frame: number;
}

/**
 * Skins the scene's skinned meshes (`Mesh.skin`) on the GPU before anything draws them: a compute pass
 * ("skinning", first of the frame) writes each one's positions and normals, in the mesh's own space, into buffers
 * of its own, which every mesh pass then binds in place of the geometry's (`GPUGeometryCache.get(geometry, skin)`).
 * A mesh is skinned again only when its skin's `version` or its world matrix changed; last frame's positions are
 * kept for the velocity product. Allocates nothing per frame once a mesh's buffers exist.
 */
export class SkinningStep {
    readonly #meshes: Mesh[] = [];
    #count = 0;
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #descriptor: GPUComputePassDescriptor = { label: "skinning" };

    /** Skinned meshes drawn last frame. */
    get skinned_count(): number {
        return this.#count;
    }

    record(frame: FrameContext, scene: Scene): void {
        const meshes = scene.meshes;
        let count = 0;
        for (let i = 0; i < meshes.length; i++) {
            const mesh = meshes[i];
            if (mesh.skin === null || !mesh.visible) continue;
            this.#meshes[count++] = mesh;
        }
        for (let i = count; i < this.#count; i++) this.#meshes[i] = null as unknown as Mesh;
        this.#count = count;
        if (count === 0) return;
        frame.graph.add("skinning", this, execute_skinning).make_side_effect();
    }

    /** @internal */
    execute(execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        const frame = ++state.frame;
        const queue = device.queue;
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginComputePass(this.#descriptor);
        pass.setPipeline(state.pipeline);
        for (let i = 0; i < this.#count; i++) {
            const mesh = this.#meshes[i];
            const entry = entry_for(device, state, mesh, frame);
            const skin = entry.skin;
            mesh.update_matrix();
            const moved = !same_matrix(entry.world, mesh.world_matrix);
            if (skin.version !== entry.skinned_version || moved) {
                entry.world.set(mesh.world_matrix);
                if (mat4.invert(entry.inverse_world, mesh.world_matrix) === null) mat4.identity(entry.inverse_world);
                entry.scratch.set(skin.matrices, PALETTE_HEADER_BYTES / 4);
                queue.writeBuffer(entry.palette, 0, entry.scratch);
                const next = 1 - entry.current;
                pass.setBindGroup(0, group_for(device, state, entry, next));
                pass.dispatchWorkgroups(((entry.vertex_count + SKINNING_WORKGROUP - 1) / SKINNING_WORKGROUP) | 0);
                entry.output.previous_position = entry.positions[entry.current];
                entry.current = next;
                entry.output.position = entry.positions[next];
                entry.skinned_version = skin.version;
            } else {
                // still: no motion this frame
                entry.output.previous_position = entry.output.position;
            }
        }
        pass.end();
        if ((frame & 63) === 0) sweep(state, frame);
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

function entry_for(device: GPUDevice, state: DeviceState, mesh: Mesh, frame: number): SkinEntry {
    const skin = mesh.skin!;
    let entry = state.entries.get(skin);
    if (entry !== undefined && entry.last_frame === frame && entry.mesh !== mesh) {
        throw new Error(`MeshSkin '${skin.label}' is on two meshes this frame; each skinned mesh needs a skin of its own (its vertices are skinned into buffers of its own)`);
    }
    // the geometry's GPU copy (uploaded if new or changed): the skinning's source positions and normals
    const source = state.geometries.get(mesh.geometry, null);
    if (entry !== undefined && (entry.mesh !== mesh || entry.geometry !== mesh.geometry || entry.vertex_count !== source.vertex_count)) {
        destroy_entry(state, entry);
        entry = undefined;
    }
    if (entry === undefined) entry = make_entry(device, state, mesh, source);
    entry.last_frame = frame;
    // uvs and indices are the geometry's (re-uploads may replace its buffers)
    const output = entry.output;
    output.uv = source.uv;
    output.tangent = source.tangent;
    output.uv1 = source.uv1;
    output.index = source.index;
    output.index_format = source.index_format;
    output.index_count = source.index_count;
    output.version = source.version;
    return entry;
}

function make_entry(device: GPUDevice, state: DeviceState, mesh: Mesh, source: GPUGeometry): SkinEntry {
    const skin = mesh.skin!;
    const geometry = mesh.geometry;
    if (geometry.attributes.joints === undefined || geometry.attributes.weights === undefined) {
        throw new Error(`MeshSkin '${skin.label}': the mesh's geometry has no joints and weights (a skinned mesh's geometry needs both)`);
    }
    const vertex_count = source.vertex_count;
    const bytes = Math.max(16, vertex_count * 12);
    const usage = GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE;
    const palette_bytes = PALETTE_HEADER_BYTES + skin.joint_count * 64;
    const scratch = new Float32Array(palette_bytes / 4);
    const scratch_u32 = new Uint32Array(scratch.buffer);
    scratch_u32[0] = vertex_count;
    const positions: [GPUBuffer, GPUBuffer] = [
        device.createBuffer({ label: `${skin.label} skinned positions A`, size: bytes, usage }),
        device.createBuffer({ label: `${skin.label} skinned positions B`, size: bytes, usage }),
    ];
    const normal = device.createBuffer({ label: `${skin.label} skinned normals`, size: bytes, usage });
    const entry: SkinEntry = {
        skin,
        mesh,
        geometry,
        vertex_count,
        palette: device.createBuffer({ label: `${skin.label} joint palette`, size: palette_bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }),
        scratch,
        scratch_u32,
        inverse_world: new Float32Array(scratch.buffer, 16, 16),
        positions,
        normal,
        output: {
            position: positions[0],
            previous_position: positions[0],
            normal,
            uv: source.uv,
            // tangents are not skinned: a normal-mapped skinned mesh shades with its rest-pose tangents
            tangent: source.tangent,
            uv1: source.uv1,
            index: source.index,
            index_format: source.index_format,
            index_count: source.index_count,
            version: source.version,
            vertex_count,
        },
        groups: [null, null],
        group_source: null,
        group_joints: null,
        current: 0,
        skinned_version: -1,
        // NaN: never equal, so the first frame skins
        world: new Float32Array(16).fill(Number.NaN),
        last_frame: 0,
    };
    state.entries.set(skin, entry);
    state.geometries.set_skinned(skin, entry.output);
    return entry;
}

function source_for(device: GPUDevice, state: DeviceState, geometry: Geometry): SkinSource {
    let source = state.sources.get(geometry);
    if (source !== undefined && source.version === geometry.version) return source;
    const joints = geometry.attributes.joints!.array;
    const weights = geometry.attributes.weights!.array;
    if (source === undefined || source.joints.size < joints.byteLength) {
        source?.joints.destroy();
        source?.weights.destroy();
        const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
        const size = Math.max(16, joints.byteLength);
        source = {
            joints: device.createBuffer({ label: "geometry skin joints", size, usage }),
            weights: device.createBuffer({ label: "geometry skin weights", size, usage }),
            version: -1,
        };
        state.sources.set(geometry, source);
    }
    device.queue.writeBuffer(source.joints, 0, joints);
    device.queue.writeBuffer(source.weights, 0, weights);
    source.version = geometry.version;
    return source;
}

function group_for(device: GPUDevice, state: DeviceState, entry: SkinEntry, target: number): GPUBindGroup {
    const geometry = state.geometries.get(entry.geometry, null);
    const source = source_for(device, state, entry.geometry);
    if (entry.group_source !== geometry.position || entry.group_joints !== source.joints) {
        entry.groups[0] = null;
        entry.groups[1] = null;
        entry.group_source = geometry.position;
        entry.group_joints = source.joints;
    }
    let group = entry.groups[target];
    if (group === null) {
        group = device.createBindGroup({
            label: `${entry.skin.label} skinning bind group ${target === 0 ? "A" : "B"}`,
            layout: state.layout,
            entries: [
                { binding: 0, resource: { buffer: entry.palette } },
                { binding: 1, resource: { buffer: geometry.position } },
                { binding: 2, resource: { buffer: geometry.normal } },
                { binding: 3, resource: { buffer: source.joints } },
                { binding: 4, resource: { buffer: source.weights } },
                { binding: 5, resource: { buffer: entry.positions[target] } },
                { binding: 6, resource: { buffer: entry.normal } },
            ],
        });
        entry.groups[target] = group;
    }
    return group;
}

function destroy_entry(state: DeviceState, entry: SkinEntry): void {
    state.entries.delete(entry.skin);
    state.geometries.set_skinned(entry.skin, null);
    entry.palette.destroy();
    entry.positions[0].destroy();
    entry.positions[1].destroy();
    entry.normal.destroy();
}

// skins not drawn for a while give their buffers back (a removed character's go within KEEP_FRAMES frames)
function sweep(state: DeviceState, frame: number): void {
    for (const entry of state.entries.values()) if (frame - entry.last_frame > KEEP_FRAMES) destroy_entry(state, entry);
}

function build_state(device: GPUDevice): DeviceState {
    const storage = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } });
    const layout = device.createBindGroupLayout({
        label: "skinning bind group layout",
        entries: [
            storage(0, "read-only-storage"),
            storage(1, "read-only-storage"),
            storage(2, "read-only-storage"),
            storage(3, "read-only-storage"),
            storage(4, "read-only-storage"),
            storage(5, "storage"),
            storage(6, "storage"),
        ],
    });
    const module = device.createShaderModule({ label: "skinning shader", code: SKINNING_WGSL });
    const pipeline = device.createComputePipeline({
        label: "skinning pipeline",
        layout: device.createPipelineLayout({ label: "skinning pipeline layout", bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: "cs_skin" },
    });
    return { pipeline, layout, geometries: GPUGeometryCache.of(device), sources: new WeakMap(), entries: new Map(), frame: 0 };
}
