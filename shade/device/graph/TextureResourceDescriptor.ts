import { TEXTURE_FORMATS, TEXTURE_USAGE_BITS } from "./texture_formats.js";

/**
 * Most shapes kept interned while no pool holds them. Past it, the shapes no pool holds are forgotten at once
 * (their objects stay valid: only identity is lost); a table of only held shapes may grow past it, since
 * those are textures that exist.
 */
export const MAX_INTERNED_DESCRIPTORS = 1024;

/**
 * How many `collect` calls a shape no pool holds stays interned after its last `of`. A shape imported every
 * frame (the canvas) or created by a pass that is culled for a few frames keeps its object; one gone from the
 * frame is forgotten soon after, so that the table follows the shapes in use, not every shape ever seen.
 */
export const INTERN_GRACE_COLLECTS = 8;

/**
 * The shape of a graph texture: size, format and usage. Descriptors are interned: `from` returns the same
 * frozen object for the same shape, so the transient pool can key on identity and a pass can call `from`
 * every frame without allocating once the shape has been seen.
 *
 * The table is bounded by the shapes in use: a transient pool holds (`retain`) the shape of each bucket it
 * keeps and lets go (`release`) when the bucket's last texture is evicted; `collect`, run by each pool at the
 * end of its frame, forgets the shapes nobody holds and nobody asked for lately. A descriptor object kept by
 * a caller past that stays valid; `canonical` maps it back to the interned one.
 */
export class TextureResourceDescriptor {
    readonly width: number;
    readonly height: number;
    readonly format: GPUTextureFormat;
    readonly usage: number;
    /** `WxH format`, used in GPU labels and diagnostics. */
    readonly label: string;

    // Private fields stay writable on a frozen object: the table's bookkeeping, invisible to users.
    /** Pools holding a bucket of this shape. */
    #holders = 0;
    /** The collect epoch of the last `of` that returned it. */
    #seen = 0;
    /** Index in INTERNED_LIST, -1 once forgotten. */
    #slot = -1;

    private constructor(width: number, height: number, format: GPUTextureFormat, usage: number) {
        this.width = width;
        this.height = height;
        this.format = format;
        this.usage = usage;
        this.label = `${width}x${height} ${format}`;
        Object.freeze(this);
    }

    /**
     * @param spec.resolution `[width, height]` in pixels (any array-like, e.g. a Uint32Array or `frame.resolution`)
     * @param spec.format a WebGPU texture format
     * @param spec.usage GPUTextureUsage flags
     */
    static from(spec: TextureResourceDescriptorSpec): TextureResourceDescriptor {
        if (spec === null || typeof spec !== "object") {
            throw new TypeError(`TextureResourceDescriptor.from: expected { resolution, format, usage }, got ${String(spec)}`);
        }
        const resolution = spec.resolution;
        if (resolution === null || resolution === undefined || typeof resolution !== "object" || resolution.length !== 2) {
            throw new TypeError(
                `TextureResourceDescriptor.from: resolution must be [width, height] (e.g. frame.resolution), got ${describe_value(resolution)}`,
            );
        }
        return TextureResourceDescriptor.of(resolution[0], resolution[1], spec.format, spec.usage);
    }

    /** `from` without the spec object, for hot paths that would rather not build one. */
    static of(width: number, height: number, format: GPUTextureFormat, usage: number): TextureResourceDescriptor {
        if (!(width >= 1 && height >= 1 && width <= 65535 && height <= 65535) || (width | 0) !== width || (height | 0) !== height) {
            throw new RangeError(`TextureResourceDescriptor: resolution must be whole pixels in [1, 65535], got ${width}x${height}`);
        }
        if (typeof format !== "string" || !TEXTURE_FORMATS.has(format)) {
            throw new TypeError(`TextureResourceDescriptor: format must be a WebGPU texture format name (e.g. "rgba16float"), got ${describe_value(format)}`);
        }
        if (!(usage > 0) || (usage | 0) !== usage || (usage & ~TEXTURE_USAGE_BITS) !== 0) {
            throw new TypeError(
                `TextureResourceDescriptor: usage must be GPUTextureUsage flags (COPY_SRC | COPY_DST | TEXTURE_BINDING | STORAGE_BINDING | RENDER_ATTACHMENT), got ${describe_value(usage)}`,
            );
        }
        let descriptor = lookup(width, height, format, usage);
        if (descriptor === undefined) {
            if (INTERNED_LIST.length >= MAX_INTERNED_DESCRIPTORS) TextureResourceDescriptor.#forget_unheld(Infinity);
            descriptor = new TextureResourceDescriptor(width, height, format, usage);
            TextureResourceDescriptor.#insert(descriptor);
        }
        descriptor.#seen = epoch;
        return descriptor;
    }

