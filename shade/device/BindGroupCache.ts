interface Entry {
    readonly keys: unknown[];
    group: GPUBindGroup;
    /** The cache's use counter when last found or added. */
    used: number;
}

/**
 * Bind groups keyed by what they bind (views, buffers), compared by identity in order. Pooled textures are
 * stable frame to frame, so a pass that resolves its inputs every frame finds its group here instead of
 * creating one. Bounded: when full, a new group takes the place of the one unused the longest, so the groups
 * of evicted textures (a resize, a dynamic-resolution step) go while the ones in use stay.
 */
export class BindGroupCache {
    readonly #entries: Entry[] = [];
    readonly #capacity: number;
    #uses = 0;

    constructor(capacity = 16) {
        if (!(capacity >= 1) || (capacity | 0) !== capacity) throw new RangeError(`BindGroupCache: capacity must be a whole number >= 1, got ${capacity}`);
        this.#capacity = capacity;
    }

    /** Groups cached now (at most the capacity). */
    get size(): number {
        return this.#entries.length;
    }

    /** The group cached for exactly these keys, or null. */
    find(keys: readonly unknown[]): GPUBindGroup | null {
        const entries = this.#entries;
        outer: for (let e = 0; e < entries.length; e++) {
            const entry = entries[e];
            if (entry.keys.length !== keys.length) continue;
            for (let i = 0; i < keys.length; i++) if (entry.keys[i] !== keys[i]) continue outer;
            entry.used = ++this.#uses;
            return entry.group;
        }
        return null;
    }

    /** Caches `group` under a copy of `keys` (in place of the least recently used group when full) and returns it. */
    add(keys: readonly unknown[], group: GPUBindGroup): GPUBindGroup {
        const entries = this.#entries;
        const used = ++this.#uses;
        if (entries.length < this.#capacity) {
            entries.push({ keys: keys.slice(), group, used });
            return group;
        }
        let oldest = 0;
        for (let e = 1; e < entries.length; e++) if (entries[e].used < entries[oldest].used) oldest = e;
        entries[oldest] = { keys: keys.slice(), group, used };
        return group;
    }

    /** Forgets every group (their resources were replaced). */
    clear(): void {
        this.#entries.length = 0;
    }
}
