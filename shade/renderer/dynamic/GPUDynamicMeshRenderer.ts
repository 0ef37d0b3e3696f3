import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraph } from "../../device/graph/FrameGraph.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { DynamicMeshBatch } from "../scene/DynamicMeshBatch.js";
import { DynamicBuffer } from "./DynamicBuffer.js";
import { DynamicGeometryPool, type GeometrySlot } from "./DynamicGeometryPool.js";
import { DynamicMeshPipelines } from "./DynamicMeshPipelines.js";
import {
    MESH_RECORD_BYTES,
    MESH_RECORD_WORDS,
    RECORD_COLOR_BASE,
    RECORD_FIRST_INDEX,
    RECORD_INDEX_BASE,
    RECORD_POSITION_BASE,
} from "./dynamic_mesh.wgsl.js";

export interface GPUDynamicMeshRendererOptions {
    /** Names the pass (`"<label> / draw"`) and every GPU object. Default `"dynamic meshes"`. */
    readonly label?: string;
    /**
     * Default `"back"`: a closed translucent mesh blends one layer, not its far side as well. Ribbons and
     * other open, two-sided geometry want `"none"`.
     */
    readonly cull_mode?: GPUCullMode;
}

/** What `graph_draw` draws, and into what. */
export interface DynamicMeshDrawSpec {
    /** The frame's graph. */
    readonly graph: FrameGraph;
    readonly batch: DynamicMeshBatch;
    /** The colour to draw over (loaded, blended); its replacement is returned. */
    readonly color: FrameGraphHandle;
    /** The scene depth: tested against (`less`), never written. */
    readonly depth: FrameGraphHandle;
    /** A uniform buffer holding `CameraUniforms` (`frame.view.camera.buffer`). */
    readonly camera: GPUBuffer;
}

/** One recorded draw: the pass's data, reused frame to frame. */
interface DrawSlot {
    graph: FrameGraph | null;
    frame: number;
    batch: DynamicMeshBatch | null;
    camera: GPUBuffer | null;
    depth: FrameGraphHandle;
    output: FrameGraphHandle;
    color_format: GPUTextureFormat;
    depth_format: GPUTextureFormat;
}

const MESH_TABLE_MIN_RECORDS = 256;
const STORAGE = 0x0080; // GPUBufferUsage.STORAGE (spelled out: see DynamicBuffer)

/**
 * Draws batches of `DynamicMesh` whose vertices may change every frame (trails, ribbons, path tubes, debug
 * geometry) into the frame graph.
 *
 * `graph_draw` records one pass, `"<label> / draw"`, that draws the whole batch over the colour (loaded)
 * with premultiplied-over blending of straight-alpha colours, depth-tested against the scene depth without
 * writing it. The pass uploads before it draws, so an elided pass costs no upload either; flags of geometries
 * it did not upload stay set for the next frame that draws.
 *
 * The vertices are yours to rewrite; nothing watches the arrays. Only geometries whose `needsUpdate` was set
 * (or that this renderer has not seen before) are uploaded, and the flag is cleared. Per-mesh transform and
 * colour are read every frame. All meshes of one `graph_draw` are one draw call.
 *
 * How: every geometry the renderer draws lives in a pool of two storage buffers (`DynamicGeometryPool`: the
 * positions of all geometries in one, their colours and indices in the other; each a CPU mirror and a grow-only
 * GPU buffer, x2, shrunk by GPU-side compaction after sustained low use); small arrays are copied into the
 * mirror and go up in one `writeBuffer` per dirty range (rewritten positions of many geometries: one span of
 * exactly their bytes), large ones straight from their arrays. Each
 * draw writes a header and one record per mesh (transform, colour, where its geometry is) into a second
 * storage buffer (only the records that changed are uploaded), and one non-indexed draw covers the batch: the vertex shader finds its mesh by binary search
 * and pulls index, position and colour from the pool (`dynamic_mesh.wgsl.ts`). Pipelines are cached per
 * (device, colour format, depth format); the bind group is rebuilt only when a buffer was replaced or for a
 * camera buffer not seen before. Nothing is allocated per frame once warm.
 *
 * Per-frame state is keyed by (graph, `graph.frame_index`): a graph's frame is executed before another graph
 * records with the same renderer, as the renderer does it.
 *
 * GPU objects are built on first use on a device and rebuilt on a new one (a renderer restart): geometry is
 * then uploaded again from its arrays. `destroy()` releases everything; using the renderer after it throws.
 */
