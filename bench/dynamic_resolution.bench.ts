// Dynamic resolution for a long run: `resolution_scale` changes every frame (a controller's slow swing between
// 0.5 and 1.0 with per-frame jitter, never the same value twice) while the renderer draws a lit scene with TAA.
// Prints, per tenth of the run: JS heap after gc, the transient pool (textures, shapes, bytes), interned
// descriptors, textures created, and the median CPU ms of render_frame; then a verdict: heap flat, the last
// tenth's median within 1.2x of the median after warm-up, GPU bytes bounded. Exits 1 when it fails.
//   npm run bench -- dynamic_resolution                  (SwiftShader: 128x96, 1,500 frames)
//   DAWN_NODE=<dawn.node> BENCH_SIZE=1280x720 BENCH_FRAMES=100000 node dynamic_resolution.mjs   (a real GPU)
// The Dawn instance is made with timestamp quantization off (no GPU timestamps are read here; the flag keeps all
// benches alike).
import { createRequire } from "node:module";
import { cpus } from "node:os";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { TextureResourceDescriptor } from "../shade/device/graph/TextureResourceDescriptor.js";
import { make_box_geometry } from "../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Renderer } from "../shade/renderer/Renderer.js";
import { Mesh } from "../shade/renderer/scene/Mesh.js";
import { PointLight } from "../shade/renderer/scene/PointLight.js";
import { Scene } from "../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";
import { internal_extent } from "../shade/renderer/upscale/internal_extent.js";

interface Dawn {
    create(flags: string[]): GPU;
    globals: object;
}
if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = "/usr/lib/chromium/vk_swiftshader_icd.json";
const dawn: Dawn = process.env.DAWN_NODE ? (createRequire(import.meta.url)(process.env.DAWN_NODE) as Dawn) : ((await import("webgpu")) as unknown as Dawn);
Object.assign(globalThis, dawn.globals);
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const [width, height] = (process.env.BENCH_SIZE ?? "128x96").split("x").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 1500);
const TENTHS = 10;
const GC = process.env.BENCH_GC !== "0";
const PROGRESS = Number(process.env.BENCH_PROGRESS ?? 0);
const WARMUP_TENTHS = 2;

const gpu = dawn.create(["disable-dawn-features=timestamp_quantization"]);
const adapter = await gpu.requestAdapter();
if (adapter === null) throw new Error("dynamic_resolution bench: no WebGPU adapter");
const device = await adapter.requestDevice();
device.addEventListener("uncapturederror", (e) => {
    console.error(`GPU error: ${(e as GPUUncapturedErrorEvent).error.message}`);
    process.exit(1);
});

const scene = new Scene();
const floor = scene.add(new Mesh(make_plane_geometry(40, 40), new StandardMaterial({ base_color: [0.5, 0.55, 0.5, 1], roughness: 0.9 })));
floor.position[1] = -0.5;
const box = make_box_geometry();
for (let i = 0; i < 64; i++) {
    const m = scene.add(new Mesh(box, new StandardMaterial({ base_color: [0.3 + (i % 8) * 0.08, 0.4, 0.9 - (i % 8) * 0.08, 1], roughness: 0.4 })));
    m.position[0] = (i % 8) * 1.6 - 5.6;
    m.position[2] = Math.floor(i / 8) * -1.6;
}
for (let i = 0; i < 8; i++) {
    const light = scene.add_point_light(new PointLight());
    light.color.set([1, 0.8, 0.6]);
    light.intensity = 4;
    light.range = 6;
    light.position.set([i * 1.6 - 5.6, 1.5, -5]);
}
const renderer = new Renderer({ device, target: new TextureRenderTarget(width, height), scene, on_error: (e) => console.error(e.message) });
renderer.view.camera.position.set([0, 6, 8]);
renderer.view.camera.target.set([0, 0, -5]);

function median(values: Float64Array): number {
    const sorted = Float64Array.from(values).sort();
    return sorted[sorted.length >> 1] ?? 0;
}

let seed = 12345;
const jitter = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed / 4294967296 - 0.5) * 0.01;
};

console.log(
    `dynamic resolution: ${adapter.info.vendor} ${adapter.info.device} (${adapter.info.architecture}); ${cpus()[0]?.model ?? "?"} x ${cpus().length}; ` +
        `node ${process.version}; ${width}x${height} output, TAA, scale 0.5..1.0 changing every frame, ${FRAMES} frames`,
);
console.log("| frames | heap MiB | pool textures | pool shapes | pool KiB | interned | textures created | internal sizes seen | render_frame ms (median) |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");

