// DebugDrawSystem: 300,000 one-frame lines a frame (the Bevy gizmo figure). CPU per frame of the
// immediate-mode calls (`line(a, b, color)`), the system's update and the upload (`DebugDrawExtension.upload`:
// what the draw pass issues before its one instanced draw), and young-generation GCs in steady state.
//
//   npm run bench -- debug_draw
//
// Dawn device (SwiftShader here, or a real GPU through VK_ICD_FILENAMES); the frame graph and the draw are
// GPU work and not in the figure. The "frame" is what the extension's record does for the lines
// (`frame_recorded`) plus the upload onto the frame's command encoder (the staging copy when the lines were
// written into a mapped staging buffer, else writeBuffer from the CPU arrays); the encoder is then submitted,
// the event loop gets a turn (setImmediate, as between animation frames: that is when mapAsync resolves) and
// the queue is drained every 20 frames. Encoder, submit and the turn are outside the timers.
// Timing: performance.now() around each part per frame, medians over TIMED_FRAMES. GCs: GC_FRAMES frames
// with no timer in the loop, perf_hooks counting minor GCs (goal 0).
import { PerformanceObserver, constants, performance } from "node:perf_hooks";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { create, globals } from "webgpu";
import { Engine } from "../engine/Engine.js";
import { DebugDrawSystem } from "../systems/debug_draw/DebugDrawSystem.js";

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
Object.assign(globalThis, globals);
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const LINES = Number(process.env.BENCH_LINES ?? 300_000);
const WARMUP_FRAMES = 100;
const TIMED_FRAMES = Number(process.env.BENCH_FRAMES ?? 300);
const GC_FRAMES = Number(process.env.BENCH_GC_FRAMES ?? 1000);
const EMPTY: GPUCommandBuffer[] = [];

function median(values: Float64Array): number {
    const sorted = Float64Array.from(values).sort();
    return sorted[sorted.length >> 1];
}