export class GPUDynamicMeshRenderer {
    readonly label: string;
    readonly cull_mode: GPUCullMode;
    readonly #pass_name: string;
    readonly #pool: DynamicGeometryPool;
    readonly #mesh_table: DynamicBuffer;
    #state: DynamicMeshPipelines | null = null;
    #destroyed = false;

    // per recorded draw, reused (like FullscreenEffect's slots)
    readonly #slots: DrawSlot[] = [];
    #slot_cursor = 0;
    #slot_graph: FrameGraph | null = null;
    #slot_frame = -1;

    // per executed frame
    #frame_graph: FrameGraph | null = null;
    #frame_index = -1;
    #frame = 0;
    #mesh_cursor = 0;
    #first_vertex = 0;
    #low_frames = 0;
    #peak_records = 0;

    // the draw prepared by #prepare
    #draw_first = 0;
    #draw_count = 0;
    #draw_header = 0;

    readonly #execute: (slot: DrawSlot, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #color_attachments: GPURenderPassColorAttachment[] = [];
    readonly #pass_descriptor: GPURenderPassDescriptor;

    constructor(options: GPUDynamicMeshRendererOptions = {}) {
        this.label = options.label ?? "dynamic meshes";
        this.cull_mode = options.cull_mode ?? "back";
        this.#pass_name = `${this.label} / draw`;
        this.#pool = new DynamicGeometryPool(this.label);
        this.#mesh_table = new DynamicBuffer(`${this.label} mesh table`, STORAGE, MESH_TABLE_MIN_RECORDS * MESH_RECORD_BYTES);
        this.#pass_descriptor = { label: this.#pass_name, colorAttachments: this.#color_attachments };
        this.#execute = (slot, resources, execution) => this.#execute_draw(slot, resources, execution);
    }

    /** Geometry uploads so far (each is one geometry's positions, colours and indices). */
    get upload_count(): number {
        return this.#pool.upload_count;
    }

    /** Geometries resident in the pool now. */
    get geometry_count(): number {
        return this.#pool.geometry_count;
    }

    /** Bytes of geometry pool, both regions (CPU mirrors; the GPU buffers match them). */
    get pool_capacity(): number {
        return this.#pool.capacity;
    }

    /**
     * Records the draw of `spec.batch` over `spec.color` and returns the colour's new handle. An empty batch
     * records nothing and returns `spec.color` itself.
     */
    graph_draw(spec: DynamicMeshDrawSpec): FrameGraphHandle {
        this.#expect_alive("graph_draw");
        const batch = spec.batch;
        if (batch.count === 0) return spec.color;
        const graph = spec.graph;
        const color_format = graph.describe(spec.color).format;
        const depth_format = graph.describe(spec.depth).format;
        if (!is_depth_format(depth_format)) {
            throw new Error(`${this.#pass_name}: depth ${graph.handle_name(spec.depth)} is ${depth_format}, not a depth format`);
        }
        if (!is_blendable(color_format)) {
            throw new Error(`${this.#pass_name}: colour ${graph.handle_name(spec.color)} is ${color_format}, which cannot be blended`);
        }
        const slot = this.#next_slot(graph);
        slot.batch = batch;
        slot.camera = spec.camera;
        slot.color_format = color_format;
        slot.depth_format = depth_format;
        const builder = graph.add(this.#pass_name, slot, this.#execute);
        slot.depth = builder.read(spec.depth);
        slot.output = builder.write(spec.color, "load");
        return slot.output;
    }

    /**
     * Uploads the geometries of `batch` that need it to `device` now, without drawing: what the draw pass
     * does first. For uploading ahead of time, and for timing the upload path on its own.
     */
    upload(device: GPUDevice, batch: DynamicMeshBatch): void {
        this.#expect_alive("upload");
        const pool = this.#pool;
        pool.begin_sync(device);
        const meshes = batch.meshes;
        for (let i = 0; i < meshes.length; i++) pool.sync(meshes[i].geometry, this.#frame);
        pool.flush(device);
    }

    /** Releases every GPU object and forgets all geometry. The renderer cannot be used afterwards. */
    destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        this.#pool.destroy();
        this.#mesh_table.destroy();
        this.#state = null;
        for (let i = 0; i < this.#slots.length; i++) {
            const slot = this.#slots[i];
            slot.graph = null;
            slot.batch = null;
            slot.camera = null;
        }
        this.#slots.length = 0;
        this.#slot_graph = null;
        this.#frame_graph = null;
        this.#color_attachments.length = 0;
        this.#pass_descriptor.depthStencilAttachment = undefined;
    }

    #expect_alive(what: string): void {
        if (this.#destroyed) {
            throw new Error(`GPUDynamicMeshRenderer '${this.label}': ${what} called after destroy(); build a new renderer`);
        }
    }

