import { texture_descriptor_byte_size } from "./texture_byte_size.js";

/** GPU bytes held, per category. `textures` excludes the frame graph's transients, counted on their own. */
export interface GPUMemory {
    /** Textures the frame graph's transient pool holds (in use or idle). */
    transients: number;
    /** Every live buffer made through the device. */
    buffers: number;
    /** Every other live texture made through the device (render targets, atlases, extensions' own). */
    textures: number;
    total: number;
}

/** One allocation: what it weighs, and whether it still counts (destroyed, collected or its device gone). */
interface Allocation {
    readonly bytes: number;
    readonly is_buffer: boolean;
    live: boolean;
}

/**
 * Counts the bytes of every buffer and texture made through one device: `install` wraps the device's
 * `createBuffer` and `createTexture` (own properties on that device object only), and each object's `destroy`.
 * An object dropped without `destroy` stops counting when it is garbage-collected (a FinalizationRegistry),
 * as the implementation frees it then too. Cheap: a few field writes per creation, nothing per frame. Sizes
 * are the logical ones (texel blocks x levels x layers x samples), before the driver's padding.
 */
export class GPUMemoryTracker {
    readonly device: GPUDevice;
    #buffers = 0;
    #textures = 0;
    #buffer_count = 0;
    #texture_count = 0;
    #closed = false;
    readonly #collected = new FinalizationRegistry<Allocation>((allocation) => this.#free(allocation));

    private constructor(device: GPUDevice) {
        this.device = device;
    }

    /** Starts counting on `device`; a device can carry one tracker (a second install throws). */
    static install(device: GPUDevice): GPUMemoryTracker {
        if (trackers.has(device)) throw new Error(`GPUMemoryTracker.install: device '${device.label}' is already tracked`);
        const tracker = new GPUMemoryTracker(device);
        trackers.set(device, tracker);
        const create_buffer = device.createBuffer;
        const create_texture = device.createTexture;
        device.createBuffer = function (descriptor: GPUBufferDescriptor): GPUBuffer {
            const buffer = create_buffer.call(this, descriptor);
            tracker.#track(buffer, descriptor.size, true);
            return buffer;
        };
        device.createTexture = function (descriptor: GPUTextureDescriptor): GPUTexture {
            const texture = create_texture.call(this, descriptor);
            tracker.#track(texture, texture_descriptor_byte_size(descriptor), false);
            return texture;
        };
        return tracker;
    }

    /** The tracker installed on `device`, or null. */
    static of(device: GPUDevice): GPUMemoryTracker | null {
        return trackers.get(device) ?? null;
    }

    /** Bytes of live buffers (0 once closed). */
    get buffer_bytes(): number {
        return this.#buffers;
    }

    /** Bytes of live textures, transient ones included (0 once closed). */
    get texture_bytes(): number {
        return this.#textures;
    }

    get buffer_count(): number {
        return this.#buffer_count;
    }

    get texture_count(): number {
        return this.#texture_count;
    }

    /** Whether `close` ran. */
    get closed(): boolean {
        return this.#closed;
    }

    /** The device is destroyed or lost: everything it held is freed; counts go to 0 and stay there. */
    close(): void {
        this.#closed = true;
        this.#buffers = 0;
        this.#textures = 0;
        this.#buffer_count = 0;
        this.#texture_count = 0;
    }

    #track(object: GPUBuffer | GPUTexture, bytes: number, is_buffer: boolean): void {
        if (this.#closed) return;
        const allocation: Allocation = { bytes, is_buffer, live: true };
        if (is_buffer) {
            this.#buffers += bytes;
            this.#buffer_count++;
        } else {
            this.#textures += bytes;
            this.#texture_count++;
        }
        this.#collected.register(object, allocation, allocation);
        const destroy = object.destroy;
        const tracker = this;
        object.destroy = function (): undefined {
            tracker.#free(allocation);
            return destroy.call(this);
        };
    }

    #free(allocation: Allocation): void {
        if (!allocation.live) return; // a second destroy, or collected after destroy
        allocation.live = false;
        this.#collected.unregister(allocation);
        if (this.#closed) return;
        if (allocation.is_buffer) {
            this.#buffers -= allocation.bytes;
            this.#buffer_count--;
        } else {
            this.#textures -= allocation.bytes;
            this.#texture_count--;
        }
    }
}

const trackers = new WeakMap<GPUDevice, GPUMemoryTracker>();
