import type { HighlightSource } from "./HighlightExtension.js";

interface Pick {
    x: number;
    y: number;
    resolve: (entity: number | null) => void;
    reject: (error: Error) => void;
}

/**
 * @internal A highlight extension's picks: queued, then one at a time its texel of the object-id target
 * copied to the read-back buffer and mapped once the frame is submitted.
 */
export class HighlightPicks {
    readonly #source: HighlightSource;
    readonly #queue: Pick[] = [];
    /** The pick whose texel is being read back, or null. */
    #in_flight: Pick | null = null;
    #destroyed = false;
    readonly #copy_source: GPUTexelCopyTextureInfo = { texture: null as unknown as GPUTexture, origin: { x: 0, y: 0, z: 0 } };
    readonly #copy_destination: GPUTexelCopyBufferInfo = { buffer: null as unknown as GPUBuffer, offset: 0 };
    readonly #one_texel: GPUExtent3DDict = { width: 1, height: 1, depthOrArrayLayers: 1 };

    constructor(source: HighlightSource) {
        this.#source = source;
    }

    /** Picks queued and not yet resolved. */
    get pending(): number {
        return this.#queue.length + (this.#in_flight === null ? 0 : 1);
    }

    /** Whether a read-back is in flight (it destroys the buffer itself if destroyed meanwhile). */
    get in_flight(): boolean {
        return this.#in_flight !== null;
    }

    /** Whether this frame copies a texel: a pick is queued and none is being read. */
    get ready(): boolean {
        return this.#in_flight === null && this.#queue.length > 0;
    }

    get queued(): boolean {
        return this.#queue.length > 0;
    }

    queue(x: number, y: number): Promise<number | null> {
        return new Promise((resolve, reject) => this.#queue.push({ x, y, resolve, reject }));
    }

    /** Whether the next pick lies within `width` x `height`; one outside is dropped, resolving null. */
    next_within(width: number, height: number): boolean {
        const pick = this.#queue[0];
        if (pick.x < 0 || pick.y < 0 || pick.x >= width || pick.y >= height) {
            this.#queue.shift();
            pick.resolve(null);
            return false;
        }
        return true;
    }

    /** Copies the next pick's texel of `ids` into `buffer` (at least one is queued). */
    encode(encoder: GPUCommandEncoder, ids: GPUTexture, buffer: GPUBuffer): void {
        const pick = this.#queue.shift() as Pick;
        const source = this.#copy_source;
        source.texture = ids;
        const origin = source.origin as GPUOrigin3DDict;
        origin.x = pick.x;
        origin.y = pick.y;
        this.#copy_destination.buffer = buffer;
        encoder.copyTextureToBuffer(source, this.#copy_destination, this.#one_texel);
        this.#in_flight = pick;
        // mapped once the frame's command buffer is submitted (after this synchronous render call)
        void Promise.resolve().then(() => this.#read(buffer, pick));
    }

    /** Resolves the queued picks with null; an in-flight read still resolves, then destroys its buffer. */
    destroy(): void {
        this.#destroyed = true;
        for (const pick of this.#queue) pick.resolve(null);
        this.#queue.length = 0;
    }

    async #read(buffer: GPUBuffer, pick: Pick): Promise<void> {
        try {
            await buffer.mapAsync(GPUMapMode.READ, 0, 4);
            const id = new Uint32Array(buffer.getMappedRange(0, 4))[0];
            buffer.unmap();
            pick.resolve(this.#source.entity_of_object(id));
        } catch (error) {
            pick.reject(new Error(`HighlightExtension.pick(${pick.x}, ${pick.y}): the read-back failed: ${(error as Error).message}`, { cause: error }));
        } finally {
            this.#in_flight = null;
            if (this.#destroyed) buffer.destroy();
        }
    }
}
