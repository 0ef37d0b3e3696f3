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
        return TextureResourceDescriptor.of(spec.resolution[0], spec.resolution[1], spec.format, spec.usage);
    }

    /** `from` without the spec object, for hot paths that would rather not build one. */
    static of(width: number, height: number, format: GPUTextureFormat, usage: number): TextureResourceDescriptor {
        if (!(width >= 1 && height >= 1 && width <= 65535 && height <= 65535) || (width | 0) !== width || (height | 0) !== height) {
            throw new RangeError(`TextureResourceDescriptor: resolution must be whole pixels in [1, 65535], got ${width}x${height}`);
        }
        if (typeof format !== "string" || format.length === 0) {
            throw new TypeError(`TextureResourceDescriptor: format must be a WebGPU texture format name, got ${String(format)}`);
        }
        if (!(usage > 0) || (usage | 0) !== usage) {
            throw new TypeError(`TextureResourceDescriptor: usage must be GPUTextureUsage flags (a positive integer), got ${String(usage)}`);
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
            descriptor = new TextureResourceDescriptor(width, height, format, usage);
            by_usage.set(usage, descriptor);
        }
        return descriptor;
    }
}

export interface TextureResourceDescriptorSpec {
    readonly resolution: ArrayLike<number>;
    readonly format: GPUTextureFormat;
    readonly usage: number;
}

const INTERNED = new Map<number, Map<string, Map<number, TextureResourceDescriptor>>>();
