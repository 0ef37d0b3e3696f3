import type { Geometry } from "../geometry/Geometry.js";
import { INDEX_16_BIT, NO_VERTEX_COLOR } from "./dynamic_mesh.wgsl.js";
import { PoolRegion } from "./PoolRegion.js";

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
    /** Allocation in the position region, in words, and the words in use there (3 per vertex). */
    position_offset = 0;
    position_capacity = 0;
    position_words = 0;
    /** Allocation in the attribute region (colours, then indices), in words, and the words in use there. */
    offset = 0;
    capacity = 0;
    words = 0;
    /** Mesh record fields (word offsets; `index_base` is encoded as dynamic_mesh.wgsl.ts says). */
    position_base = 0;
    color_base = NO_VERTEX_COLOR;
    index_base = 0;
    index_count = 0;
}

/**
 * Every geometry a renderer draws, packed into two storage buffers of words: the **position region** holds
 * every geometry's xyz positions, the **attribute region** its optional colours and its indices. Keeping the
 * positions apart means that rewriting the positions of many geometries (ribbons, trails: the common dynamic
 * update) dirties one contiguous span of the position region, uploaded in one `writeBuffer` of exactly the
 * position bytes, with nothing of the colours and indices between them.
 *
 * Ranges are stable while a geometry is drawn; a geometry not drawn in the previous frame gives its ranges back;
 * a geometry that outgrows a range moves to a bigger one (with half again as much room, for geometry that grows
 * a little every frame, like a trail). Only geometries whose `version` moved since their upload are copied (then
 * `needsUpdate` is cleared), and of those whose attributes alone were flagged, only those attributes. The pool
 * shrinks, compacting on the GPU, after `SHRINK_AFTER_FRAMES` frames of using under a quarter of it.
 */
export class DynamicGeometryPool {
    static readonly SHRINK_AFTER_FRAMES = 120;
    /** The smallest the pool gets: both regions at their minimum. */
    static readonly MIN_BYTES = 64 * 1024;

    /** xyz positions of every geometry. */
    readonly positions: PoolRegion;
    /** Colours and indices of every geometry. */
    readonly attributes: PoolRegion;
    readonly #slots = new Map<Geometry, GeometrySlot>();
    readonly #list: GeometrySlot[] = [];
    #list_count = 0;
    readonly #spare: GeometrySlot[] = [];
    #spare_count = 0;
    #device: GPUDevice | null = null;
    #low_frames = 0;
    #uploads = 0;

    constructor(label: string) {
        this.positions = new PoolRegion(`${label} geometry pool (positions)`, DynamicGeometryPool.MIN_BYTES / 2);
        this.attributes = new PoolRegion(`${label} geometry pool (colours, indices)`, DynamicGeometryPool.MIN_BYTES / 2);
    }

    /** Bytes of both regions' mirrors (the GPU buffers match them). */
    get capacity(): number {
        return this.positions.buffer.capacity + this.attributes.buffer.capacity;
    }

    /** Geometries resident now. */
    get geometry_count(): number {
        return this.#list_count;
    }

    /** Geometry uploads over the pool's life (a test's view of what `needsUpdate` caused). */
    get upload_count(): number {
        return this.#uploads;
    }

    /** Words allocated to geometries now, both regions. */
    get live_words(): number {
        return this.positions.allocator.live + this.attributes.allocator.live;
    }

    /**
     * Starts pool frame `frame`: releases geometries not drawn in frame `frame - 1` and compacts after
     * sustained low use. Buffers replaced before this are destroyed (their frame was submitted).
     */
    begin_frame(frame: number, device: GPUDevice): void {
        this.positions.buffer.release_retired();
        this.attributes.buffer.release_retired();
        this.begin_sync(device);
        for (let i = 0; i < this.#list_count; ) {
            const slot = this.#list[i];
            if (slot.seen >= frame - 1) {
                i++;
                continue;
            }
            this.#release(slot, i);
        }
        if (this.positions.underused || this.attributes.underused) {
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
            slot.position_offset = 0;
            slot.position_capacity = 0;
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

    /** Uploads what `sync` queued, both regions. */
    flush(device: GPUDevice): void {
        this.positions.flush(device);
        this.attributes.flush(device);
    }

    /** Forgets every geometry and destroys the GPU buffers. */
    destroy(): void {
        while (this.#list_count > 0) this.#release(this.#list[0], 0);
        this.positions.destroy();
        this.attributes.destroy();
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
        const words = color_words + index_words;
        if (position_words > slot.position_capacity) {
            const grown = slot.position_capacity > 0;
            if (grown) this.positions.free(slot.position_offset, slot.position_capacity);
            slot.position_capacity = grown ? Math.ceil(position_words * 1.5) : position_words;
            slot.position_offset = this.positions.allocate(slot.position_capacity);
        }
        if (words > slot.capacity) {
            const grown = slot.capacity > 0;
            if (grown) this.attributes.free(slot.offset, slot.capacity);
            slot.capacity = grown ? Math.ceil(words * 1.5) : words;
            slot.offset = this.attributes.allocate(slot.capacity);
        }
        const offset = slot.offset;
        slot.position_words = position_words;
        slot.words = words;
        slot.position_base = slot.position_offset;
        slot.color_base = color === undefined ? NO_VERTEX_COLOR : offset;
        const index_offset = offset + color_words;
        slot.index_base = index_offset * 2 + (wide ? 0 : INDEX_16_BIT);
        slot.index_count = index.length;
        this.positions.buffer.write(slot.position_base * 4, position);
        const attributes = this.attributes.buffer;
        if (color !== undefined) attributes.write(slot.color_base * 4, color);
        attributes.write(index_offset * 4, index);
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
        if (position.version !== slot.position_version) {
            this.positions.buffer.write(slot.position_base * 4, position.array);
            slot.position_version = position.version;
        }
        if (color !== undefined && color.version !== slot.color_version) {
            this.attributes.buffer.write(slot.color_base * 4, color.array);
            slot.color_version = color.version;
        }
        slot.version = geometry.version;
        geometry.needsUpdate = false;
        this.#uploads++;
        return true;
    }

    #release(slot: GeometrySlot, at: number): void {
        this.positions.free(slot.position_offset, slot.position_capacity);
        this.attributes.free(slot.offset, slot.capacity);
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

    // Packs the live ranges of each region to the bottom of a smaller buffer, moving them on the GPU (the mirror
    // is not the whole truth: large ranges were uploaded straight from their arrays).
    #compact(device: GPUDevice): void {
        this.#low_frames = 0;
        if (this.positions.begin_compaction(device)) {
            for (let i = 0; i < this.#list_count; i++) {
                const slot = this.#list[i];
                slot.position_offset = this.positions.move(slot.position_offset, slot.position_words);
                slot.position_capacity = slot.position_words;
                slot.position_base = slot.position_offset;
            }
            this.positions.end_compaction();
        }
        if (this.attributes.begin_compaction(device)) {
            for (let i = 0; i < this.#list_count; i++) {
                const slot = this.#list[i];
                const to = this.attributes.move(slot.offset, slot.words);
                const moved = to - slot.offset;
                if (slot.color_base !== NO_VERTEX_COLOR) slot.color_base += moved;
                slot.index_base += moved * 2;
                slot.offset = to;
                slot.capacity = slot.words;
            }
            this.attributes.end_compaction();
        }
    }
}
