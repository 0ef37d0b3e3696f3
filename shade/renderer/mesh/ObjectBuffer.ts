import { OBJECT_BYTES, OBJECT_FLOATS } from "./mesh_wgsl.js";

/**
 * Per-object data for the frame's mesh draws: a CPU mirror written object by object, uploaded with one
 * `writeBuffer`, into a grow-only storage buffer (doubling), one per device.
 */
export class ObjectBuffer {
    #floats = new Float32Array(OBJECT_FLOATS * 64);
    #uints = new Uint32Array(this.#floats.buffer);
    #count = 0;
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

    /** Reserves the next object's slot; returns its float offset in `floats` (and `uints`). */
    push(): number {
        const index = this.#count++;
        if ((index + 1) * OBJECT_FLOATS > this.#floats.length) {
            const grown = new Float32Array(this.#floats.length * 2);
            grown.set(this.#floats);
            this.#floats = grown;
            this.#uints = new Uint32Array(grown.buffer);
        }
        return index * OBJECT_FLOATS;
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
        }
        if (this.#count > 0) device.queue.writeBuffer(buffer, 0, this.#floats.buffer, 0, this.#count * OBJECT_BYTES);
        return buffer;
    }
}
