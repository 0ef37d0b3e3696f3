// DynamicBuffer: the CPU mirror, dirty-range merging, direct writes, growth, relocation and device change,
// checked by reading the GPU buffer back on a real device (Dawn).
import { describe, expect, it } from "vitest";
import { DynamicBuffer } from "../../../../shade/renderer/dynamic/DynamicBuffer.js";
import { with_gpu_device } from "../../../harness/index.js";

const STORAGE = 0x80;
const KIB = 1024;

async function read_buffer(device: GPUDevice, buffer: GPUBuffer, bytes: number): Promise<Uint32Array> {
    const staging = device.createBuffer({ label: "test read-back", size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const out = new Uint32Array(staging.getMappedRange().slice(0));
    staging.destroy();
    return out;
}

function words(from: number, count: number, value: (i: number) => number): Uint32Array {
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) out[i] = value(from + i);
    return out;
}

describe("DynamicBuffer", () => {
    it("merges dirty ranges closer than MERGE_GAP_BYTES and keeps distant ones apart", () => {
        const buffer = new DynamicBuffer("test", STORAGE, 256 * KIB);
        buffer.mark_dirty(0, 64);
        buffer.mark_dirty(128, 256); // 64 bytes apart: merged
        expect(buffer.pending_writes).toBe(1);
        buffer.mark_dirty(200 * KIB, 201 * KIB); // far: a second range
        expect(buffer.pending_writes).toBe(2);
        buffer.mark_dirty(100 * KIB, 101 * KIB); // between, far from both
        expect(buffer.pending_writes).toBe(3);
        buffer.mark_dirty(1 * KIB, 199 * KIB); // bridges all three
        expect(buffer.pending_writes).toBe(1);
        // a small write goes through the mirror; a large one is queued straight from its array
        buffer.write(0, new Float32Array(4));
        expect(buffer.pending_writes).toBe(1);
        buffer.write(210 * KIB, new Float32Array(DynamicBuffer.DIRECT_BYTES / 4));
        expect(buffer.pending_writes).toBe(2);
        expect(DynamicBuffer.DIRECT_BYTES).toBeGreaterThan(DynamicBuffer.MERGE_GAP_BYTES);
    });

    it("uploads mirror ranges and direct writes, keeps contents across growth (copied on the GPU) and relocation", async () => {
        await with_gpu_device(async (device) => {
            const buffer = new DynamicBuffer("test dynamic buffer", STORAGE, 64 * KIB);
            const value = (i: number) => (i * 2654435761) >>> 0;
            // small: mirror; 16-bit with an odd count; large: direct
            buffer.write(0, words(0, 100, value));
            buffer.write(400, Uint16Array.of(1, 2, 3));
            const large = words(1000, 20 * KIB, value); // 80 KiB, past the 64 KiB mirror
            buffer.reserve(4000 + large.byteLength);
            buffer.write(4000, large);
            let gpu = buffer.flush(device, 4000 + large.byteLength);
            expect(gpu.size).toBe(buffer.capacity);
            expect(buffer.capacity).toBe(128 * KIB);
            let data = await read_buffer(device, gpu, gpu.size);
            expect(Array.from(data.subarray(0, 100))).toEqual(Array.from(words(0, 100, value)));
            expect(data[100]).toBe(1 | (2 << 16));
            expect(data[101] & 0xffff).toBe(3);
            expect(data[1000 + 20 * KIB - 1]).toBe(value(1000 + 20 * KIB - 1));
            const generation = buffer.generation;

            // grow: the GPU copy carries the direct range (which the mirror never held) over
            buffer.reserve(200 * KIB);
            buffer.write(150 * KIB, Uint32Array.of(7, 8, 9, 10));
            gpu = buffer.flush(device, 150 * KIB + 16);
            expect(buffer.generation).toBe(generation + 1);
            expect(gpu.size).toBe(256 * KIB);
            data = await read_buffer(device, gpu, gpu.size);
            expect(data[1000 + 5000]).toBe(value(6000));
            expect(data[0]).toBe(value(0));
            expect(Array.from(data.subarray((150 * KIB) / 4, (150 * KIB) / 4 + 4))).toEqual([7, 8, 9, 10]);

            // relocate (compaction): move [4000, 4000 + 80 KiB) to 0 in a 128 KiB buffer, on the GPU
            buffer.begin_relocation(128 * KIB, device);
            buffer.relocate(4000, 0, large.byteLength);
            buffer.end_relocation(large.byteLength);
            expect(buffer.capacity).toBe(128 * KIB);
            gpu = buffer.flush(device, large.byteLength);
            data = await read_buffer(device, gpu, gpu.size);
            expect(data[0]).toBe(value(1000));
            expect(data[20 * KIB - 1]).toBe(value(1000 + 20 * KIB - 1));
            buffer.release_retired();
            buffer.destroy();
        });
    });

    it("flushes two separate dirty ranges and a range widened to the left, read back from the GPU", async () => {
        await with_gpu_device(async (device) => {
            const buffer = new DynamicBuffer("test dirty ranges", STORAGE, 256 * KIB);
            const gpu = buffer.flush(device, buffer.capacity); // all zeros on the GPU
            const far = (200 * KIB) / 4; // word index, far past MERGE_GAP_BYTES from the first range
            const fill = (from: number, count: number, base: number) => {
                for (let i = 0; i < count; i++) buffer.u32[from + i] = base + i;
            };

            // two separate ranges, the later one marked first (the second is inserted before it)
            fill(far, 16, 2000);
            buffer.mark_dirty(far * 4, far * 4 + 64);
            fill(16, 16, 1000);
            buffer.mark_dirty(64, 128);
            expect(buffer.pending_writes).toBe(2);
            expect(buffer.flush(device, buffer.capacity)).toBe(gpu);
            let data = await read_buffer(device, gpu, gpu.size);
            expect(Array.from(data.subarray(16, 32))).toEqual(Array.from(words(1000, 16, (i) => i)));
            expect(Array.from(data.subarray(far, far + 16))).toEqual(Array.from(words(2000, 16, (i) => i)));
            expect(data[15]).toBe(0);
            expect(data[32]).toBe(0);

            // a range widened to the left: [2000, 2064) then [1000, 1064), close enough to merge into one
            const right = 2000 / 4;
            const left = 1000 / 4;
            fill(right, 16, 3000);
            buffer.mark_dirty(right * 4, right * 4 + 64);
            fill(left, 16, 4000);
            buffer.mark_dirty(left * 4, left * 4 + 64);
            expect(buffer.pending_writes).toBe(1);
            buffer.flush(device, buffer.capacity);
            data = await read_buffer(device, gpu, gpu.size);
            expect(Array.from(data.subarray(left, left + 16))).toEqual(Array.from(words(4000, 16, (i) => i)));
            expect(Array.from(data.subarray(right, right + 16))).toEqual(Array.from(words(3000, 16, (i) => i)));
            expect(buffer.pending_writes).toBe(0);
            buffer.destroy();
        });
    });

    it("builds a new GPU buffer on another device", async () => {
        const buffer = new DynamicBuffer("test device change", STORAGE, 4 * KIB);
        const first: GPUBuffer[] = [];
        for (let run = 0; run < 2; run++) {
            await with_gpu_device(async (device) => {
                buffer.write(0, Uint32Array.of(run + 1));
                const gpu = buffer.flush(device, 4);
                first.push(gpu);
                const data = await read_buffer(device, gpu, 4);
                expect(data[0]).toBe(run + 1);
                expect(buffer.device).toBe(device);
            });
        }
        expect(first[0]).not.toBe(first[1]);
        buffer.destroy();
    });
});
