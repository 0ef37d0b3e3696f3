// Model loading: DamagedHelmet (3.8 MB GLB, five 2048x2048 JPEG textures) and the Fox (160 KB GLB, one 1024x1024
// JPEG, skin, three clips) through load_gltf on Dawn. Cold: a new AssetCache every round (read, check, glTF-Transform,
// decode in worker threads, upload, GPU mips, onSubmittedWorkDone); cached: a load of a URL already loaded (a
// reference taken, nothing read). Medians; the cold helmet also split into its decode and the rest.
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { create, globals } from "webgpu";
import { AssetCache } from "../engine/assets/AssetCache.js";
import type { ImageDecoder } from "../engine/assets/ImageDecoder.js";
import { default_image_decoder } from "../engine/assets/default_image_decoder.js";

const HELMET = "samples/assets/DamagedHelmet/DamagedHelmet.glb";
const FOX = "samples/assets/Fox/Fox.glb";

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
}

Object.assign(globalThis, globals);
const gpu = create(["disable-dawn-features=timestamp_quantization"]);
(globalThis as { bench_gpu?: GPU }).bench_gpu = gpu; // keep the instance alive (onSubmittedWorkDone)
const adapter = await gpu.requestAdapter();
if (adapter === null) throw new Error("no WebGPU adapter (VK_ICD_FILENAMES?)");
const device = await adapter.requestDevice();

// time spent in the decoder, per load
let decode_ms = 0;
const inner = default_image_decoder();
const timed: ImageDecoder = {
    async decode(bytes, mime) {
        const t0 = performance.now();
        const image = await inner.decode(bytes, mime);
        decode_ms = Math.max(decode_ms, performance.now() - t0);
        return image;
    },
};

async function cold(url: string, rounds: number): Promise<{ total: number; decode: number }> {
    const totals: number[] = [];
    const decodes: number[] = [];
    for (let r = 0; r <= rounds; r++) {
        const cache = new AssetCache({ device, decoder: timed });
        decode_ms = 0;
        const t0 = performance.now();
        await cache.load(url);
        await device.queue.onSubmittedWorkDone();
        const t = performance.now() - t0;
        cache.clear();
        if (r === 0) continue; // the first round starts the workers and compiles the mip pipeline
        totals.push(t);
        decodes.push(decode_ms);
    }
    return { total: median(totals), decode: median(decodes) };
}

async function cached(url: string, rounds: number): Promise<number> {
    const cache = new AssetCache({ device });
    await cache.load(url);
    const times: number[] = [];
    for (let r = 0; r < rounds; r++) {
        const t0 = performance.now();
        await cache.load(url);
        times.push(performance.now() - t0);
        cache.release(url);
    }
    cache.clear();
    return median(times);
}

console.log(`machine: ${cpus()[0]?.model ?? "unknown"} x ${cpus().length}, node ${process.version}, adapter: ${adapter.info.vendor} ${adapter.info.architecture || adapter.info.device}`);
const helmet = await cold(HELMET, 5);
console.log(`DamagedHelmet cold: ${helmet.total.toFixed(0)} ms (the last of its 5 JPEGs decoded ${helmet.decode.toFixed(0)} ms after it was queued; 2 worker threads)`);
const fox = await cold(FOX, 15);
console.log(`Fox cold: ${fox.total.toFixed(1)} ms (of which the image decode ${fox.decode.toFixed(1)} ms)`);
console.log(`DamagedHelmet cached: ${(1000 * (await cached(HELMET, 2000))).toFixed(1)} us`);
console.log(`Fox cached: ${(1000 * (await cached(FOX, 2000))).toFixed(1)} us`);
device.destroy();
process.exit(0);
