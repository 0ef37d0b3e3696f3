import { texture_byte_size } from "../texture_byte_size.js";
import type { TextureAllocator } from "./TextureAllocator.js";
import type { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

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

/**
 * Physical textures behind transient graph resources, keyed by (interned) descriptor.
 *
 * Policy: a texture returns to the pool the moment the last pass that reads its resource has run, so a later
 * pass in the same frame asking for the same shape gets it back (encoding order on one queue makes that
 * safe). A texture nobody has acquired for `EVICT_AFTER_FRAMES` frames is destroyed. Three frames is enough
 * slack that a pass skipped for a frame or two (a culled extension, a resize settling) does not churn GPU
 * allocations, and short enough that a dynamic-resolution ramp does not keep every intermediate size alive.
 */
export class TransientTexturePool<T = GPUTexture, V = GPUTextureView> {
    static readonly EVICT_AFTER_FRAMES = 3;

    readonly allocator: TextureAllocator<T, V>;
    readonly #buckets = new Map<TextureResourceDescriptor, PooledTexture<T, V>[]>();
    // the same buckets as a list: walking a Map allocates an iterator, and end_frame runs every frame
    readonly #bucket_list: PooledTexture<T, V>[][] = [];
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

    /** Bytes of the textures the pool holds now (see `texture_byte_size`): GraphicsEngine.gpu_memory's transients. */
    get live_bytes(): number {
        return this.#live_bytes;
    }

    acquire(descriptor: TextureResourceDescriptor, label: string): PooledTexture<T, V> {
        let bucket = this.#buckets.get(descriptor);
        if (bucket === undefined) {
            bucket = [];
            this.#buckets.set(descriptor, bucket);
            this.#bucket_list.push(bucket);
        }
        for (let i = 0; i < bucket.length; i++) {
            const entry = bucket[i];
            if (!entry.in_use) {
                entry.in_use = true;
                entry.last_used_frame = this.#frame;
                return entry;
            }
        }
        const texture = this.allocator.create(descriptor, `${label} (pool ${descriptor.label} #${bucket.length})`);
        const entry = new PooledTexture<T, V>(descriptor, texture, this.allocator.view(texture), this.#frame);
        entry.in_use = true;
        bucket.push(entry);
        this.#created++;
        this.#live++;
        this.#live_bytes += texture_byte_size(descriptor.format, descriptor.width, descriptor.height);
        return entry;
    }

    release(entry: PooledTexture<T, V>): void {
        entry.in_use = false;
    }

    /** Closes a frame: everything is released and textures idle for too long are destroyed. */
    end_frame(): void {
        const oldest_kept = this.#frame - TransientTexturePool.EVICT_AFTER_FRAMES;
        const buckets = this.#bucket_list;
        for (let b = 0; b < buckets.length; b++) {
            const bucket = buckets[b];
            let w = 0;
            for (let r = 0; r < bucket.length; r++) {
                const entry = bucket[r];
                entry.in_use = false;
                if (entry.last_used_frame <= oldest_kept) {
                    this.allocator.destroy(entry.texture);
                    this.#live--;
                    this.#live_bytes -= texture_byte_size(entry.descriptor.format, entry.descriptor.width, entry.descriptor.height);
                } else {
                    bucket[w++] = entry;
                }
            }
            bucket.length = w;
        }
        this.#frame++;
    }

    /** Destroys every texture the pool holds. */
    clear(): void {
        for (const bucket of this.#bucket_list) {
            for (const entry of bucket) this.allocator.destroy(entry.texture);
            bucket.length = 0;
        }
        this.#live = 0;
        this.#live_bytes = 0;
    }
}
