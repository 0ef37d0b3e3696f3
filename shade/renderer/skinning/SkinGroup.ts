import { mat4 } from "gl-matrix";
import type { Geometry } from "../geometry/Geometry.js";
import type { SkinPaletteTable } from "../scene/SkinPaletteTable.js";
import type { GPUGeometry } from "../mesh/GPUGeometryCache.js";
import { skinned_vertices_layout, type SkinBatch } from "../mesh/skinned_vertices.js";

/**
 * @internal The skinned meshes of one geometry skinned together: their palettes (each mesh's inverse world
 * matrix, then its joint matrices) in one buffer with a CPU mirror, their skinned positions in two buffers (this
 * frame's and last frame's, swapped when the group is skinned) and normals in one, each mesh's vertices at
 * `slot * vertex_count`. Slots are handed out afresh every frame in draw order; a mesh whose slot changed has no
 * last positions (no motion for that frame: the skinning writes its positions to both buffers). Grows by doubling up
 * to what one storage binding holds. As a `SkinBatch`, mesh passes draw its meshes as one instanced draw.
 */
export class SkinGroup implements SkinBatch {
    readonly geometry: Geometry;
    readonly vertex_count: number;
    readonly joint_count: number;
    /** The palette table its skins pick from (their palettes are blended on the GPU), or null: palettes written. */
    readonly table: SkinPaletteTable | null;
    /** Matrices per slot in the palette: the inverse world, then the joints. */
    readonly stride: number;
    /** The most slots one group holds (a storage binding's limit). */
    readonly max_slots: number;
    /** Slots in use this frame. */
    count = 0;
    /** The frame the group was last used in (-1: never). */
    frame = -1;
    /** Some slot's palette changed this frame: the group is skinned. */
    dirty = false;
    readonly #device: GPUDevice;
    static readonly #inverse = mat4.create();
    #capacity = 0;
    #mirror = new Float32Array(0);
    #palette: GPUBuffer | null = null;
    readonly #params: GPUBuffer;
    #positions: [GPUBuffer, GPUBuffer] | null = null;
    #normals: GPUBuffer | null = null;
    #current = 0;
    #skinned = false;
    // dirty palette slots [low, high]
    #low = 0;
    #high = -1;
    // per slot: the frame it took a new owner (its last positions are another mesh's); uploaded with the palettes
    #fresh = new Uint32Array(0);
    #fresh_buffer: GPUBuffer | null = null;
    // palette writes not uploaded yet (a frame recorded but not run keeps them for the next)
    #pending = false;
    readonly #params_data: Uint32Array;
    // the draws' bind groups of the vertices: [current A or B] x [skinned this frame or not]
    readonly #vertex_groups: (GPUBindGroup | null)[] = [null, null, null, null];
    readonly #groups: [GPUBindGroup | null, GPUBindGroup | null] = [null, null];
    #group_source: GPUBuffer | null = null;
    #group_attributes: GPUBuffer | null = null;
    // with a table: per slot four frames (u32) and four weights (f32 bits), uploaded in place of palettes
    #blend_words = new Uint32Array(0);
    #blend_weights = new Float32Array(0);
    #blend_buffer: GPUBuffer | null = null;
    #blend_group: GPUBindGroup | null = null;
    #blend_group_table: GPUBuffer | null = null;

    constructor(device: GPUDevice, geometry: Geometry, joint_count: number, table: SkinPaletteTable | null = null) {
        this.#device = device;
        this.geometry = geometry;
        this.vertex_count = geometry.vertex_count;
        this.joint_count = joint_count;
        this.table = table;
        this.stride = joint_count + 1;
        const limit = device.limits.maxStorageBufferBindingSize;
        this.max_slots = Math.max(1, Math.min(Math.floor(limit / Math.max(12, this.vertex_count * 12)), Math.floor(limit / (this.stride * 64))));
        this.#params = device.createBuffer({ label: "skin group params", size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        // the w word: the frame being skinned (slots whose `fresh` equals it write last frame's positions too)
        this.#params_data = new Uint32Array([this.vertex_count, joint_count, this.stride, 0]);
    }

    has_room(): boolean {
        return this.count < this.max_slots;
    }