    #next_slot(graph: FrameGraph): DrawSlot {
        if (graph !== this.#slot_graph || graph.frame_index !== this.#slot_frame) {
            this.#slot_graph = graph;
            this.#slot_frame = graph.frame_index;
            this.#slot_cursor = 0;
        }
        let slot = this.#slots[this.#slot_cursor];
        if (slot === undefined) {
            slot = {
                graph: null,
                frame: -1,
                batch: null,
                camera: null,
                depth: -1,
                output: -1,
                color_format: "rgba8unorm",
                depth_format: "depth32float",
            };
            this.#slots.push(slot);
        }
        this.#slot_cursor++;
        slot.graph = graph;
        slot.frame = graph.frame_index;
        return slot;
    }

    #execute_draw(slot: DrawSlot, resources: FrameGraphResources, execution: FrameExecution): void {
        if (this.#destroyed) this.#expect_alive(`the pass '${this.#pass_name}'`); // the message only when it throws
        const device = execution.graphics;
        this.#begin_frame(slot.graph!, slot.frame, device);
        this.#prepare(device, slot.batch!);
        const state = this.#device_state(device);
        const pipeline = state.pipeline(slot.color_format, slot.depth_format);
        const pool = this.#pool;
        const bind_group = state.bind_group(slot.camera!, pool.attributes.buffer, pool.positions.buffer, this.#mesh_table);

        this.#color_attachments[0] = resources.color_attachment(slot.output);
        this.#pass_descriptor.depthStencilAttachment = resources.depth_attachment(slot.depth);
        this.#pass_descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#pass_descriptor);
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bind_group);
        if (this.#draw_count > 0) pass.draw(this.#draw_count, 1, this.#draw_first, this.#draw_header);
        pass.end();
    }

    // The first execute of a graph frame: buffers replaced last frame can go, unused geometry is released,
    // and the mesh table starts over.
    #begin_frame(graph: FrameGraph, frame_index: number, device: GPUDevice): void {
        if (graph === this.#frame_graph && frame_index === this.#frame_index) return;
        this.#frame_graph = graph;
        this.#frame_index = frame_index;
        this.#frame++;
        this.#pool.begin_frame(this.#frame, device);
        const table = this.#mesh_table;
        table.release_retired();
        const used = this.#peak_records * MESH_RECORD_BYTES;
        if (table.capacity > MESH_TABLE_MIN_RECORDS * MESH_RECORD_BYTES && used * 4 <= table.capacity) {
            if (++this.#low_frames >= DynamicGeometryPool.SHRINK_AFTER_FRAMES) {
                this.#low_frames = 0;
                table.resize(Math.max(MESH_TABLE_MIN_RECORDS, this.#peak_records * 2) * MESH_RECORD_BYTES);
            }
        } else {
            this.#low_frames = 0;
        }
        this.#peak_records = 0;
        this.#mesh_cursor = 0;
        this.#first_vertex = 0;
    }

    // Syncs the batch's geometry into the pool, writes its mesh records (a header, then one per mesh) and
    // uploads both; leaves the draw's range in #draw_*.
    #prepare(device: GPUDevice, batch: DynamicMeshBatch): void {
        const pool = this.#pool;
        const table = this.#mesh_table;
        const meshes = batch.meshes;
        const count = meshes.length;
        const header = this.#mesh_cursor;
        const end = header + 1 + count;
        table.reserve(end * MESH_RECORD_BYTES);
        const f32 = table.f32;
        const u32 = table.u32;
        // Records the GPU already holds are compared, not re-sent: meshes that neither moved nor changed
        // geometry (ribbons whose vertices alone are rewritten) upload no table bytes, so a position-only
        // frame uploads the position span and nothing else. Below `synced` the mirror matches the GPU.
        const synced = table.synced_bytes(device);
        pool.begin_sync(device);
        const first = this.#first_vertex;
        let vertex = first;
        for (let i = 0; i < count; i++) {
            const mesh = meshes[i];
            const slot = pool.sync(mesh.geometry, this.#frame);
            const record = header + 1 + i;
            if (write_record(f32, u32, record * MESH_RECORD_WORDS, mesh.world_matrix, mesh.color, vertex, slot) || record * MESH_RECORD_BYTES >= synced) {
                table.mark_dirty(record * MESH_RECORD_BYTES, (record + 1) * MESH_RECORD_BYTES);
            }
            vertex += slot.index_count;
        }
        const at = header * MESH_RECORD_WORDS;
        if (u32[at + RECORD_FIRST_INDEX] !== first || u32[at + RECORD_INDEX_BASE] !== count || header * MESH_RECORD_BYTES >= synced) {
            u32[at + RECORD_FIRST_INDEX] = first;
            u32[at + RECORD_INDEX_BASE] = count;
            table.mark_dirty(header * MESH_RECORD_BYTES, (header + 1) * MESH_RECORD_BYTES);
        }
        pool.flush(device);
        // records past this draw's end, from an earlier frame's later draws, still match the GPU: keep them synced
        table.flush(device, Math.max(end * MESH_RECORD_BYTES, table.synced_bytes(device)));
        this.#mesh_cursor = end;
        if (end > this.#peak_records) this.#peak_records = end;
        this.#first_vertex = vertex;
        this.#draw_first = first;
        this.#draw_count = vertex - first;
        this.#draw_header = header;
    }

    #device_state(device: GPUDevice): DynamicMeshPipelines {
        const current = this.#state;
        if (current !== null && current.device === device) return current;
        const state = new DynamicMeshPipelines(device, this.label, this.cull_mode);
        this.#state = state;
        return state;
    }
}

/**
 * Writes one mesh record into the table's mirror at word `at`; true when any word changed. Floats compare by
 * value: a NaN always reads as changed, and 0 and -0 as the same (they transform alike).
 */
function write_record(f32: Float32Array, u32: Uint32Array, at: number, matrix: Float32Array, color: Float32Array, first_index: number, slot: GeometrySlot): boolean {
    let changed = false;
    for (let k = 0; k < 16; k++) {
        if (f32[at + k] !== matrix[k]) {
            f32[at + k] = matrix[k];
            changed = true;
        }
    }
    for (let k = 0; k < 4; k++) {
        if (f32[at + 16 + k] !== color[k]) {
            f32[at + 16 + k] = color[k];
            changed = true;
        }
    }
    if (u32[at + RECORD_FIRST_INDEX] !== first_index || u32[at + RECORD_INDEX_BASE] !== slot.index_base || u32[at + RECORD_POSITION_BASE] !== slot.position_base || u32[at + RECORD_COLOR_BASE] !== slot.color_base) {
        u32[at + RECORD_FIRST_INDEX] = first_index;
        u32[at + RECORD_INDEX_BASE] = slot.index_base;
        u32[at + RECORD_POSITION_BASE] = slot.position_base;
        u32[at + RECORD_COLOR_BASE] = slot.color_base;
        changed = true;
    }
    return changed;
}

function is_depth_format(format: GPUTextureFormat): boolean {
    return format.startsWith("depth");
}

function is_blendable(format: GPUTextureFormat): boolean {
    return !format.includes("int") && !format.startsWith("depth") && !format.startsWith("stencil");
}
