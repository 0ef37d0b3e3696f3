// AssetCache: one load per URL, shared by concurrent and later loads; reference counts; the last release frees the
// model's GPU buffers and textures (GPUMemoryTracker: 100 load/release cycles end where they started).
import { describe, expect, it } from "vitest";
import { AssetCache } from "../../../engine/assets/AssetCache.js";
import { AssetError } from "../../../engine/assets/AssetError.js";
import type { AssetProgress } from "../../../engine/assets/AssetProgress.js";
import { GPUMemoryTracker } from "../../../shade/device/GPUMemoryTracker.js";
import { with_gpu_device } from "../../harness/index.js";
import { BOX, FOX, MemoryReader, box_files } from "./asset_files.js";

function snapshot(tracker: GPUMemoryTracker): number[] {
    return [tracker.buffer_count, tracker.texture_count, tracker.buffer_bytes, tracker.texture_bytes];
}

describe("AssetCache", () => {
    it("shares one model between loads of a URL, concurrent or later, and counts the references", async () => {
        await with_gpu_device(async (device) => {
            const reader = new MemoryReader();
            reader.set("a/box.gltf", box_files(reader, "a"));
            reader.set("b/box.gltf", box_files(reader, "b"));
            const cache = new AssetCache({ device, reader });
            const [first, second] = await Promise.all([cache.load("a/box.gltf"), cache.load("a/box.gltf")]);
            const third = await cache.load("a/box.gltf");
            expect(second).toBe(first);
            expect(third).toBe(first);
            expect(reader.reads).toBe(3); // the .gltf, its .bin and its png, once
            expect(cache.references("a/box.gltf")).toBe(3);
            const other = await cache.load("b/box.gltf");
            expect(other).not.toBe(first);
            expect(cache.size).toBe(2);
            cache.release("a/box.gltf");
            cache.release("a/box.gltf");
            expect(first.destroyed).toBe(false);
            cache.release("a/box.gltf");
            expect(first.destroyed).toBe(true);
            expect(other.destroyed).toBe(false); // the lower one went; the other URL is untouched
            expect(cache.references("a/box.gltf")).toBe(0);
            expect(() => cache.release("a/box.gltf")).toThrow(/'a\/box.gltf' is not loaded/);
            const again = await cache.load("a/box.gltf");
            expect(again).not.toBe(first);
            expect(reader.reads).toBe(9);
            cache.clear();
            expect([again.destroyed, other.destroyed, cache.size]).toEqual([true, true, 0]);
        });
    });

    it("100 loads and releases of BoxTextured and of the Fox bring the GPU bytes back to where they were", async () => {
        await with_gpu_device(async (device) => {
            const tracker = GPUMemoryTracker.install(device);
            const cache = new AssetCache({ device });
            // warm: generate_mipmaps' per-device pipeline and sampler (no buffers or textures) made once
            cache.release((await cache.load(BOX), BOX));
            const before = snapshot(tracker);
            let peak = 0;
            for (let i = 0; i < 100; i++) {
                const url = i % 10 === 9 ? FOX : BOX;
                const model = await cache.load(url);
                peak = Math.max(peak, tracker.texture_bytes);
                expect(model.textures.length).toBe(1);
                cache.release(url);
                expect(snapshot(tracker)).toEqual(before);
            }
            // a 256x256 sRGB texture with its mips: the tracker saw it while it lived
            expect(peak - before[3]).toBeGreaterThanOrEqual(256 * 256 * 4);
        });
    }, 60_000);

    it("a model whose last reference goes while it loads is freed as it arrives", async () => {
        await with_gpu_device(async (device) => {
            const tracker = GPUMemoryTracker.install(device);
            const before = snapshot(tracker);
            const cache = new AssetCache({ device });
            const loading = cache.load(BOX);
            cache.release(BOX);
            const model = await loading;
            expect(model.destroyed).toBe(true);
            expect(snapshot(tracker)).toEqual(before);
            expect(cache.size).toBe(0);
        });
    });

    it("a failed load is forgotten: every waiter gets the AssetError, and the next load tries again", async () => {
        await with_gpu_device(async (device) => {
            const reader = new MemoryReader();
            const cache = new AssetCache({ device, reader });
            const results = await Promise.allSettled([cache.load("late/box.gltf"), cache.load("late/box.gltf")]);
            for (const result of results) {
                expect(result.status).toBe("rejected");
                expect((result as PromiseRejectedResult).reason).toBeInstanceOf(AssetError);
            }
            expect(cache.references("late/box.gltf")).toBe(0);
            reader.set("late/box.gltf", box_files(reader, "late"));
            const model = await cache.load("late/box.gltf");
            expect(model.meshes.length).toBe(1);
            cache.release("late/box.gltf");
        });
    });

    it("progress: a load that starts the read sees it; one that finds the model cached gets a final report", async () => {
        await with_gpu_device(async (device) => {
            const cache = new AssetCache({ device });
            const first: AssetProgress[] = [];
            const later: AssetProgress[] = [];
            await cache.load(BOX, (p) => first.push(p));
            await cache.load(BOX, (p) => later.push(p));
            expect(first.length).toBeGreaterThan(2);
            expect(later).toEqual([{ url: BOX, bytes_loaded: 0, bytes_total: 0, items_loaded: 1, items_total: 1 }]);
            cache.clear();
        });
    });
});
