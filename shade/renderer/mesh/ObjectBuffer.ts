import { OBJECT_BYTES, OBJECT_FLOATS } from "./mesh_wgsl.js";

/**
 * Per-object data for the frame's mesh draws: a CPU mirror written object by object, uploaded with one
 * `writeBuffer`, into a grow-only storage buffer (doubling), one per device. Slots reserved with `keep()`
 * instead of `push()` hold what they held last frame and are not uploaded again: only the span of pushed
 * slots is (everything, on a new or replaced buffer).
 */
export class ObjectBuffer {
    #floats = new Float32Array(OBJECT_FLOATS * 64);
    #uints = new Uint32Array(this.#floats.buffer);
    #count = 0;
    // the span of slots written since the last upload; [0, 0) when none
    #dirty_begin = 0;
    #dirty_end = 0;
    #last_device: GPUDevice | null = null;
    readonly #gpu = new WeakMap<GPUDevice, GPUBuffer>();
    /** Bumped whenever a GPU buffer is replaced, so bind groups know to rebuild. */
    generation = 0;

    get count(): number {
        return this.#count;
    }

    get floats(): Float32Array {
        return this.#floats;
    }

    get uints(): Uint32Array {
        return this.#uints;
    }

    /** Starts a new frame's list. */
    clear(): void {
        this.#count = 0;
    }

    /** Reserves the next object's slot, to be written now; returns its float offset in `floats` (and `uints`). */
    push(): number {
        const o = this.keep();
        const index = o / OBJECT_FLOATS;
        if (this.#dirty_begin === this.#dirty_end) {
            this.#dirty_begin = index;
            this.#dirty_end = index + 1;
        } else {
            if (index < this.#dirty_begin) this.#dirty_begin = index;
            if (index >= this.#dirty_end) this.#dirty_end = index + 1;
        }
        return o;
    }

    /**
     * Reserves the next object's slot holding what it held at the last upload (the caller knows it is
     * unchanged); returns its float offset.
     */
    keep(): number {
        const index = this.#count++;
        if ((index + 1) * OBJECT_FLOATS > this.#floats.length) {
            const grown = new Float32Array(this.#floats.length * 2);
            grown.set(this.#floats);
            this.#floats = grown;
            this.#uints = new Uint32Array(grown.buffer);
        }
        return index * OBJECT_FLOATS;
    }

    /**
     * Reserves the next `count` slots holding what they held at the last upload (the caller knows all of them are
     * unchanged): what `keep()` does `count` times.
     */
    keep_span(count: number): void {
        const end = this.#count + count;
        if (end * OBJECT_FLOATS > this.#floats.length) {
            let length = this.#floats.length;
            while (end * OBJECT_FLOATS > length) length *= 2;
            const grown = new Float32Array(length);
            grown.set(this.#floats);
            this.#floats = grown;
            this.#uints = new Uint32Array(grown.buffer);
        }
        this.#count = end;
    }

    /** The device's storage buffer, grown to fit and holding this frame's objects. */
    upload(device: GPUDevice): GPUBuffer {
        const bytes = Math.max(1, this.#count) * OBJECT_BYTES;
        let buffer = this.#gpu.get(device);
        if (buffer === undefined || buffer.size < bytes) {
            buffer?.destroy();
            let size = buffer === undefined ? 64 * OBJECT_BYTES : buffer.size;
            while (size < bytes) size *= 2;
            buffer = device.createBuffer({
                label: "mesh objects",
                size,
                usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
            });
            this.#gpu.set(device, buffer);
            this.generation++;
            this.#last_device = null;
        }
        if (device !== this.#last_device) {
            // a new buffer, or another device's: all of it
            this.#last_device = device;
            this.#dirty_begin = 0;
            this.#dirty_end = this.#count;
        }
        const end = Math.min(this.#dirty_end, this.#count);
        if (end > this.#dirty_begin) {
            device.queue.writeBuffer(buffer, this.#dirty_begin * OBJECT_BYTES, this.#floats.buffer, this.#dirty_begin * OBJECT_BYTES, (end - this.#dirty_begin) * OBJECT_BYTES);
        }
        this.#dirty_begin = 0;
        this.#dirty_end = 0;
        return buffer;
    }
}
