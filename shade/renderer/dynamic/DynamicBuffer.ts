/** A typed array the buffer can take as a whole-array write. */
export type DynamicBufferSource = Float32Array | Uint32Array | Uint16Array;

/**
 * A GPU buffer with a CPU mirror, for data rewritten from the CPU every frame.
 *
 * - Writes land in the mirror (`write`, or the typed views plus `mark_dirty`); `flush` uploads the dirty
 *   ranges, one `writeBuffer` per range. Ranges closer than `MERGE_GAP_BYTES` are merged: one call with a
 *   few spare bytes beats two calls.
 * - A whole-array `write` of at least `DIRECT_BYTES` skips the mirror and is uploaded straight from the
 *   caller's array: copying it into the mirror first would only add a memcpy to a path whose cost is the
 *   copy. Such a range is stale in the mirror (`DIRECT_BYTES > MERGE_GAP_BYTES` keeps merged ranges from
 *   ever spanning one), and the GPU buffer is the truth for it: growth copies GPU to GPU.
 * - Capacity is grow-only while in use (x2, mirror contents kept; the GPU buffer follows at the next
 *   `flush`, with what it held copied over on the GPU). `resize` and `begin_relocation` are how an owner
 *   shrinks it after sustained low use.
 * - The GPU buffer belongs to one device; a `flush` on another device builds a new one (the owner re-writes
 *   everything live). Replaced buffers are retired, not destroyed, until `release_retired` (the next
 *   frame), because this frame's already-encoded commands may still use them.
 *
 * Nothing allocates per flush once warm.
 */
export class DynamicBuffer {
    /** Ranges closer than this are uploaded as one. */
    static readonly MERGE_GAP_BYTES = 16 * 1024;
    /** Whole-array writes at least this big go straight from the caller's array to the GPU. */
    static readonly DIRECT_BYTES = 64 * 1024;

    readonly label: string;
    readonly usage: GPUBufferUsageFlags;
    readonly min_bytes: number;

    bytes!: Uint8Array;
    u16!: Uint16Array;
    u32!: Uint32Array;
    f32!: Float32Array;

    #gpu: GPUBuffer | null = null;
    #device: GPUDevice | null = null;
    #generation = 0;
    /** Bytes of the GPU buffer that hold live data (copied over when it grows). */
    #gpu_valid_bytes = 0;
    // the device's buffer limit, read once per device (device.limits is a native call)
    #limit_device: GPUDevice | null = null;
    #limit = 0;
    readonly #retired: GPUBuffer[] = [];
    #retired_count = 0;

    // dirty ranges, sorted, disjoint, more than MERGE_GAP_BYTES apart
    #dirty_begin = new Int32Array(16);
    #dirty_end = new Int32Array(16);
    #dirty_count = 0;

    // whole-array writes to issue at flush
    readonly #direct: { offset: number; data: DynamicBufferSource | null }[] = [];
    #direct_count = 0;

    // relocation (compaction) in progress
    #relocation_encoder: GPUCommandEncoder | null = null;
    #relocation_source: GPUBuffer | null = null;
    #relocation_mirror: Uint8Array | null = null;

    readonly #buffer_descriptor: GPUBufferDescriptor;

    constructor(label: string, usage: GPUBufferUsageFlags, min_bytes: number) {
        this.label = label;
        this.usage = usage | COPY_DST | COPY_SRC;
        this.min_bytes = align4(Math.max(4, min_bytes));
        this.#buffer_descriptor = { label, size: 0, usage: this.usage };
        this.#set_mirror(new ArrayBuffer(this.min_bytes));
    }

    /** Bytes the mirror holds (the GPU buffer matches it after a flush, up to the device's limit). */
    get capacity(): number {
        return this.bytes.byteLength;
    }

    /** The GPU buffer on the device of the last flush; null before the first. */
    get buffer(): GPUBuffer | null {
        return this.#gpu;
    }

    get device(): GPUDevice | null {
        return this.#device;
    }

    /**
     * Bytes at the start of the mirror that the GPU buffer on `device` holds as of the last flush (plus the
     * ranges marked since, at the next one): what an owner may skip re-marking when it rewrites the mirror with
     * unchanged values. 0 with no buffer on `device` yet (a new device, after `resize` or `destroy`).
     */
    synced_bytes(device: GPUDevice): number {
        return this.#gpu !== null && this.#device === device ? this.#gpu_valid_bytes : 0;
    }

    /** Changes whenever `buffer` is replaced (bind groups that use it must be rebuilt). */
    get generation(): number {
        return this.#generation;
    }

    /** Ranges waiting for the next flush (after merging), and whole-array writes. For tests and diagnostics. */
    get pending_writes(): number {
        return this.#dirty_count + this.#direct_count;
    }

    /** Makes the mirror hold at least `bytes`, doubling; contents are kept. Views are replaced: re-read them. */
    reserve(bytes: number): void {
        if (bytes <= this.bytes.byteLength) return;
        let capacity = this.bytes.byteLength;
        while (capacity < bytes) capacity *= 2;
        const old = this.bytes;
        this.#set_mirror(new ArrayBuffer(capacity));
        this.bytes.set(old);
    }

