import type { Geometry } from "../geometry/Geometry.js";
import { DynamicBuffer } from "./DynamicBuffer.js";
import { INDEX_16_BIT, NO_VERTEX_COLOR } from "./dynamic_mesh.wgsl.js";
import { RangeAllocator } from "./RangeAllocator.js";

/** Where one geometry lives in the pool, and which of its versions is there. */
export class GeometrySlot {
    geometry: Geometry | null = null;
    /** The geometry version uploaded; -1: nothing yet. */
    version = -1;
    /** What the last whole upload saw, so that a later change of only some attributes uploads just those. */
    whole_version = -1;
    position_version = -1;
    color_version = -1;
    vertices = 0;
    index: Uint16Array | Uint32Array | null = null;
    /** The pool frame that last drew it. */
    seen = -1;
    /** Allocation, in words. */
    offset = 0;
    capacity = 0;
    /** Words in use (positions, colours, indices). */
    words = 0;
    /** Mesh record fields (word offsets; `index_base` is encoded as dynamic_mesh.wgsl.ts says). */
    position_base = 0;
    color_base = NO_VERTEX_COLOR;
    index_base = 0;
    index_count = 0;
}

const STORAGE = 0x0080; // GPUBufferUsage.STORAGE

/**
 * Every geometry a renderer draws, packed into one storage buffer of words: each geometry a range holding
 * its positions, optional colours and indices. Ranges are stable while a geometry is drawn; a geometry not
 * drawn in the previous frame gives its range back; a geometry that outgrows its range moves to a bigger one
 * (with half again as much room, for geometry that grows a little every frame, like a trail).
 *
 * Only geometries whose `version` moved since their upload are copied (then `needsUpdate` is cleared), and of
 * those whose attributes alone were flagged, only those attributes. The
 * pool shrinks, compacting on the GPU, after `SHRINK_AFTER_FRAMES` frames of using under a quarter of it.
 */
export class DynamicGeometryPool {
    static readonly SHRINK_AFTER_FRAMES = 120;
    static readonly MIN_BYTES = 64 * 1024;

    readonly buffer: DynamicBuffer;
    readonly #allocator = new RangeAllocator();
    readonly #slots = new Map<Geometry, GeometrySlot>();
    readonly #list: GeometrySlot[] = [];
    #list_count = 0;
    readonly #spare: GeometrySlot[] = [];
    #spare_count = 0;
    #device: GPUDevice | null = null;
    #low_frames = 0;
    #uploads = 0;

    constructor(label: string) {
        this.buffer = new DynamicBuffer(`${label} geometry pool`, STORAGE, DynamicGeometryPool.MIN_BYTES);
    }

    /** Geometries resident now. */
    get geometry_count(): number {
        return this.#list_count;
    }

    /** Geometry uploads over the pool's life (a test's view of what `needsUpdate` caused). */
    get upload_count(): number {
        return this.#uploads;
    }

    /** Words allocated to geometries now. */
    get live_words(): number {
        return this.#allocator.live;
    }

