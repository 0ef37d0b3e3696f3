// The deferred renderer's CPU cost per frame with 1,000 and 10,000 meshes (record + compile + encode + submit),
// heap bytes per steady frame against an empty scene, and GPU ms per step when timestamp-query is offered.
//   npm run bench -- scene_meshes            (SwiftShader here: CPU figures and ratios only)
//   BENCH_SIZE=1920x1080 node scene_meshes.mjs (on a real GPU)
//   knobs: BENCH_ONLY=10000 (one size), BENCH_LIGHTS=256, BENCH_FULLSCREEN=raster|compute|auto (the Renderer's
//   fullscreen_paths), BENCH_GBUFFER_BUNDLES=0 (the G-buffer draws its runs directly instead of replaying its
//   render bundle), BENCH_CULLING=0 (no GPU frustum culling), BENCH_FUSE=0 (the TAA sharpen and the tonemap as two passes), BENCH_MATERIALS=10000 (materials in the city, default 8: one draw run per mesh at 10000).
//   Dawn's timestamp quantization is off, so the GPU ms per step are not rounded.
import { create, globals } from "webgpu";
import { make_box_geometry } from "../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_cylinder_geometry } from "../shade/renderer/geometry/primitives/make_cylinder_geometry.js";
import { make_plane_geometry } from "../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { make_sphere_geometry } from "../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../shade/renderer/Renderer.js";
import { Mesh } from "../shade/renderer/scene/Mesh.js";
import { PointLight } from "../shade/renderer/scene/PointLight.js";
import { Scene } from "../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";
import { median, SubmitTimer } from "./submit_timer.js";
import type { FullscreenPath } from "../shade/renderer/fullscreen/FullscreenPath.js";

Object.assign(globalThis, globals);
const [width, height] = (process.env.BENCH_SIZE ?? "256x256").split("x").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 60);
const FULLSCREEN = (process.env.BENCH_FULLSCREEN ?? "auto") as FullscreenPath;
const BUNDLES = process.env.BENCH_GBUFFER_BUNDLES !== "0";
const CULLING = process.env.BENCH_CULLING !== "0";
const FUSE = process.env.BENCH_FUSE !== "0";
const MATERIALS = Number(process.env.BENCH_MATERIALS ?? 8);

function city(count: number): Scene {
    const scene = new Scene();
    const geometries = [make_box_geometry(), make_sphere_geometry(0.5, 16, 8), make_cylinder_geometry(0.4, 1, 12), make_box_geometry(0.6, 1.6, 0.6)];
    const materials = Array.from({ length: MATERIALS }, (_, i) => new StandardMaterial({ base_color: [0.3 + ((i * 0.08) % 0.6), 0.5, 0.9 - ((i * 0.08) % 0.6), 1], roughness: 0.3 + ((i * 0.08) % 0.6) }));
    const floor = scene.add(new Mesh(make_plane_geometry(400, 400), materials[0]));
    floor.position[1] = -0.5;
    const side = Math.ceil(Math.sqrt(count));
    for (let i = 0; i < count; i++) {
        const mesh = scene.add(new Mesh(geometries[i % geometries.length], materials[(i * 7) % MATERIALS]));
        mesh.position[0] = ((i % side) - side / 2) * 1.5;
        mesh.position[2] = -Math.floor(i / side) * 1.5;
    }
    const lights = Number(process.env.BENCH_LIGHTS ?? 64);
    for (let i = 0; i < lights; i++) {
        const light = scene.add_point_light(new PointLight());
        light.position.set([(i % 16) * 4 - 32, 2, -Math.floor(i / 16) * 4]);
        light.range = 8;
    }
    return scene;
}

const submits_timer = new SubmitTimer();

