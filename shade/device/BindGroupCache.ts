/**
 * Bind groups keyed by what they bind (views, buffers), compared by identity in order. Pooled textures are
 * stable frame to frame, so a pass that resolves its inputs every frame finds its group here instead of
 * creating one. Bounded: when full it forgets everything, which lets bind groups of evicted textures go.
 */
export class BindGroupCache {
    readonly #entries: { keys: unknown[]; group: GPUBindGroup }[] = [];
    readonly #capacity: number;

    constructor(capacity = 16) {
        this.#capacity = capacity;
    }

    /** The group cached for exactly these keys, or null. */
    find(keys: readonly unknown[]): GPUBindGroup | null {
        const entries = this.#entries;
        outer: for (let e = 0; e < entries.length; e++) {
            const entry = entries[e];
            if (entry.keys.length !== keys.length) continue;
            for (let i = 0; i < keys.length; i++) if (entry.keys[i] !== keys[i]) continue outer;
            return entry.group;
        }
        return null;
    }

    /** Caches `group` under a copy of `keys` and returns it. */
    add(keys: readonly unknown[], group: GPUBindGroup): GPUBindGroup {
        if (this.#entries.length >= this.#capacity) this.#entries.length = 0;
        this.#entries.push({ keys: keys.slice(), group });
        return group;
    }

    /** Forgets every group (their resources were replaced). */
    clear(): void {
        this.#entries.length = 0;
    }
}