async function main(): Promise<void> {
    if (process.env.BENCH_DETACH) {
        // V8 compiles typed-array accesses without detach checks until the first ArrayBuffer in the process is
        // detached (a protector, never restored); every unmap of a mapped range detaches one. BENCH_DETACH=1
        // trips it up front, as any app that reads back from the GPU (or the staging belt's first unmap) does
        const detached = new ArrayBuffer(8);
        structuredClone(detached, { transfer: [detached] });
        console.log("BENCH_DETACH: an ArrayBuffer detached first (typed-array accesses checked from the start)");
    }
    const gpu = create(["disable-dawn-features=timestamp_quantization"]);
    // Dawn stops answering onSubmittedWorkDone once the instance is collected; `void gpu` at the end does not
    // keep it (V8 drops a dead read), a global does
    (globalThis as { bench_gpu?: GPU }).bench_gpu = gpu;
    const adapter = await gpu.requestAdapter();
    if (adapter === null) throw new Error("debug draw bench: no WebGPU adapter");
    const device = await adapter.requestDevice();
    const info = adapter.info;
    const engine = new Engine();
    const debug = new DebugDrawSystem(engine.graphics, { initial_lines: LINES });
    await engine.add_system(debug);
    const extension = debug.extension!;
    // the caller's segments, computed once: each frame copies one into two reused vec3s and calls line(),
    // as game code drawing from its own arrays would
    const points = new Float32Array(LINES * 6);
    for (let i = 0; i < LINES; i++) {
        const x = (i % 1000) * 0.1;
        const z = Math.floor(i / 1000) * 0.1;
        points.set([x, 0, z, x + 0.05, 0.1, z], i * 6);
    }
    const a = new Float32Array(3);
    const b = new Float32Array(3);
    const color = new Float32Array([0.2, 1, 0.4, 1]);
    let frame = 0;
    const emit = (): void => {
        for (let i = 0; i < LINES; i++) {
            const at = i * 6;
            a[0] = points[at];
            a[1] = points[at + 1];
            a[2] = points[at + 2];
            b[0] = points[at + 3];
            b[1] = points[at + 4];
            b[2] = points[at + 5];
            debug.line(a, b, color);
        }
    };
    // the same loop without the calls: what the caller's own copying costs
    const sink = new Float32Array(1);
    const emit_baseline = (): void => {
        for (let i = 0; i < LINES; i++) {
            const at = i * 6;
            a[0] = points[at];
            a[1] = points[at + 1];
            a[2] = points[at + 2];
            b[0] = points[at + 3];
            b[1] = points[at + 4];
            b[2] = points[at + 5];
            sink[0] += b[0];
        }
    };
    // the bulk form: one call for every segment
    const emit_bulk = (): void => {
        debug.lines(points, color);
    };
    let encoder: GPUCommandEncoder | null = null;
    const record_and_upload = (): void => {
        debug.frame_recorded();
        extension.upload(device, debug.timed_lines.count, debug.drawn_lines.count, encoder);
    };
    const submit = (): void => {
        if (encoder === null) device.queue.submit(EMPTY);
        else device.queue.submit([encoder.finish()]);
        encoder = null;
    };
    const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    for (let f = 0; f < WARMUP_FRAMES; f++) {
        encoder = device.createCommandEncoder();
        emit();
        debug.update(1 / 60);
        record_and_upload();
        submit();
        await turn();
        if (++frame % 20 === 0) await device.queue.onSubmittedWorkDone();
    }
    await device.queue.onSubmittedWorkDone();

    const emit_ms = new Float64Array(TIMED_FRAMES);
    const baseline_ms = new Float64Array(TIMED_FRAMES);
    const update_ms = new Float64Array(TIMED_FRAMES);
    const upload_ms = new Float64Array(TIMED_FRAMES);
    const total_ms = new Float64Array(TIMED_FRAMES);
    const staging = extension.staging ?? { staged_frames: 0, fallback_frames: 0 }; // null before the staging belt
    const staged0 = staging.staged_frames;
    const fallback0 = staging.fallback_frames;
    for (let f = 0; f < TIMED_FRAMES; f++) {
        encoder = device.createCommandEncoder();
        const t0 = performance.now();
        emit();
        const t1 = performance.now();
        debug.update(1 / 60);
        const t2 = performance.now();
        record_and_upload();
        const t3 = performance.now();
        submit();
        const t4 = performance.now();
        emit_baseline();
        baseline_ms[f] = performance.now() - t4;
        emit_ms[f] = t1 - t0;
        update_ms[f] = t2 - t1;
        upload_ms[f] = t3 - t2;
        total_ms[f] = t3 - t0;
        await turn();
        if (++frame % 20 === 0) await device.queue.onSubmittedWorkDone();
    }
    const staged = staging.staged_frames - staged0;
    const fallback = staging.fallback_frames - fallback0;

    // the bulk form, timed the same way
    const bulk_ms = new Float64Array(TIMED_FRAMES);
    for (let f = 0; f < TIMED_FRAMES; f++) {
        encoder = device.createCommandEncoder();
        const t0 = performance.now();
        emit_bulk();
        debug.update(1 / 60);
        record_and_upload();
        bulk_ms[f] = performance.now() - t0;
        submit();
        await turn();
        if (++frame % 20 === 0) await device.queue.onSubmittedWorkDone();
    }

    let minor = 0;
    let major = 0;
    const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            const kind = (entry as { readonly detail?: { readonly kind?: number } | null }).detail?.kind;
            if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
            else major++;
        }
    });
    await device.queue.onSubmittedWorkDone();
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // no encoder, submit or turn here (they allocate): staged lines go up by writeBuffer from the mapped range
    // in the frames after each drain, the CPU arrays' writeBuffer in the others
    observer.observe({ entryTypes: ["gc"] });
    for (let f = 0; f < GC_FRAMES; f++) {
        emit();
        debug.update(1 / 60);
        record_and_upload();
        device.queue.submit(EMPTY);
        if (++frame % 20 === 0) await device.queue.onSubmittedWorkDone();
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    observer.disconnect();

    const fmt = (x: number) => x.toFixed(3);
    const total = median(total_ms);
    const calls = median(emit_ms) - median(baseline_ms);
    console.log(`debug draw: ${LINES} one-frame lines a frame, ${TIMED_FRAMES} timed frames; adapter ${info.vendor} ${info.architecture} ${info.device}`);
    console.log(`caller's loop       median ${fmt(median(emit_ms))} ms/frame, of which line() ${fmt(calls)} (${((calls * 1e6) / LINES).toFixed(1)} ns a line; the loop without the calls: ${fmt(median(baseline_ms))})`);
    console.log(`system update       median ${fmt(median(update_ms))} ms/frame`);
    console.log(`upload (${((LINES * 28) / 1048576).toFixed(1)} MiB)   median ${fmt(median(upload_ms))} ms/frame (${staged} frames staged, ${fallback} fell back to writeBuffer)`);
    console.log(`total               median ${fmt(total)} ms/frame; line() + update + upload ${fmt(calls + median(update_ms) + median(upload_ms))} ms/frame`);
    console.log(`bulk lines()        median ${fmt(median(bulk_ms))} ms/frame for lines() + update + upload`);
    console.log(`young-generation GCs over ${GC_FRAMES} steady frames: ${minor} (old: ${major})   goal 0: ${minor === 0 ? "met" : "MISSED"}`);
    console.log(
        JSON.stringify({
            bench: "debug_draw",
            lines: LINES,
            caller_loop_ms: +fmt(median(emit_ms)),
            line_calls_ms: +fmt(calls),
            update_ms: +fmt(median(update_ms)),
            upload_ms: +fmt(median(upload_ms)),
            staged_frames: staged,
            fallback_frames: fallback,
            total_ms: +fmt(total),
            line_update_upload_ms: +fmt(calls + median(update_ms) + median(upload_ms)),
            bulk_ms: +fmt(median(bulk_ms)),
            gc_frames: GC_FRAMES,
            young_gcs: minor,
            old_gcs: major,
        }),
    );
    await engine.remove_system(debug);
    if (sink[0] === 0) console.log("");
    device.destroy();
}

await main();
