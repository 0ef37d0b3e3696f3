/**
 * First-fit sub-allocator of a linear space of at most 2^30 units (units are the caller's: the dynamic mesh
 * pool counts 4-byte words). Free blocks are kept sorted and coalesced; freeing the highest block lowers `top`, so a buffer
 * sized to `top` can shrink once the tail empties. Allocates no JS objects except when its free list outgrows
 * every earlier size.
 */
export class RangeAllocator {
    // Int32: every value stays a small integer in V8, so reading one never allocates a heap number
    #offsets = new Int32Array(16);
    #sizes = new Int32Array(16);
    #count = 0;
    #top = 0;
    #live = 0;

    /** One past the highest allocated unit: the space a backing buffer must hold. */
    get top(): number {
        return this.#top;
    }

    /** Units allocated now. */
    get live(): number {
        return this.#live;
    }

    /** Free blocks below `top` (fragmentation, for tests and diagnostics). */
    get free_block_count(): number {
        return this.#count;
    }

    /** Returns the offset of a new range of `size` units. */
    allocate(size: number): number {
        if (size === 0) return 0;
        this.#live += size;
        const offsets = this.#offsets;
        const sizes = this.#sizes;
        for (let i = 0; i < this.#count; i++) {
            if (sizes[i] < size) continue;
            const offset = offsets[i];
            if (sizes[i] === size) {
                this.#remove(i);
            } else {
                offsets[i] += size;
                sizes[i] -= size;
            }
            return offset;
        }
        const offset = this.#top;
        this.#top += size;
        return offset;
    }

    /** Returns a range given out by `allocate`. */
    free(offset: number, size: number): void {
        if (size === 0) return;
        if (__SHADE_DEBUG__) {
            if (offset + size > this.#top) throw new Error(`RangeAllocator.free: [${offset}, ${offset + size}) is above top ${this.#top}`);
        }
        this.#live -= size;
        const offsets = this.#offsets;
        const sizes = this.#sizes;
        let i = 0;
        while (i < this.#count && offsets[i] < offset) i++;
        if (__SHADE_DEBUG__) {
            if ((i > 0 && offsets[i - 1] + sizes[i - 1] > offset) || (i < this.#count && offset + size > offsets[i])) {
                throw new Error(`RangeAllocator.free: [${offset}, ${offset + size}) overlaps a free block (freed twice?)`);
            }
        }
        const joins_previous = i > 0 && offsets[i - 1] + sizes[i - 1] === offset;
        const joins_next = i < this.#count && offset + size === offsets[i];
        if (joins_previous && joins_next) {
            sizes[i - 1] += size + sizes[i];
            this.#remove(i);
        } else if (joins_previous) {
            sizes[i - 1] += size;
        } else if (joins_next) {
            offsets[i] = offset;
            sizes[i] += size;
        } else {
            this.#insert(i, offset, size);
        }
        // a free block that reaches the top is not a block: the top comes down to meet it
        const last = this.#count - 1;
        if (last >= 0 && this.#offsets[last] + this.#sizes[last] === this.#top) {
            this.#top = this.#offsets[last];
            this.#count--;
        }
    }

    /** Forgets every range: `live` ranges are now packed in [0, top) by the caller (compaction). */
    reset(top: number): void {
        this.#count = 0;
        this.#top = top;
        this.#live = top;
    }

    #remove(i: number): void {
        const offsets = this.#offsets;
        const sizes = this.#sizes;
        for (let k = i + 1; k < this.#count; k++) {
            offsets[k - 1] = offsets[k];
            sizes[k - 1] = sizes[k];
        }
        this.#count--;
    }

    #insert(i: number, offset: number, size: number): void {
        if (this.#count === this.#offsets.length) {
            const offsets = new Int32Array(this.#count * 2);
            const sizes = new Int32Array(this.#count * 2);
            offsets.set(this.#offsets);
            sizes.set(this.#sizes);
            this.#offsets = offsets;
            this.#sizes = sizes;
        }
        const offsets = this.#offsets;
        const sizes = this.#sizes;
        for (let k = this.#count; k > i; k--) {
            offsets[k] = offsets[k - 1];
            sizes[k] = sizes[k - 1];
        }
        offsets[i] = offset;
        sizes[i] = size;
        this.#count++;
    }
}