    begin_frame(frame: number): void {
        this.frame = frame;
        this.count = 0;
        this.#skinned = false;
        if (this.#pending) return;
        this.dirty = false;
        this.#low = 0x3fffffff;
        this.#high = -1;
    }

    /** The next slot this frame. */
    add(): number {
        const slot = this.count++;
        if (slot >= this.#capacity) this.#grow(Math.min(this.max_slots, Math.max(4, this.#capacity * 2)));
        return slot;
    }

    /**
     * Writes a slot's palette: the inverse of `world` (identity for null: joints already in the mesh's space), then
     * `joints`; `relocated`: the slot has a new owner.
     */
    write_palette(slot: number, world: mat4 | Float32Array | null, joints: Float32Array, relocated: boolean): void {
        const base = slot * this.stride * 16;
        const inverse = SkinGroup.#inverse;
        if (world === null || mat4.invert(inverse, world) === null) mat4.identity(inverse);
        this.#mirror.set(inverse, base);
        this.#mirror.set(joints, base + 16);
        if (relocated) this.#fresh[slot] = this.frame;
        if (slot < this.#low) this.#low = slot;
        if (slot > this.#high) this.#high = slot;
        this.dirty = true;
        this.#pending = true;
    }

    /** With a table: writes a slot's blend record (`MeshSkin.blend`: four frames, four weights). */
    write_blend(slot: number, blend: Float32Array, relocated: boolean): void {
        const o = slot * 8;
        const words = this.#blend_words;
        const weights = this.#blend_weights;
        for (let k = 0; k < 4; k++) {
            words[o + k] = blend[k];
            weights[o + 4 + k] = blend[4 + k];
        }
        if (relocated) this.#fresh[slot] = this.frame;
        if (slot < this.#low) this.#low = slot;
        if (slot > this.#high) this.#high = slot;
        this.dirty = true;
        this.#pending = true;
    }

    /**
     * Uploads what was written this frame (one `writeBuffer`: the palettes, or with a table the blend records),
     * the span's fresh marks and the frame.
     */
    upload(queue: GPUQueue): void {
        const low = this.#low;
        const count = this.#high - low + 1;
        if (this.table !== null) queue.writeBuffer(this.#blend_buffer!, low * 32, this.#blend_words, low * 8, count * 8);
        else {
            const floats = this.stride * 16;
            queue.writeBuffer(this.#palette!, low * floats * 4, this.#mirror, low * floats, count * floats);
        }
        queue.writeBuffer(this.#fresh_buffer!, low * 4, this.#fresh, low, count);
        this.#params_data[3] = this.frame;
        queue.writeBuffer(this.#params, 0, this.#params_data);
        this.#pending = false;
    }

    /** The bind group skinning into the buffer that becomes current after `flip()`. */
    bind_group(layout: GPUBindGroupLayout, source: GPUGeometry, skin: { attributes: GPUBuffer }): GPUBindGroup {
        if (this.#group_source !== source.position || this.#group_attributes !== skin.attributes) {
            this.#groups[0] = null;
            this.#groups[1] = null;
            this.#group_source = source.position;
            this.#group_attributes = skin.attributes;
        }
        const target = 1 - this.#current;
        let group = this.#groups[target];
        if (group === null) {
            group = this.#device.createBindGroup({
                label: `skin group bind group ${target === 0 ? "A" : "B"}`,
                layout,
                entries: [
                    { binding: 0, resource: { buffer: this.#params } },
                    { binding: 1, resource: { buffer: this.#palette! } },
                    { binding: 2, resource: { buffer: source.position } },
                    { binding: 3, resource: { buffer: source.normal } },
                    { binding: 4, resource: { buffer: skin.attributes } },
                    { binding: 6, resource: { buffer: this.#positions![target] } },
                    { binding: 7, resource: { buffer: this.#normals! } },
                    { binding: 8, resource: { buffer: this.#fresh_buffer! } },
                    { binding: 9, resource: { buffer: this.#positions![1 - target] } },
                ],
            });
            this.#groups[target] = group;
        }
        return group;
    }

    /** With a table: the bind group of the blend into the palettes (`SKIN_BLEND_WGSL`), from the table's buffer. */
    blend_bind_group(layout: GPUBindGroupLayout, table: GPUBuffer): GPUBindGroup {
        if (this.#blend_group === null || this.#blend_group_table !== table) {
            this.#blend_group = this.#device.createBindGroup({
                label: "skin group blend bind group",
                layout,
                entries: [
                    { binding: 0, resource: { buffer: this.#params } },
                    { binding: 1, resource: { buffer: this.#palette! } },
                    { binding: 2, resource: { buffer: table } },
                    { binding: 3, resource: { buffer: this.#blend_buffer! } },
                ],
            });
            this.#blend_group_table = table;
        }
        return this.#blend_group;
    }

    /** After the dispatch: the buffer just written is current, the one before it last frame's. */
    flip(): void {
        this.#current = 1 - this.#current;
        this.#skinned = true;
    }

    /** This frame's positions, last frame's (this frame's when the group was not skinned) and normals. */
    get vertices(): GPUBindGroup {
        const current = this.#current;
        const k = current * 2 + (this.#skinned ? 1 : 0);
        let group = this.#vertex_groups[k];
        if (group === null) {
            const positions = this.#positions!;
            group = this.#device.createBindGroup({
                label: `skinned vertices ${current === 0 ? "A" : "B"}${this.#skinned ? "" : " (still)"}`,
                layout: skinned_vertices_layout(this.#device),
                entries: [
                    { binding: 0, resource: { buffer: positions[current] } },
                    { binding: 1, resource: { buffer: positions[this.#skinned ? 1 - current : current] } },
                    { binding: 2, resource: { buffer: this.#normals! } },
                ],
            });
            this.#vertex_groups[k] = group;
        }
        return group;
    }

    /** Points a mesh's draw buffers at its slot: this frame's positions, last frame's, normals. */
    point(output: GPUGeometry, slot: number): void {
        const offset = slot * this.vertex_count * 12;
        const positions = this.#positions!;
        output.position = positions[this.#current];
        output.position_offset = offset;
        // not skinned this frame: still (a slot with a new owner had its positions written to both buffers)
        output.previous_position = this.#skinned ? positions[1 - this.#current] : positions[this.#current];
        output.previous_offset = offset;
        output.normal = this.#normals!;
        output.normal_offset = offset;
    }

    destroy(): void {
        this.#palette?.destroy();
        this.#positions?.[0].destroy();
        this.#positions?.[1].destroy();
        this.#normals?.destroy();
        this.#fresh_buffer?.destroy();
        this.#blend_buffer?.destroy();
        this.#params.destroy();
    }

    // new buffers: every slot is skinned again from the mirror, and none has last positions
    #grow(capacity: number): void {
        const device = this.#device;
        // a table's group blends its palettes on the GPU: nothing to mirror
        if (this.table === null) {
            const mirror = new Float32Array(capacity * this.stride * 16);
            mirror.set(this.#mirror);
            this.#mirror = mirror;
        }
        this.#fresh = new Uint32Array(capacity).fill(this.frame);
        this.#fresh_buffer?.destroy();
        this.#fresh_buffer = device.createBuffer({ label: `skin group fresh slots (${capacity})`, size: capacity * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        this.#palette?.destroy();
        this.#positions?.[0].destroy();
        this.#positions?.[1].destroy();
        this.#normals?.destroy();
        const bytes = Math.max(16, capacity * this.vertex_count * 12);
        const usage = GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE;
        this.#palette = device.createBuffer({ label: `skin group palettes (${capacity})`, size: capacity * this.stride * 64, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        this.#positions = [
            device.createBuffer({ label: `skinned positions A (${capacity})`, size: bytes, usage }),
            device.createBuffer({ label: `skinned positions B (${capacity})`, size: bytes, usage }),
        ];
        this.#normals = device.createBuffer({ label: `skinned normals (${capacity})`, size: bytes, usage });
        if (this.table !== null) {
            const words = new Uint32Array(capacity * 8);
            words.set(this.#blend_words);
            this.#blend_words = words;
            this.#blend_weights = new Float32Array(words.buffer);
            this.#blend_buffer?.destroy();
            this.#blend_buffer = device.createBuffer({ label: `skin group blends (${capacity})`, size: capacity * 32, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
            this.#blend_group = null;
        }
        this.#capacity = capacity;
        this.#groups[0] = null;
        this.#groups[1] = null;
        this.#vertex_groups.fill(null);
        // the slots already handed out this frame keep what they wrote; all of them go up again
        this.#low = 0;
        this.#high = Math.max(this.#high, capacity - 1);
        this.dirty = true;
        this.#pending = true;
    }
}