    /**
     * Replaces the mirror with one of `bytes` (contents dropped) and lets the GPU buffer go; the next flush
     * builds one of the new size. For data rewritten in full every frame.
     */
    resize(bytes: number): void {
        this.#set_mirror(new ArrayBuffer(align4(Math.max(this.min_bytes, bytes))));
        this.#retire_gpu();
        this.#dirty_count = 0;
        this.#direct_count = 0;
    }

    /** Marks mirror bytes [begin, end) for upload at the next flush. */
    mark_dirty(begin: number, end: number): void {
        if (end <= begin) return;
        end = align4(end);
        const gap = DynamicBuffer.MERGE_GAP_BYTES;
        const b = this.#dirty_begin;
        const e = this.#dirty_end;
        const n = this.#dirty_count;
        let i = 0;
        while (i < n && e[i] + gap < begin) i++;
        if (i < n && b[i] <= end + gap) {
            if (begin < b[i]) b[i] = begin;
            if (end > e[i]) e[i] = end;
            // the widened range may now reach the ones after it
            let j = i + 1;
            while (j < n && b[j] <= e[i] + gap) {
                if (e[j] > e[i]) e[i] = e[j];
                j++;
            }
            const removed = j - i - 1;
            if (removed > 0) {
                for (let k = j; k < n; k++) {
                    b[k - removed] = b[k];
                    e[k - removed] = e[k];
                }
                this.#dirty_count = n - removed;
            }
            return;
        }
        if (n === b.length) this.#grow_dirty();
        const bb = this.#dirty_begin;
        const ee = this.#dirty_end;
        for (let k = n; k > i; k--) {
            bb[k] = bb[k - 1];
            ee[k] = ee[k - 1];
        }
        bb[i] = begin;
        ee[i] = end;
        this.#dirty_count = n + 1;
    }

    /**
     * Writes all of `data` at byte `offset` (a multiple of 4): through the mirror, or, for a large array
     * whose size is a multiple of 4 bytes, straight from `data` at flush (keep it unchanged until then).
     */
    write(offset: number, data: DynamicBufferSource): void {
        const size = data.byteLength;
        if (size >= DynamicBuffer.DIRECT_BYTES && (size & 3) === 0) {
            let entry = this.#direct[this.#direct_count];
            if (entry === undefined) {
                entry = { offset: 0, data: null };
                this.#direct.push(entry);
            }
            entry.offset = offset;
            entry.data = data;
            this.#direct_count++;
            return;
        }
        if (data instanceof Float32Array) this.f32.set(data, offset >> 2);
        else if (data instanceof Uint32Array) this.u32.set(data, offset >> 2);
        else this.u16.set(data, offset >> 1);
        this.mark_dirty(offset, offset + size);
    }

