// GPUDynamicMeshRenderer's upload path: vertices rewritten every frame and uploaded, against one raw
// queue.writeBuffer of the same bytes in the same run, and its steady-state allocation.
//
//   npm run bench -- dynamic_mesh_upload
//   npx esbuild bench/dynamic_mesh_upload.bench.ts --bundle --platform=node --format=esm --external:webgpu \
//       --define:__SHADE_DEBUG__=false --outfile=bench/output/x.mjs && node bench/output/x.mjs
//
// Per size (BENCH_VERTICES, default 1000,100000,1000000): one geometry of V vertices, a ribbon (two triangles
// per vertex pair: 3 (V - 2) indices, 16-bit up to 65,536 vertices), in a batch of one mesh. Every frame the
// "user" rewrites one coordinate of every vertex and sets needsUpdate (untimed), then
// - dynamic: `renderer.upload(device, batch)`, which is what the draw pass runs before it draws (copy into the
//   CPU mirror or straight from the arrays, one writeBuffer per range);
// - raw: one `queue.writeBuffer` of the same bytes from one ArrayBuffer, into a buffer made like the pool
//   (same size and usage).
// - raw 2 calls (for reference): the same bytes as two writeBuffer calls, the positions and the indices, which
//   is what the dynamic path issues for a geometry past DynamicBuffer.DIRECT_BYTES.
// Two timings per frame: "cpu", until the call returns (Dawn has copied the bytes into its staging memory),
// and "done", until `onSubmittedWorkDone` after an empty submit (the copy on the GPU finished). Arms alternate
// in rounds, in rotating order; figures are medians over frames. Ratio = raw time / dynamic time, i.e. the dynamic path's
// throughput as a fraction of raw writeBuffer's (goal >= 0.9).
//
// Allocation: after timing, BENCH_GC_FRAMES steady frames per size run with no timer in the loop (Node 20's
// performance.now() returns a fresh heap number) while perf_hooks counts young-generation (minor) GCs
// (goal: 0), and the new space's growth across synchronous runs of frames after a full GC gives bytes per
// frame (goal: 0; the precise signal, since V8's nursery is megabytes and a small leak needs many frames to
// show as a GC).
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { PerformanceObserver, constants, performance } from "node:perf_hooks";
import { create, globals } from "webgpu";
import { GPUDynamicMeshRenderer } from "../shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import { Geometry } from "../shade/renderer/geometry/Geometry.js";
import { DynamicMesh } from "../shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "../shade/renderer/scene/DynamicMeshBatch.js";

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
Object.assign(globalThis, globals);
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const SIZES = (process.env.BENCH_VERTICES ?? "1000,100000,1000000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Bytes uploaded per arm per round, at most: keeps the large sizes from running for minutes. */
const ROUND_BYTES = Number(process.env.BENCH_ROUND_BYTES ?? 256 * 1024 * 1024);
const GC_FRAMES = Number(process.env.BENCH_GC_FRAMES ?? 2000);
const GC_BYTES = Number(process.env.BENCH_GC_BYTES ?? 8 * 1024 * 1024 * 1024);
const EMPTY: GPUCommandBuffer[] = [];

interface Workload {
    readonly vertices: number;
    readonly bytes: number;
    readonly geometry: Geometry;
    readonly batch: DynamicMeshBatch;
    readonly renderer: GPUDynamicMeshRenderer;
    readonly raw_buffer: GPUBuffer;
    readonly raw_source: Float32Array;
    /** raw_source as the two arrays the geometry has (positions, indices), for the two-call raw arm. */
    readonly raw_parts: readonly [Float32Array, Float32Array];
    tick: number;
}

function ribbon(vertices: number): Geometry {
    const position = new Float32Array(vertices * 3);
    for (let v = 0; v < vertices; v++) {
        position[v * 3] = (v >> 1) * 0.01;
        position[v * 3 + 1] = v & 1;
    }
    const count = 3 * (vertices - 2);
    const index = vertices <= 65536 ? new Uint16Array(count) : new Uint32Array(count);
    for (let t = 0; t < vertices - 2; t++) {
        const even = (t & 1) === 0;
        index[t * 3] = t;
        index[t * 3 + 1] = even ? t + 1 : t + 2;
        index[t * 3 + 2] = even ? t + 2 : t + 1;
    }
    return new Geometry({ position, index });
}

function workload(device: GPUDevice, vertices: number): Workload {
    const geometry = ribbon(vertices);
    const batch = new DynamicMeshBatch();
    batch.add(DynamicMesh.from(geometry, [1, 1, 1, 1])).updateMatrices();
    const renderer = new GPUDynamicMeshRenderer({ label: `bench ${vertices}` });
    const bytes = geometry.attributes.position.array.byteLength + Math.ceil(geometry.index.byteLength / 4) * 4;
    // the raw arm writes into a buffer made like the renderer's pool: same size (its capacity, a power of two)
    // and usage, so the two differ only in the path to writeBuffer
    renderer.upload(device, batch);
    const raw_buffer = device.createBuffer({
        label: "bench raw",
        size: renderer.pool_capacity,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    // the same contents as the geometry: a source left zero would be read from the kernel's shared zero page,
    // always in cache, and flatter the raw arm
    const raw_source = new Float32Array(bytes / 4);
    raw_source.set(geometry.attributes.position.array);
    new Uint8Array(raw_source.buffer, geometry.attributes.position.array.byteLength).set(
        new Uint8Array(geometry.index.buffer, geometry.index.byteOffset, geometry.index.byteLength),
    );
    const split = vertices * 3;
    const raw_parts = [raw_source.subarray(0, split), raw_source.subarray(split)] as const;
    return { vertices, bytes, geometry, batch, renderer, raw_buffer, raw_source, raw_parts, tick: 0 };
}

// the user's side of a frame, untimed: one coordinate of every vertex rewritten, the flag set
function rewrite(w: Workload): void {
    const p = w.geometry.attributes.position.array;
    const z = (w.tick++ & 15) * 0.001;
    for (let i = 2; i < p.length; i += 3) p[i] = z;
    w.geometry.needsUpdate = true;
}

function rewrite_raw(w: Workload): void {
    const p = w.raw_source;
    const z = (w.tick++ & 15) * 0.001;
    for (let i = 2; i < w.vertices * 3; i += 3) p[i] = z;
}

function upload_dynamic(device: GPUDevice, w: Workload): void {
    w.renderer.upload(device, w.batch);
}

function upload_raw(device: GPUDevice, w: Workload): void {
    device.queue.writeBuffer(w.raw_buffer, 0, w.raw_source);
}

// the same bytes from the geometry's two arrays: what the dynamic path costs Dawn when it writes them directly
function upload_raw_two_calls(device: GPUDevice, w: Workload): void {
    device.queue.writeBuffer(w.raw_buffer, 0, w.raw_parts[0]);
    device.queue.writeBuffer(w.raw_buffer, w.raw_parts[0].byteLength, w.raw_parts[1]);
}

const enum Arm {
    Dynamic,
    Raw,
    RawTwoCalls,
}

async function time_arm(device: GPUDevice, w: Workload, arm: Arm, frames: number, cpu: number[], done: number[]): Promise<void> {
    const dynamic = arm === Arm.Dynamic;
    for (let f = 0; f < frames; f++) {
        if (dynamic) rewrite(w);
        else rewrite_raw(w);
        const t0 = performance.now();
        if (dynamic) upload_dynamic(device, w);
        else if (arm === Arm.Raw) upload_raw(device, w);
        else upload_raw_two_calls(device, w);
        const t1 = performance.now();
        device.queue.submit(EMPTY);
        await device.queue.onSubmittedWorkDone();
        const t2 = performance.now();
        cpu.push(t1 - t0);
        done.push(t2 - t0);
    }
}

function median(values: number[]): number {
    const s = Float64Array.from(values).sort();
    const mid = s.length >> 1;
    return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function new_space_used(): number {
    const spaces = v8.getHeapSpaceStatistics();
    for (let i = 0; i < spaces.length; i++) if (spaces[i].space_name === "new_space") return spaces[i].space_used_size;
    return Number.NaN;
}

/** Frames between two waits for the GPU in the allocation runs: keeps the bytes in flight near 256 MiB. */
function chunk_of(w: Workload): number {
    return Math.max(1, Math.min(100, Math.floor((256 * 1024 * 1024) / w.bytes)));
}

function steady_chunk(device: GPUDevice, w: Workload, n: number): void {
    for (let f = 0; f < n; f++) {
        rewrite(w);
        upload_dynamic(device, w);
        device.queue.submit(EMPTY);
    }
}

async function young_gcs(device: GPUDevice, w: Workload, frames: number): Promise<number> {
    let minor = 0;
    const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
        }
    });
    await device.queue.onSubmittedWorkDone();
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
    observer.observe({ entryTypes: ["gc"] });
    const chunk = chunk_of(w);
    for (let done = 0; done < frames; done += chunk) {
        steady_chunk(device, w, Math.min(chunk, frames - done));
        await device.queue.onSubmittedWorkDone();
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    observer.disconnect();
    return minor;
}

async function bytes_per_frame(device: GPUDevice, w: Workload): Promise<number> {
    const n = chunk_of(w);
    const estimates: number[] = [];
    for (let trial = 0; trial < 5; trial++) {
        const grown: number[] = [];
        for (const frames of [n, 2 * n]) {
            await device.queue.onSubmittedWorkDone();
            gc();
            const before = new_space_used();
            steady_chunk(device, w, frames);
            grown.push(new_space_used() - before);
        }
        if (grown[0] >= 0 && grown[1] >= grown[0]) estimates.push((grown[1] - grown[0]) / n);
    }
    await device.queue.onSubmittedWorkDone();
    return estimates.length > 0 ? median(estimates) : Number.NaN;
}

function fmt(ms: number): string {
    return ms < 0.1 ? ms.toFixed(4) : ms < 10 ? ms.toFixed(3) : ms.toFixed(1);
}

function table(header: string[], rows: string[][]): string {
    const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
    const line = (cells: string[]) => cells.map((s, c) => (c === 0 ? s.padEnd(widths[c]) : s.padStart(widths[c]))).join("  ");
    return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

async function main(): Promise<void> {
    // keep the GPU object referenced for the whole run: once it is collected, queue promises never settle
    const gpu = create(["disable-dawn-features=timestamp_quantization"]);
    const adapter = await gpu.requestAdapter();
    if (adapter === null) throw new Error(`no WebGPU adapter (VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES ?? ""})`);
    const device = await adapter.requestDevice({
        requiredLimits: {
            maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
            maxBufferSize: adapter.limits.maxBufferSize,
        },
    });
    const info = adapter.info;
    const adapter_name = `${info.vendor} ${info.architecture} ${info.device}`.trim();
    console.log(`dynamic mesh upload: adapter ${adapter_name}; node ${process.version}; ${ROUNDS} rounds`);

    const rows: string[][] = [];
    const summary: Record<string, unknown>[] = [];
    for (const vertices of SIZES) {
        const w = workload(device, vertices);
        const frames = Math.max(10, Math.min(200, Math.floor(ROUND_BYTES / w.bytes)));
        const cpu_dynamic: number[] = [];
        const done_dynamic: number[] = [];
        const cpu_raw: number[] = [];
        const done_raw: number[] = [];
        const cpu_raw_two: number[] = [];
        // warm-up: first upload (allocation of the pool), JIT
        await time_arm(device, w, Arm.Dynamic, frames, [], []);
        await time_arm(device, w, Arm.Raw, frames, [], []);
        await time_arm(device, w, Arm.RawTwoCalls, frames, [], []);
        for (let round = 0; round < ROUNDS; round++) {
            // the order rotates: no arm always runs first in a round, right after another arm's traffic
            for (let k = 0; k < 3; k++) {
                const arm = ((round + k) % 3) as Arm;
                if (arm === Arm.Dynamic) await time_arm(device, w, arm, frames, cpu_dynamic, done_dynamic);
                else if (arm === Arm.Raw) await time_arm(device, w, arm, frames, cpu_raw, done_raw);
                else await time_arm(device, w, arm, frames, cpu_raw_two, []);
            }
        }
        const uploads = w.renderer.upload_count;
        const gc_frames = Math.max(50, Math.min(GC_FRAMES, Math.floor(GC_BYTES / w.bytes)));
        const minor = await young_gcs(device, w, gc_frames);
        if (w.renderer.upload_count - uploads !== gc_frames) throw new Error("bench: the steady frames did not all upload");
        const per_frame = await bytes_per_frame(device, w);

        const d_cpu = median(cpu_dynamic);
        const r_cpu = median(cpu_raw);
        const d_done = median(done_dynamic);
        const r_done = median(done_raw);
        const r_two = median(cpu_raw_two);
        const mb = w.bytes / (1024 * 1024);
        rows.push([
            vertices.toLocaleString("en-US"),
            mb < 1 ? `${(w.bytes / 1024).toFixed(1)} KiB` : `${mb.toFixed(1)} MiB`,
            fmt(d_cpu),
            fmt(r_cpu),
            (r_cpu / d_cpu).toFixed(2),
            `${(w.bytes / (d_cpu / 1000) / 1e9).toFixed(2)}`,
            fmt(d_done),
            fmt(r_done),
            (r_done / d_done).toFixed(2),
            fmt(r_two),
            `${minor} / ${gc_frames}`,
            per_frame.toFixed(1),
        ]);
        summary.push({
            vertices,
            bytes: w.bytes,
            dynamic_cpu_ms: +d_cpu.toFixed(5),
            raw_cpu_ms: +r_cpu.toFixed(5),
            ratio_cpu: +(r_cpu / d_cpu).toFixed(3),
            dynamic_done_ms: +d_done.toFixed(5),
            raw_done_ms: +r_done.toFixed(5),
            ratio_done: +(r_done / d_done).toFixed(3),
            raw_two_calls_cpu_ms: +r_two.toFixed(5),
            timed_frames: frames * ROUNDS,
            young_gcs: minor,
            steady_frames: gc_frames,
            bytes_per_frame: +per_frame.toFixed(2),
        });
        w.renderer.destroy();
        w.raw_buffer.destroy();
    }
    console.log(
        table(
            ["vertices", "bytes/frame", "dynamic ms", "raw ms", "ratio", "dyn GB/s", "dynamic done ms", "raw done ms", "ratio done", "raw 2 calls ms", "young GCs", "heap B/frame"],
            rows,
        ),
    );
    console.log("ratio = raw writeBuffer time / dynamic path time (throughput of the dynamic path as a fraction of raw); goal >= 0.9");
    console.log("raw 2 calls: the same bytes written from the geometry's two arrays (positions, indices) in two writeBuffer calls");
    console.log("young GCs: minor GCs over the steady frames (goal 0); heap B/frame: new-space bytes allocated per steady frame (goal 0)");
    console.log(JSON.stringify({ bench: "dynamic_mesh_upload", adapter: adapter_name, node: process.version, rounds: ROUNDS, results: summary }));
    device.destroy();
    void gpu;
}

await main();
// Dawn's threads can outlive the event loop and abort the exit; leave at once
process.exit(0);