    /**
     * Starts pool frame `frame`: releases geometries not drawn in frame `frame - 1` and compacts after
     * sustained low use. Buffers replaced before this are destroyed (their frame was submitted).
     */
    begin_frame(frame: number, device: GPUDevice): void {
        this.buffer.release_retired();
        this.begin_sync(device);
        for (let i = 0; i < this.#list_count; ) {
            const slot = this.#list[i];
            if (slot.seen >= frame - 1) {
                i++;
                continue;
            }
            this.#release(slot, i);
        }
        const capacity = this.buffer.capacity;
        const live_bytes = this.#allocator.live * 4;
        if (capacity > DynamicGeometryPool.MIN_BYTES && live_bytes * 4 <= capacity) {
            if (++this.#low_frames >= DynamicGeometryPool.SHRINK_AFTER_FRAMES) this.#compact(device);
        } else {
            this.#low_frames = 0;
        }
    }

    /** Before syncing on `device`: a new device gets every geometry written again (from its arrays). */
    begin_sync(device: GPUDevice): void {
        if (device === this.#device) return;
        this.#device = device;
        for (let i = 0; i < this.#list_count; i++) this.#list[i].version = -1;
    }

    /** The slot of `geometry`, uploaded (into the mirror or queued) if its version moved. */
    sync(geometry: Geometry, frame: number): GeometrySlot {
        let slot = this.#slots.get(geometry);
        if (slot === undefined) {
            slot = this.#spare_count > 0 ? this.#spare[--this.#spare_count] : new GeometrySlot();
            slot.geometry = geometry;
            slot.version = -1;
            slot.offset = 0;
            slot.capacity = 0;
            this.#slots.set(geometry, slot);
            if (this.#list_count === this.#list.length) this.#list.push(slot);
            else this.#list[this.#list_count] = slot;
            this.#list_count++;
        }
        slot.seen = frame;
        if (slot.version !== geometry.version) {
            if (!this.#upload_attributes(slot, geometry)) this.#upload(slot, geometry);
        }
        return slot;
    }

    /** Uploads what `sync` queued. */
    flush(device: GPUDevice): GPUBuffer {
        return this.buffer.flush(device, this.#allocator.top * 4);
    }

    /** Forgets every geometry and destroys the GPU buffers. */
    destroy(): void {
        while (this.#list_count > 0) this.#release(this.#list[0], 0);
        this.buffer.destroy();
        this.#device = null;
    }

    #upload(slot: GeometrySlot, geometry: Geometry): void {
        const position = geometry.attributes.position.array;
        const color = geometry.attributes.color?.array;
        const index = geometry.index;
        const vertices = position.length / 3;
        if (vertices !== Math.floor(vertices)) {
            throw new RangeError(`Geometry: ${position.length} position floats is not a whole number of xyz vertices`);
        }
        if (color !== undefined && color.length !== vertices * 4) {
            throw new RangeError(`Geometry: ${vertices} vertices but ${color.length / 4} RGBA colours; colour is RGBA, one per vertex`);
        }
        if (index.length % 3 !== 0) {
            throw new RangeError(`Geometry: the index is a triangle list; ${index.length} indices is not a multiple of 3`);
        }
        if (__SHADE_DEBUG__) {
            for (let i = 0; i < index.length; i++) {
                if (index[i] >= vertices) {
                    throw new RangeError(`Geometry: index ${i} is ${index[i]}, but the geometry has ${vertices} vertices`);
                }
            }
        }
        const wide = index instanceof Uint32Array;
        const position_words = vertices * 3;
        const color_words = color === undefined ? 0 : vertices * 4;
        const index_words = wide ? index.length : (index.length + 1) >> 1;
        const words = position_words + color_words + index_words;
        if (words > slot.capacity) {
            const grown = slot.capacity > 0;
            if (grown) this.#allocator.free(slot.offset, slot.capacity);
            slot.capacity = grown ? Math.ceil(words * 1.5) : words;
            slot.offset = this.#allocator.allocate(slot.capacity);
            this.buffer.reserve(this.#allocator.top * 4);
        }
        const offset = slot.offset;
        slot.words = words;
        slot.position_base = offset;
        slot.color_base = color === undefined ? NO_VERTEX_COLOR : offset + position_words;
        const index_offset = offset + position_words + color_words;
        slot.index_base = index_offset * 2 + (wide ? 0 : INDEX_16_BIT);
        slot.index_count = index.length;
        const buffer = this.buffer;
        buffer.write(offset * 4, position);
        if (color !== undefined) buffer.write(slot.color_base * 4, color);
        buffer.write(index_offset * 4, index);
        slot.version = geometry.version;
        slot.whole_version = geometry.whole_version;
        slot.position_version = geometry.attributes.position.version;
        slot.color_version = geometry.attributes.color?.version ?? -1;
        slot.vertices = vertices;
        slot.index = index;
        geometry.needsUpdate = false;
        this.#uploads++;
    }

    /**
     * Uploads only the attributes flagged since the last upload, when that is all that changed: the geometry
     * itself not flagged, the same vertex count, the same colour presence and the same index array and length.
     * False when a whole upload is needed.
     */
    #upload_attributes(slot: GeometrySlot, geometry: Geometry): boolean {
        if (slot.version === -1 || slot.whole_version !== geometry.whole_version) return false;
        const position = geometry.attributes.position;
        const color = geometry.attributes.color;
        if (position.array.length !== slot.vertices * 3 || geometry.index !== slot.index || geometry.index.length !== slot.index_count) return false;
        if ((color !== undefined) !== (slot.color_base !== NO_VERTEX_COLOR) || (color !== undefined && color.array.length !== slot.vertices * 4)) return false;
        const buffer = this.buffer;
        if (position.version !== slot.position_version) {
            buffer.write(slot.position_base * 4, position.array);
            slot.position_version = position.version;
        }
        if (color !== undefined && color.version !== slot.color_version) {
            buffer.write(slot.color_base * 4, color.array);
            slot.color_version = color.version;
        }
        slot.version = geometry.version;
        geometry.needsUpdate = false;
        this.#uploads++;
        return true;
    }

    #release(slot: GeometrySlot, at: number): void {
        this.#allocator.free(slot.offset, slot.capacity);
        this.#slots.delete(slot.geometry!);
        slot.geometry = null;
        slot.index = null; // a spare slot keeps no geometry's arrays alive
        const last = --this.#list_count;
        this.#list[at] = this.#list[last];
        this.#list[last] = null!;
        if (this.#spare_count === this.#spare.length) this.#spare.push(slot);
        else this.#spare[this.#spare_count] = slot;
        this.#spare_count++;
    }

    // Packs the live ranges to the bottom of a smaller buffer, moving them on the GPU (the mirror is not the
    // whole truth: large ranges were uploaded straight from their arrays).
    #compact(device: GPUDevice): void {
        this.#low_frames = 0;
        const live_bytes = this.#allocator.live * 4;
        let bytes = DynamicGeometryPool.MIN_BYTES;
        while (bytes < live_bytes * 2) bytes *= 2;
        if (bytes >= this.buffer.capacity) return;
        const buffer = this.buffer;
        buffer.begin_relocation(bytes, device);
        let cursor = 0;
        for (let i = 0; i < this.#list_count; i++) {
            const slot = this.#list[i];
            buffer.relocate(slot.offset * 4, cursor * 4, slot.words * 4);
            const moved = cursor - slot.offset;
            slot.position_base += moved;
            if (slot.color_base !== NO_VERTEX_COLOR) slot.color_base += moved;
            slot.index_base += moved * 2;
            slot.offset = cursor;
            slot.capacity = slot.words;
            cursor += slot.words;
        }
        this.#allocator.reset(cursor);
        buffer.end_relocation(cursor * 4);
    }
}