async function measure(device: GPUDevice, count: number) {
    const renderer = new Renderer({ device, target: new TextureRenderTarget(width, height), scene: city(count), fullscreen_paths: FULLSCREEN, gbuffer_bundles: BUNDLES, gbuffer_culling: CULLING });
    renderer.fuse_fullscreen_steps = FUSE;
    const camera = renderer.view.camera;
    camera.position.set([0, 25, 30]);
    camera.target.set([0, 0, -20]);
    camera.far = 500;
    for (let i = 0; i < 10; i++) {
        renderer.render_frame();
        await device.queue.onSubmittedWorkDone();
    }
    const cpu: number[] = [];
    const submits: number[] = [];
    const gpu = new Map<string, number[]>();
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heap_before = process.memoryUsage().heapUsed;
    for (let i = 0; i < FRAMES; i++) {
        submits_timer.reset();
        const t0 = performance.now();
        renderer.render_frame();
        cpu.push(performance.now() - t0 - submits_timer.ms);
        submits.push(submits_timer.ms);
        await device.queue.onSubmittedWorkDone();
        const timer = renderer.timer;
        if (timer !== null) {
            for (let k = 0; k < timer.timing_count; k++) {
                const t = timer.timings[k];
                if (!gpu.has(t.name)) gpu.set(t.name, []);
                gpu.get(t.name)!.push(t.ms);
            }
        }
    }
    void heap_before;
    // heap growth of back-to-back frames with no await between them: Dawn's promise polling (setImmediate)
    // makes garbage of its own while a frame is awaited, which is not the frame's
    const HEAP_FRAMES = 20;
    await device.queue.onSubmittedWorkDone();
    gc?.();
    const h0 = process.memoryUsage().heapUsed;
    for (let i = 0; i < HEAP_FRAMES; i++) renderer.render_frame();
    const heap_per_frame = (process.memoryUsage().heapUsed - h0) / HEAP_FRAMES;
    await device.queue.onSubmittedWorkDone();
    renderer.destroy();
    return { count, cpu_ms: median(cpu), submit_ms: median(submits), heap_per_frame, gpu: [...gpu].map(([name, ms]) => ({ name, ms: median(ms) })) };
}

// kept referenced: a collected instance crashes onSubmittedWorkDone
const gpu = create(["disable-dawn-features=timestamp_quantization"]);
const adapter = await gpu.requestAdapter();
if (adapter === null) throw new Error("no WebGPU adapter");
// indirect-first-instance: the G-buffer culls on the GPU, as under GraphicsEngine
const features = (["timestamp-query", "indirect-first-instance"] as const).filter((f) => adapter.features.has(f));
const device = await adapter.requestDevice({ requiredFeatures: features });
submits_timer.wrap(device);
const info = adapter.info;
console.log(`adapter: ${info.vendor} ${info.architecture} ${info.device} ${info.description}; target ${width}x${height}; ${FRAMES} frames; fullscreen_paths ${FULLSCREEN}; gbuffer_bundles ${BUNDLES}; culling ${CULLING && device.features.has("indirect-first-instance")}; fuse ${FUSE}; ${MATERIALS} materials; timestamps not quantized`);

const only = process.env.BENCH_ONLY; // e.g. 10000: profile one size
if (only !== undefined) {
    const r = await measure(device, Number(only));
    const steps = r.gpu.map((g) => `${g.name} ${g.ms.toFixed(3)}`).join(", ");
    const total = r.gpu.reduce((sum, g) => sum + g.ms, 0);
    console.log(`${only} meshes, ${process.env.BENCH_LIGHTS ?? 64} lights: ${r.cpu_ms.toFixed(3)} ms/frame record+encode; GPU ${total.toFixed(3)} ms in all: ${steps}`);
    device.destroy();
    process.exit(0);
}
const empty = await measure(device, 0);
const one_k = await measure(device, 1000);
const ten_k = await measure(device, 10000);
console.log("meshes | CPU ms/frame record+encode (median) | submit ms | heap bytes/frame | GPU ms per step (median)");
for (const r of [empty, one_k, ten_k]) {
    const steps = r.gpu.map((s) => `${s.name} ${s.ms.toFixed(3)}`).join(", ") || "(no timestamp-query)";
    console.log(`${String(r.count).padStart(6)} | ${r.cpu_ms.toFixed(3).padStart(8)} | ${r.submit_ms.toFixed(3).padStart(8)} | ${r.heap_per_frame.toFixed(0).padStart(8)} | ${steps}`);
}
const ratio = ten_k.cpu_ms / one_k.cpu_ms;
console.log(`CPU 10k/1k ratio: ${ratio.toFixed(2)} (linear growth would be 10; per extra mesh ${(((ten_k.cpu_ms - one_k.cpu_ms) / 9000) * 1000).toFixed(3)} us)`);
console.log(
    `heap growth per frame over the empty scene: 1k ${(one_k.heap_per_frame - empty.heap_per_frame).toFixed(0)} B, 10k ${(ten_k.heap_per_frame - empty.heap_per_frame).toFixed(0)} B ` +
        `(the empty scene's ${empty.heap_per_frame.toFixed(0)} B/frame are Dawn's JS wrappers: encoder, passes, views)`,
);
console.log(
    JSON.stringify({
        bench: "scene_meshes",
        adapter: `${info.vendor} ${info.architecture} ${info.device}`.trim(),
        size: `${width}x${height}`,
        cpu_ms_1k: one_k.cpu_ms,
        cpu_ms_10k: ten_k.cpu_ms,
        ratio_10k_1k: ratio,
        heap_bytes_per_frame_over_empty_10k: ten_k.heap_per_frame - empty.heap_per_frame,
        gpu_ms_10k: Object.fromEntries(ten_k.gpu.map((s) => [s.name, s.ms])),
    }),
);
device.destroy();
