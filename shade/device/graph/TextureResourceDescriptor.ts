import { TEXTURE_FORMATS, TEXTURE_USAGE_BITS } from "./texture_formats.js";

/** Most distinct shapes kept interned; past it the table starts over (see `of`). */
export const MAX_INTERNED_DESCRIPTORS = 1024;

/**
 * The shape of a graph texture: size, format and usage. Descriptors are interned: `from` returns the same
 * frozen object for the same shape, so the transient pool can key on identity and a pass can call `from`
 * every frame without allocating once the shape has been seen.
 */
export class TextureResourceDescriptor {
    readonly width: number;
    readonly height: number;
    readonly format: GPUTextureFormat;
    readonly usage: number;
    /** `WxH format`, used in GPU labels and diagnostics. */
    readonly label: string;

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
        // Nested maps keyed by primitives: a lookup allocates nothing, unlike a composed string key.
        const size_key = width * 65536 + height;
        let by_format = INTERNED.get(size_key);
        if (by_format === undefined) {
            by_format = new Map();
            INTERNED.set(size_key, by_format);
        }
        let by_usage = by_format.get(format);
        if (by_usage === undefined) {
            by_usage = new Map();
            by_format.set(format, by_usage);
        }
        let descriptor = by_usage.get(usage);
        if (descriptor === undefined) {
            // A dynamic-resolution ramp makes a new shape every frame for a while: bound the table rather than
            // grow it forever. Starting over costs only identity: descriptors already handed out stay valid, and
            // pooled textures under them age out of the pool as usual.
            if (interned_count >= MAX_INTERNED_DESCRIPTORS) {
                INTERNED.clear();
                interned_count = 0;
                return TextureResourceDescriptor.of(width, height, format, usage);
            }
            descriptor = new TextureResourceDescriptor(width, height, format, usage);
            by_usage.set(usage, descriptor);
            interned_count++;
        }
        return descriptor;
    }

    /** How many shapes are interned now (at most `MAX_INTERNED_DESCRIPTORS`). */
    static get interned_count(): number {
        return interned_count;
    }
}

export interface TextureResourceDescriptorSpec {
    readonly resolution: ArrayLike<number>;
    readonly format: GPUTextureFormat;
    readonly usage: number;
}

const INTERNED = new Map<number, Map<string, Map<number, TextureResourceDescriptor>>>();
let interned_count = 0;

function describe_value(value: unknown): string {
    if (typeof value === "string") return JSON.stringify(value);
    if (Array.isArray(value) || ArrayBuffer.isView(value)) return `[${Array.from(value as ArrayLike<unknown>).join(", ")}]`;
    return String(value);
}
