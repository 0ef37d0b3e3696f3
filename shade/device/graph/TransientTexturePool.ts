import { texture_byte_size } from "../texture_byte_size.js";
import type { TextureAllocator } from "./TextureAllocator.js";
import { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

/** One physical texture owned by the pool. */
export class PooledTexture<T, V> {
    constructor(
        readonly descriptor: TextureResourceDescriptor,
        readonly texture: T,
        readonly view: V,
        public last_used_frame: number,
    ) {}

    in_use = false;
}

/** The textures of one shape, and where the bucket sits in the pool's list. */
class Bucket<T, V> {
    readonly entries: PooledTexture<T, V>[] = [];
    constructor(
        readonly descriptor: TextureResourceDescriptor,
        public index: number,
    ) {}
}

/**
 * Physical textures behind transient graph resources, keyed by (interned) descriptor.
 *
 * Policy: a texture returns to the pool the moment the last pass that reads its resource has run, so a later
 * pass in the same frame asking for the same shape gets it back (encoding order on one queue makes that
 * safe). A texture nobody has acquired for `EVICT_AFTER_FRAMES` frames is destroyed. Three frames is enough
 * slack that a pass skipped for a frame or two (a culled extension, a resize settling) does not churn GPU
 * allocations, and short enough that a dynamic-resolution ramp does not keep every intermediate size alive.
 *
 * The pool is bounded by the shapes in use: a bucket whose last texture is evicted goes, and lets its
 * descriptor go from the intern table (`TextureResourceDescriptor.release`), so `end_frame` walks the live
 * textures only, however many shapes a resize storm has passed through.
 */
export class TransientTexturePool<T = GPUTexture, V = GPUTextureView> {
    static readonly EVICT_AFTER_FRAMES = 3;

    readonly allocator: TextureAllocator<T, V>;
    readonly #buckets = new Map<TextureResourceDescriptor, Bucket<T, V>>();
    // the same buckets as a list: walking a Map allocates an iterator, and end_frame runs every frame
    readonly #bucket_list: Bucket<T, V>[] = [];
    #frame = 0;
    #created = 0;
    #live = 0;
    #live_bytes = 0;

    constructor(allocator: TextureAllocator<T, V>) {
        this.allocator = allocator;
    }

    /** Frames begun so far. */
    get frame(): number {
        return this.#frame;
    }

    /** Textures created over the pool's life (a test's view of reuse). */
    get created_count(): number {
        return this.#created;
    }

    /** Textures the pool holds now, in use or idle. */
    get live_count(): number {
        return this.#live;
    }

    /** Shapes the pool holds textures of now (each with at least one texture). */
    get shape_count(): number {
        return this.#bucket_list.length;
    }

    /** Bytes of the textures the pool holds now (see `texture_byte_size`): GraphicsEngine.gpu_memory's transients. */
    get live_bytes(): number {
        return this.#live_bytes;
    }

    acquire(descriptor: TextureResourceDescriptor, label: string): PooledTexture<T, V> {
        let bucket = this.#buckets.get(descriptor);
        if (bucket === undefined) {
            // a descriptor kept by its caller past the table's forgetting it: find the shape's bucket by its
            // interned twin, so that one shape never has two buckets
            const canonical = TextureResourceDescriptor.canonical(descriptor);
            bucket = this.#buckets.get(canonical);
            if (bucket === undefined) {
                bucket = new Bucket<T, V>(canonical, this.#bucket_list.length);
                TextureResourceDescriptor.retain(canonical);
                this.#buckets.set(canonical, bucket);
                this.#bucket_list.push(bucket);
            }
        }
        const entries = bucket.entries;
        for (let i = 0; i < entries.length; i++) {
            const entry = entries[i];
            if (!entry.in_use) {
                entry.in_use = true;
                entry.last_used_frame = this.#frame;
                return entry;
            }
        }
        const shape = bucket.descriptor;
        const texture = this.allocator.create(shape, `${label} (pool ${shape.label} #${entries.length})`);
        const entry = new PooledTexture<T, V>(shape, texture, this.allocator.view(texture), this.#frame);
        entry.in_use = true;
        entries.push(entry);
        this.#created++;
        this.#live++;
        this.#live_bytes += texture_byte_size(shape.format, shape.width, shape.height);
        return entry;
    }

    release(entry: PooledTexture<T, V>): void {
        entry.in_use = false;
    }

    /** Closes a frame: everything is released, textures idle for too long are destroyed, empty shapes go. */
    end_frame(): void {
        const oldest_kept = this.#frame - TransientTexturePool.EVICT_AFTER_FRAMES;
        const buckets = this.#bucket_list;
        for (let b = buckets.length - 1; b >= 0; b--) {
            const bucket = buckets[b];
            const entries = bucket.entries;
            let w = 0;
            for (let r = 0; r < entries.length; r++) {
                const entry = entries[r];
                entry.in_use = false;
                if (entry.last_used_frame <= oldest_kept) {
                    this.allocator.destroy(entry.texture);
                    this.#live--;
                    this.#live_bytes -= texture_byte_size(entry.descriptor.format, entry.descriptor.width, entry.descriptor.height);
                } else {
                    entries[w++] = entry;
                }
            }
            if (w !== entries.length) entries.length = w;
            // backwards: the swap-remove only moves a bucket already visited
            if (w === 0) this.#drop(bucket);
        }
        this.#frame++;
        TextureResourceDescriptor.collect();
    }

    /** Destroys every texture the pool holds. */
    clear(): void {
        const buckets = this.#bucket_list;
        while (buckets.length > 0) {
            const bucket = buckets[buckets.length - 1];
            for (const entry of bucket.entries) this.allocator.destroy(entry.texture);
            bucket.entries.length = 0;
            this.#drop(bucket);
        }
        this.#live = 0;
        this.#live_bytes = 0;
    }

    #drop(bucket: Bucket<T, V>): void {
        const list = this.#bucket_list;
        const last = list.pop()!;
        if (last !== bucket) {
            list[bucket.index] = last;
            last.index = bucket.index;
        }
        this.#buckets.delete(bucket.descriptor);
        TextureResourceDescriptor.release(bucket.descriptor);
    }
}
