/**
 * Per-frame values of a pass (PlayCanvas's `frameUpdate`): a uniform block whose CPU side is one preallocated
 * `Float32Array`, written in place, and whose GPU side is one buffer per device, made once and written with
 * `upload` each frame. Nothing is allocated per frame.
 */
export class UniformBlock {
    readonly label: string;
    /** The values, 16-byte aligned in length (vec4s). Write them in place; never replace the array. */
    readonly data: Float32Array;
    readonly #per_device = new WeakMap<GPUDevice, GPUBuffer>();
    #last: GPUBuffer | null = null;
    #last_device: GPUDevice | null = null;

    /** `floats` is rounded up to a whole number of vec4s (at least one). */
    constructor(label: string, floats: number) {
        if (!(Number.isInteger(floats) && floats >= 0)) throw new RangeError(`UniformBlock '${label}': floats must be a non-negative integer, got ${String(floats)}`);
        this.label = label;
        this.data = new Float32Array(Math.max(4, (floats + 3) & ~3));
    }

    /** vec4s in the block. */
    get vec4_count(): number {
        return this.data.length / 4;
    }

    /** The block's buffer on `device` (made the first time). */
    buffer(device: GPUDevice): GPUBuffer {
        let buffer = this.#per_device.get(device);
        if (buffer === undefined) {
            buffer = device.createBuffer({ label: this.label, size: this.data.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
            this.#per_device.set(device, buffer);
            this.#last = buffer;
            this.#last_device = device;
        }
        return buffer;
    }

    /** Writes `data` to the block's buffer on `device`; returns the buffer. */
    upload(device: GPUDevice): GPUBuffer {
        const buffer = this.buffer(device);
        device.queue.writeBuffer(buffer, 0, this.data);
        return buffer;
    }

    /** Destroys the buffer of the last device it was made on. */
    destroy(): void {
        this.#last?.destroy();
        if (this.#last_device !== null) this.#per_device.delete(this.#last_device);
        this.#last = null;
        this.#last_device = null;
    }
}
