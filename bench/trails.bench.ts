// Trail3DSystem: 2,000 trails x 64 segments behind moving entities. CPU per frame of the system's update
// plus the upload (`Trail3DExtension.upload`: the queue writes the update pass issues before its scatter and
// draw), and young-generation GCs in steady state. Against a MeshLine-style arm on the same machine: three.js
// MeshLine's `advance()` shifts every trail's position/previous/next arrays by one point (copyWithin) and
// uploads them whole; here generously as three writeBuffers of contiguous arrays.
//
//   npm run bench -- trails
//
// Dawn device (SwiftShader here, or a real GPU through VK_ICD_FILENAMES); the frame graph and the draw are
// not in the figure (GPU work). Movement of the entities (user code) is outside the timed region. An empty
// submit follows every frame and the queue is drained every 100 frames (untimed) so Dawn's staging memory
// is recycled as in a real frame loop.
//
// Timing: per frame, performance.now() around update and around upload; medians over TIMED_FRAMES frames.
// GCs: GC_FRAMES frames with no timer in the loop (Node 20's performance.now() returns a fresh heap number)
// after a full GC, perf_hooks counting minor GCs (goal 0).
import { addComponent } from "bitecs";
import { PerformanceObserver, constants, performance } from "node:perf_hooks";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { create, globals } from "webgpu";
import { Transform } from "../engine/components/Transform.js";
import { Engine } from "../engine/Engine.js";
import { Trail3D } from "../systems/trails/Trail3D.js";
import { Trail3DSystem } from "../systems/trails/Trail3DSystem.js";

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
Object.assign(globalThis, globals);
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const TRAILS = Number(process.env.BENCH_TRAILS ?? 2000);
const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 64);
const WARMUP_FRAMES = 600;
const TIMED_FRAMES = Number(process.env.BENCH_FRAMES ?? 2000);
const GC_FRAMES = Number(process.env.BENCH_GC_FRAMES ?? 20000);
const DT = 1 / 60;
const EMPTY: GPUCommandBuffer[] = [];

function median(values: Float64Array): number {
    const sorted = Float64Array.from(values).sort();
    return sorted[sorted.length >> 1];
}