const per_tenth = Math.floor(FRAMES / TENTHS);
const ms = new Float64Array(FRAMES);
const heap: number[] = [];
const medians: number[] = [];
let most_bytes = 0;
let sizes = new Set<number>();
const started = performance.now();
for (let frame = 0; frame < FRAMES; frame++) {
    const scale = 0.75 + 0.25 * Math.sin(frame * 0.013) + jitter();
    renderer.resolution_scale = Math.min(1, Math.max(0.5, scale));
    const t0 = performance.now();
    renderer.render_frame();
    ms[frame] = performance.now() - t0;
    most_bytes = Math.max(most_bytes, renderer.graph.pool.live_bytes);
    sizes.add(internal_extent(width, renderer.resolution_scale) * 65536 + internal_extent(height, renderer.resolution_scale));
    if (frame % 4 === 3) await device.queue.onSubmittedWorkDone();
    if (PROGRESS > 0 && frame % PROGRESS === 0) console.log(`frame ${frame}: ${renderer.graph.pool.created_count} textures created, ${renderer.graph.pool.live_count} live`);
    if ((frame + 1) % per_tenth === 0) {
        await device.queue.onSubmittedWorkDone();
        if (GC) {
            gc();
            gc();
        }
        const pool = renderer.graph.pool;
        const h = process.memoryUsage().heapUsed;
        heap.push(h);
        const m = median(ms.subarray(frame + 1 - per_tenth, frame + 1));
        medians.push(m);
        console.log(
            `| ${frame + 1} | ${(h / 1048576).toFixed(2)} | ${pool.live_count} | ${pool.shape_count} | ${(pool.live_bytes / 1024).toFixed(0)} | ` +
                `${TextureResourceDescriptor.interned_count} | ${pool.created_count} | ${sizes.size} | ${m.toFixed(3)} |`,
        );
        sizes = new Set();
    }
}
const seconds = (performance.now() - started) / 1000;

// the verdict, by the soak's rules (test/soak/soak_run.ts)
const problems: string[] = [];
const settled_heap = heap.slice(WARMUP_TENTHS);
const half = settled_heap.length >> 1;
const tolerance = Math.max(2 * 1048576, 0.05 * Math.min(...settled_heap));
const rise = Math.min(...settled_heap.slice(half)) - Math.max(...settled_heap.slice(0, half));
const end_to_end = settled_heap[settled_heap.length - 1] - settled_heap[0];
if (rise > tolerance || end_to_end > tolerance) problems.push(`JS heap grows: ${settled_heap.map((h) => (h / 1048576).toFixed(2)).join(", ")} MiB`);
const after_warmup = median(ms.subarray(WARMUP_TENTHS * per_tenth, (TENTHS - 1) * per_tenth));
const last = median(ms.subarray((TENTHS - 1) * per_tenth));
if (last > 1.2 * after_warmup) problems.push(`render_frame slows down: ${last.toFixed(3)} ms in the last tenth, ${after_warmup.toFixed(3)} ms after warm-up`);
// bounded: the pool never holds more than a few steps' textures at full scale
const full_bytes_bound = 4 * renderer.graph.pool.live_bytes / Math.max(0.25, renderer.resolution_scale ** 2);
if (most_bytes > full_bytes_bound) problems.push(`pool bytes reached ${most_bytes}, over ${full_bytes_bound.toFixed(0)}`);
console.log(
    `${FRAMES} frames in ${seconds.toFixed(1)} s; render_frame median ${after_warmup.toFixed(3)} ms after warm-up, ${last.toFixed(3)} ms in the last tenth ` +
        `(${(last / after_warmup).toFixed(2)}x); pool at most ${(most_bytes / 1024).toFixed(0)} KiB; ` +
        `${renderer.graph.pool.created_count} textures created (${((1000 * renderer.graph.pool.created_count) / FRAMES).toFixed(1)} per 1,000 frames); ` +
        `${problems.length === 0 ? "PASS" : `FAIL:\n${problems.join("\n")}`}`,
);
renderer.destroy();
device.destroy();
process.exit(problems.length === 0 ? 0 : 1);