    /**
     * Brings the GPU buffer up to date on `device`: builds it on a new device, grows it (copying its first
     * `valid_bytes` over on the GPU) when the mirror grew, then uploads the dirty ranges and direct writes.
     * `valid_bytes` is how much of the buffer holds live data after this flush. Returns the buffer.
     */
    flush(device: GPUDevice, valid_bytes: number): GPUBuffer {
        if (device !== this.#limit_device) {
            this.#limit_device = device;
            this.#limit = buffer_limit(device);
        }
        const limit = this.#limit;
        const wanted = Math.min(this.bytes.byteLength, limit);
        if (valid_bytes > limit) {
            throw new RangeError(
                `${this.label}: ${mib(valid_bytes)} of data does not fit the device's storage buffer limit of ${mib(limit)}`,
            );
        }
        let gpu = this.#gpu;
        if (gpu === null || this.#device !== device) {
            if (gpu !== null) this.#retire_gpu();
            gpu = this.#create(device, wanted);
        } else if (gpu.size < wanted) {
            const old = gpu;
            gpu = this.#create(device, wanted);
            const copy = Math.min(this.#gpu_valid_bytes, old.size);
            if (copy > 0) {
                // submitted now, ahead of this flush's writeBuffers in queue order, so they land on top of it
                const encoder = device.createCommandEncoder({ label: `${this.label} grow` });
                encoder.copyBufferToBuffer(old, 0, gpu, 0, copy);
                device.queue.submit([encoder.finish()]);
            }
            this.#retire(old);
        }
        const queue = device.queue;
        for (let i = 0; i < this.#direct_count; i++) {
            const entry = this.#direct[i];
            const data = entry.data!;
            // as (ArrayBuffer, byte offset, size): Chrome's writeBuffer given the typed array itself leaves
            // ~50 KB of garbage per 3.6 MB call (bench/peers, raw.ts); given its buffer, none
            queue.writeBuffer(gpu, entry.offset, data.buffer, data.byteOffset, data.byteLength);
            entry.data = null;
        }
        this.#direct_count = 0;
        const mirror = this.bytes.buffer;
        const b = this.#dirty_begin;
        const e = this.#dirty_end;
        for (let i = 0; i < this.#dirty_count; i++) {
            const end = Math.min(e[i], gpu.size);
            if (end > b[i]) queue.writeBuffer(gpu, b[i], mirror, b[i], end - b[i]);
        }
        this.#dirty_count = 0;
        this.#gpu_valid_bytes = valid_bytes;
        return gpu;
    }

    /**
     * Starts moving live ranges into a new mirror (and GPU buffer, on `device` when the current buffer lives
     * there) of `bytes`: compaction before a shrink. Follow with `relocate` per range and `end_relocation`.
     */
    begin_relocation(bytes: number, device: GPUDevice | null): void {
        const old = this.bytes;
        this.#relocation_mirror = old;
        this.#set_mirror(new ArrayBuffer(align4(Math.max(this.min_bytes, bytes))));
        this.#dirty_count = 0;
        this.#direct_count = 0;
        if (this.#gpu !== null && device !== null && this.#device === device) {
            const source = this.#gpu;
            this.#relocation_source = source;
            this.#gpu = null;
            this.#create(device, Math.min(this.bytes.byteLength, buffer_limit(device)));
            this.#relocation_encoder = device.createCommandEncoder({ label: `${this.label} compact` });
        } else {
            this.#retire_gpu();
        }
    }

    /** Moves `bytes` from `from` in the old space to `to` in the new one (both multiples of 4). */
    relocate(from: number, to: number, bytes: number): void {
        if (bytes === 0) return;
        this.bytes.set(this.#relocation_mirror!.subarray(from, from + bytes), to);
        if (this.#relocation_encoder !== null) {
            this.#relocation_encoder.copyBufferToBuffer(this.#relocation_source!, from, this.#gpu!, to, bytes);
        }
    }

    /** Submits the GPU moves; `valid_bytes` of the new buffer now hold live data. */
    end_relocation(valid_bytes: number): void {
        if (this.#relocation_encoder !== null) {
            this.#device!.queue.submit([this.#relocation_encoder.finish()]);
            this.#retire(this.#relocation_source!);
        }
        this.#relocation_encoder = null;
        this.#relocation_source = null;
        this.#relocation_mirror = null;
        this.#gpu_valid_bytes = valid_bytes;
    }

    /** Destroys buffers replaced before this call; call once the commands that used them are submitted. */
    release_retired(): void {
        for (let i = 0; i < this.#retired_count; i++) {
            this.#retired[i].destroy();
            this.#retired[i] = null!;
        }
        this.#retired_count = 0;
    }

    /** Destroys the GPU buffer and every retired one; the mirror stays (the next flush builds a new one). */
    destroy(): void {
        this.#retire_gpu();
        this.release_retired();
        this.#limit_device = null;
        this.#device = null;
        this.#dirty_count = 0;
        this.#direct_count = 0;
    }

    #create(device: GPUDevice, size: number): GPUBuffer {
        const descriptor = this.#buffer_descriptor;
        descriptor.size = size;
        const gpu = device.createBuffer(descriptor);
        this.#gpu = gpu;
        this.#device = device;
        this.#generation++;
        return gpu;
    }

    #retire_gpu(): void {
        if (this.#gpu !== null) this.#retire(this.#gpu);
        this.#gpu = null;
        this.#gpu_valid_bytes = 0;
    }

    #retire(buffer: GPUBuffer): void {
        if (this.#retired_count === this.#retired.length) this.#retired.push(buffer);
        else this.#retired[this.#retired_count] = buffer;
        this.#retired_count++;
    }

    #set_mirror(buffer: ArrayBuffer): void {
        this.bytes = new Uint8Array(buffer);
        this.u16 = new Uint16Array(buffer);
        this.u32 = new Uint32Array(buffer);
        this.f32 = new Float32Array(buffer);
    }

    #grow_dirty(): void {
        const n = this.#dirty_begin.length * 2;
        const b = new Int32Array(n);
        const e = new Int32Array(n);
        b.set(this.#dirty_begin);
        e.set(this.#dirty_end);
        this.#dirty_begin = b;
        this.#dirty_end = e;
    }
}

// GPUBufferUsage values, spelled out: the global exists only once a WebGPU implementation is loaded, and a
// renderer may be constructed before that (a field initializer of an extension)
const COPY_SRC = 0x0004;
const COPY_DST = 0x0008;

function align4(n: number): number {
    return Math.ceil(n / 4) * 4;
}

// Past 2^30 a byte count is no longer a small integer in V8 and a step on it can allocate a heap number (and
// the dirty ranges are Int32); a dynamic buffer of a gibibyte is far past what a frame can upload anyway.
const MAX_BYTES = 2 ** 30 - 4;

/** The largest buffer this can bind whole as storage on `device`. */
function buffer_limit(device: GPUDevice): number {
    const limits = device.limits;
    return Math.min(MAX_BYTES, Math.floor(Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) / 4) * 4);
}

function mib(bytes: number): string {
    return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