    /**
     * The interned descriptor of `descriptor`'s shape: itself while it is interned; the interned one of the same
     * shape when it was forgotten and the shape interned again since; else `descriptor`, interned anew.
     */
    static canonical(descriptor: TextureResourceDescriptor): TextureResourceDescriptor {
        if (descriptor.#slot !== -1) return descriptor;
        const interned = lookup(descriptor.width, descriptor.height, descriptor.format, descriptor.usage);
        if (interned !== undefined) return interned;
        TextureResourceDescriptor.#insert(descriptor);
        descriptor.#seen = epoch;
        return descriptor;
    }

    /**
     * A pool keeps textures of this shape: the shape stays interned until the matching `release`. Takes the
     * interned descriptor (see `canonical`).
     */
    static retain(descriptor: TextureResourceDescriptor): void {
        if (descriptor.#slot === -1) {
            throw new Error(`TextureResourceDescriptor.retain: ${descriptor.label} is not interned; retain TextureResourceDescriptor.canonical(descriptor)`);
        }
        descriptor.#holders++;
    }

    /** The pool's last texture of this shape is gone: the shape may be forgotten by a later `collect`. */
    static release(descriptor: TextureResourceDescriptor): void {
        if (descriptor.#holders <= 0) throw new Error(`TextureResourceDescriptor.release: ${descriptor.label} is not retained`);
        descriptor.#holders--;
        descriptor.#seen = epoch;
    }

    /**
     * Forgets the shapes no pool holds that no `of` returned in the last `INTERN_GRACE_COLLECTS` collects.
     * Each transient pool calls it at the end of its frame; it walks only the table, which holds the shapes in use.
     */
    static collect(): void {
        epoch++;
        TextureResourceDescriptor.#forget_unheld(epoch - INTERN_GRACE_COLLECTS);
    }

    /** How many shapes are interned now: those pools hold, and those asked for in the last few collects. */
    static get interned_count(): number {
        return INTERNED_LIST.length;
    }

    static #forget(descriptor: TextureResourceDescriptor): void {
        const slot = descriptor.#slot;
        const last = INTERNED_LIST.pop()!;
        if (last !== descriptor) {
            INTERNED_LIST[slot] = last;
            last.#slot = slot;
        }
        descriptor.#slot = -1;
        const size_key = descriptor.width * 65536 + descriptor.height;
        const by_format = INTERNED.get(size_key)!;
        const by_usage = by_format.get(descriptor.format)!;
        by_usage.delete(descriptor.usage);
        if (by_usage.size === 0) {
            by_format.delete(descriptor.format);
            if (by_format.size === 0) INTERNED.delete(size_key);
        }
    }

    static #insert(descriptor: TextureResourceDescriptor): void {
        // Nested maps keyed by primitives: a lookup allocates nothing, unlike a composed string key.
        const size_key = descriptor.width * 65536 + descriptor.height;
        let by_format = INTERNED.get(size_key);
        if (by_format === undefined) {
            by_format = new Map();
            INTERNED.set(size_key, by_format);
        }
        let by_usage = by_format.get(descriptor.format);
        if (by_usage === undefined) {
            by_usage = new Map();
            by_format.set(descriptor.format, by_usage);
        }
        by_usage.set(descriptor.usage, descriptor);
        descriptor.#slot = INTERNED_LIST.length;
        INTERNED_LIST.push(descriptor);
    }

    static #forget_unheld(seen_before: number): void {
        // backwards, so that the swap-remove of #forget only moves entries already visited
        for (let i = INTERNED_LIST.length - 1; i >= 0; i--) {
            const d = INTERNED_LIST[i];
            if (d.#holders === 0 && d.#seen < seen_before) TextureResourceDescriptor.#forget(d);
        }
    }
}

export interface TextureResourceDescriptorSpec {
    readonly resolution: ArrayLike<number>;
    readonly format: GPUTextureFormat;
    readonly usage: number;
}

const INTERNED = new Map<number, Map<string, Map<number, TextureResourceDescriptor>>>();
/** The interned descriptors as a list: collect walks it without the iterator a Map walk allocates. */
const INTERNED_LIST: TextureResourceDescriptor[] = [];
let epoch = 0;

function lookup(width: number, height: number, format: GPUTextureFormat, usage: number): TextureResourceDescriptor | undefined {
    return INTERNED.get(width * 65536 + height)?.get(format)?.get(usage);
}

function describe_value(value: unknown): string {
    if (typeof value === "string") return JSON.stringify(value);
    if (Array.isArray(value) || ArrayBuffer.isView(value)) return `[${Array.from(value as ArrayLike<unknown>).join(", ")}]`;
    return String(value);
}