async function main(): Promise<void> {
    const gpu = create(["disable-dawn-features=timestamp_quantization"]);
    // Dawn stops answering onSubmittedWorkDone once the instance is collected; `void gpu` at the end does not
    // keep it (V8 drops a dead read), a global does
    (globalThis as { bench_gpu?: GPU }).bench_gpu = gpu;
    const adapter = await gpu.requestAdapter();
    if (adapter === null) throw new Error("trails bench: no WebGPU adapter");
    const device = await adapter.requestDevice();
    const info = adapter.info;

    const engine = new Engine();
    const world = engine.entityManager.world;
    // max_age 1 s at 60 Hz with 64 points: a point laid down about every frame (spacing 1/63 s)
    const system = new Trail3DSystem(engine.graphics, { segments: SEGMENTS, initial_capacity: TRAILS });
    await engine.add_system(system);
    const extension = system.extension!;
    const velocity = new Float32Array(TRAILS * 3);
    const eids = new Int32Array(TRAILS);
    for (let i = 0; i < TRAILS; i++) {
        const eid = engine.entityManager.create_entity();
        addComponent(world, eid, Transform);
        addComponent(world, eid, Trail3D);
        Trail3D.write(eid, { max_age: 1, width: 0.05, color: [1, 0.5, 0.1, 1] });
        Transform.position[eid * 3] = (i % 50) - 25;
        Transform.position[eid * 3 + 2] = Math.floor(i / 50) - 20;
        velocity[i * 3] = Math.cos(i) * 3;
        velocity[i * 3 + 1] = 0.5;
        velocity[i * 3 + 2] = Math.sin(i) * 3;
        eids[i] = eid;
    }
    const position = Transform.position;
    const move = (): void => {
        for (let i = 0; i < TRAILS; i++) {
            const p = eids[i] * 3;
            for (let k = 0; k < 3; k++) {
                const v = position[p + k] + velocity[i * 3 + k] * DT;
                if (v > 30 || v < -30) velocity[i * 3 + k] = -velocity[i * 3 + k];
                position[p + k] = v;
            }
            engine.entityManager.mark_transform_changed(eids[i]);
        }
        // the world matrices the trails read (untimed like the move: the figure is the trails')
        engine.entityManager.update_world_transforms();
    };
    let frame = 0;
    const trails_frame = (): void => {
        system.update(DT);
        extension.upload(device);
    };
    const drain = async (): Promise<void> => {
        await device.queue.onSubmittedWorkDone();
    };

    // MeshLine-style reference: per trail two vertices per point, position/previous/next arrays shifted by
    // one point each frame, then uploaded whole
    const floats = TRAILS * SEGMENTS * 2 * 3;
    const ml_position = new Float32Array(floats);
    const ml_previous = new Float32Array(floats);
    const ml_next = new Float32Array(floats);
    const ml_usage = GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST;
    const ml_buffers = [ml_position, ml_previous, ml_next].map((_, k) => device.createBuffer({ label: `meshline ${k}`, size: floats * 4, usage: ml_usage }));
    const per_trail = SEGMENTS * 6;
    const meshline_frame = (): void => {
        for (let i = 0; i < TRAILS; i++) {
            const base = i * per_trail;
            const p = eids[i] * 3;
            for (const array of [ml_position, ml_previous, ml_next]) {
                array.copyWithin(base, base + 6, base + per_trail);
                const at = base + per_trail - 6;
                array[at] = array[at + 3] = position[p];
                array[at + 1] = array[at + 4] = position[p + 1];
                array[at + 2] = array[at + 5] = position[p + 2];
            }
        }
        device.queue.writeBuffer(ml_buffers[0], 0, ml_position);
        device.queue.writeBuffer(ml_buffers[1], 0, ml_previous);
        device.queue.writeBuffer(ml_buffers[2], 0, ml_next);
    };

    for (let f = 0; f < WARMUP_FRAMES; f++) {
        move();
        trails_frame();
        meshline_frame();
        device.queue.submit(EMPTY);
        if (++frame % 100 === 0) await drain();
    }
    await drain();

    // timed
    const update_ms = new Float64Array(TIMED_FRAMES);
    const upload_ms = new Float64Array(TIMED_FRAMES);
    const total_ms = new Float64Array(TIMED_FRAMES);
    const meshline_ms = new Float64Array(TIMED_FRAMES);
    let scattered = 0;
    for (let f = 0; f < TIMED_FRAMES; f++) {
        move();
        const t0 = performance.now();
        system.update(DT);
        const t1 = performance.now();
        extension.upload(device);
        const t2 = performance.now();
        scattered += extension.last_update_count;
        device.queue.submit(EMPTY);
        const t3 = performance.now();
        meshline_frame();
        const t4 = performance.now();
        device.queue.submit(EMPTY);
        update_ms[f] = t1 - t0;
        upload_ms[f] = t2 - t1;
        total_ms[f] = t2 - t0;
        meshline_ms[f] = t4 - t3;
        if (f % 100 === 99) await drain();
    }

    // GCs, no timer in the loop; then the same loop in parts, to say which part allocates
    let minor = 0;
    let major = 0;
    const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            const kind = (entry as { readonly detail?: { readonly kind?: number } | null }).detail?.kind;
            if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
            else major++;
        }
    });
    type Part = "update" | "update + upload" | "update + upload + submit";
    const count_gcs = async (part: Part, frames: number): Promise<{ minor: number; major: number; seconds: number }> => {
        await drain();
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
        minor = 0;
        major = 0;
        observer.observe({ entryTypes: ["gc"] });
        const started = performance.now();
        for (let f = 0; f < frames; f++) {
            move();
            system.update(DT);
            if (part !== "update") extension.upload(device);
            if (part === "update + upload + submit") device.queue.submit(EMPTY);
            if (f % 100 === 99) await drain();
        }
        const seconds = (performance.now() - started) / 1000;
        await new Promise((resolve) => setTimeout(resolve, 20));
        observer.disconnect();
        return { minor, major, seconds };
    };
    const steady = await count_gcs("update + upload", GC_FRAMES);
    const parts: Part[] = ["update", "update + upload", "update + upload + submit"];
    const by_part: { minor: number; major: number; seconds: number }[] = [];
    for (const part of parts) by_part.push(await count_gcs(part, GC_FRAMES / 2));
    const gc_seconds = steady.seconds;
    minor = steady.minor;
    major = steady.major;

    const med_total = median(total_ms);
    const med_meshline = median(meshline_ms);
    const fmt = (x: number) => x.toFixed(3);
    console.log(`trails: ${TRAILS} trails x ${SEGMENTS} segments, ${TIMED_FRAMES} timed frames; adapter ${info.vendor} ${info.architecture} ${info.device}`);
    console.log(`system update      median ${fmt(median(update_ms))} ms/frame`);
    console.log(`upload             median ${fmt(median(upload_ms))} ms/frame  (points scattered per frame: ${(scattered / TIMED_FRAMES).toFixed(0)})`);
    console.log(`update + upload    median ${fmt(med_total)} ms/frame   goal < 1 ms: ${med_total < 1 ? "met" : "MISSED"}`);
    console.log(`MeshLine-style     median ${fmt(med_meshline)} ms/frame   (${(med_meshline / med_total).toFixed(1)}x the trails system)`);
    console.log(`young-generation GCs over ${GC_FRAMES} steady frames (${gc_seconds.toFixed(1)} s): ${minor} (old: ${major})   goal 0: ${minor === 0 ? "met" : "MISSED"}`);
    for (let k = 0; k < parts.length; k++) console.log(`  diagnostic: ${parts[k]}: ${by_part[k].minor} young GCs over ${GC_FRAMES / 2} frames`);
    console.log(
        JSON.stringify({
            bench: "trails",
            trails: TRAILS,
            segments: SEGMENTS,
            update_ms: +fmt(median(update_ms)),
            upload_ms: +fmt(median(upload_ms)),
            update_upload_ms: +fmt(med_total),
            meshline_ms: +fmt(med_meshline),
            gc_frames: GC_FRAMES,
            young_gcs: minor,
            old_gcs: major,
        }),
    );
    await engine.remove_system(system);
    for (const b of ml_buffers) b.destroy();
    device.destroy();
}

await main();
