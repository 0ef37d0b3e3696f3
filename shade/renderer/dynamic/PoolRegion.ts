import { DynamicBuffer } from "./DynamicBuffer.js";
import { RangeAllocator } from "./RangeAllocator.js";

const STORAGE = 0x0080; // GPUBufferUsage.STORAGE (spelled out: see DynamicBuffer)

/**
 * One region of the dynamic geometry pool: a storage buffer of words (`DynamicBuffer`: CPU mirror, grow-only GPU
 * buffer) and the ranges allocated in it (`RangeAllocator`). The pool keeps positions in one region and colours
 * and indices in another, so that rewriting the positions of many geometries dirties one contiguous span.
 */
export class PoolRegion {
    readonly buffer: DynamicBuffer;
    readonly allocator = new RangeAllocator();
    readonly min_bytes: number;

    constructor(label: string, min_bytes: number) {
        this.buffer = new DynamicBuffer(label, STORAGE, min_bytes);
        this.min_bytes = min_bytes;
    }

    /** A range of `words`, with the mirror grown to hold it. */
    allocate(words: number): number {
        const offset = this.allocator.allocate(words);
        this.buffer.reserve(this.allocator.top * 4);
        return offset;
    }

    free(offset: number, words: number): void {
        this.allocator.free(offset, words);
    }

    /** Uploads what was written since the last flush; returns the GPU buffer. */
    flush(device: GPUDevice): GPUBuffer {
        return this.buffer.flush(device, this.allocator.top * 4);
    }

    /** Whether the region uses under a quarter of a buffer larger than its minimum (a shrink would pay). */
    get underused(): boolean {
        const capacity = this.buffer.capacity;
        return capacity > this.min_bytes && this.allocator.live * 4 * 4 <= capacity;
    }

    /**
     * Starts packing the live ranges into a smaller buffer (twice the live bytes, a power of two times the
     * minimum); false, doing nothing, when that would not be smaller. Then `move` each live range, in any order,
     * and `end_compaction`.
     */
    begin_compaction(device: GPUDevice): boolean {
        let bytes = this.min_bytes;
        while (bytes < this.allocator.live * 4 * 2) bytes *= 2;
        if (bytes >= this.buffer.capacity) return false;
        this.buffer.begin_relocation(bytes, device);
        this.#cursor = 0;
        return true;
    }

    /** Moves a live range of `words` from `offset` to the next packed place; returns that place. */
    move(offset: number, words: number): number {
        const to = this.#cursor;
        this.buffer.relocate(offset * 4, to * 4, words * 4);
        this.#cursor += words;
        return to;
    }

    end_compaction(): void {
        this.allocator.reset(this.#cursor);
        this.buffer.end_relocation(this.#cursor * 4);
    }

    destroy(): void {
        this.buffer.destroy();
    }

    #cursor = 0;
}
