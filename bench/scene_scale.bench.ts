// The scene path at scale (issue 23): CPU per frame with 10,000 and 100,000 meshes of 500 geometries and 1,000
// materials, 1% of them moving every frame, and GPU ms per step where timestamps are offered.
//   npm run bench -- scene_scale                     (SwiftShader here: CPU figures and ratios only)
//   BENCH_SIZE=1920x1080 node scene_scale.mjs         (on a real GPU)
//   knobs: BENCH_FROZEN=0 (no mesh frozen: every mesh compared every frame, as before frozen meshes),
//   BENCH_SIZES=10000,100000, BENCH_FRAMES=60, BENCH_GBUFFER_BUNDLES=0, BENCH_CULLING=0 (no GPU frustum culling), BENCH_DEVICE=fake (the tests' FAKE device:
//   our code's CPU alone, without Dawn's encoding and SwiftShader's threads; no GPU figures),
//   BENCH_CPU_PROFILE=<prefix> (a V8 CPU profile of the timed frames, <prefix><meshes>.cpuprofile: build with --keep-names).
// The still meshes are frozen (`Mesh.frozen`), the moving 1% are not. CPU = `render_frame` minus `queue.submit`
// (printed apart: on SwiftShader submit runs GPU work on the calling thread), after 10 warm frames; the moves (1,000
// position writes at 100,000) are outside the timed span. Dawn's timestamp quantization is off.
import { create, globals } from "webgpu";
import type { Geometry } from "../shade/renderer/geometry/Geometry.js";
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
import { CpuProfile } from "./cpu_profile.js";
import { median, SubmitTimer } from "./submit_timer.js";

if (process.env.BENCH_DEVICE !== "fake") Object.assign(globalThis, globals);
const [width, height] = (process.env.BENCH_SIZE ?? "256x256").split("x").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 60);
const FROZEN = process.env.BENCH_FROZEN !== "0";
const BUNDLES = process.env.BENCH_GBUFFER_BUNDLES !== "0";
const CULLING = process.env.BENCH_CULLING !== "0";
const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);
// one mesh in BENCH_MOVE_EVERY moves each frame (default 100: 1%; 1: every mesh, the per-moving-mesh path alone)
const MOVE_EVERY = Number(process.env.BENCH_MOVE_EVERY ?? 100);
const GEOMETRIES = 500;
const MATERIALS = 1000;

// a seeded generator: the same scene every run
function random(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 4294967296;
    };
}

function geometries(): Geometry[] {
    const out: Geometry[] = [];
    for (let i = 0; i < GEOMETRIES; i++) {
        const k = i % 4;
        const s = 0.4 + (i % 25) * 0.02;
        if (k === 0) out.push(make_box_geometry(s, s * 1.5, s));
        else if (k === 1) out.push(make_sphere_geometry(s * 0.6, 8 + (i % 8), 6 + (i % 5)));
        else if (k === 2) out.push(make_cylinder_geometry(s * 0.5, s * 1.4, 8 + (i % 9)));
        else out.push(make_box_geometry(s * 1.4, s * 0.6, s * 0.9));
    }
    return out;
}

function world(count: number, shapes: Geometry[], materials: StandardMaterial[]): { scene: Scene; moving: Mesh[] } {
    const rand = random(count);
    const scene = new Scene();
    const floor = scene.add(new Mesh(make_plane_geometry(2000, 2000), materials[0]));
    floor.position[1] = -0.5;
    floor.frozen = FROZEN;
    const side = Math.ceil(Math.sqrt(count));
    const moving: Mesh[] = [];
    for (let i = 0; i < count; i++) {
        const mesh = scene.add(new Mesh(shapes[Math.floor(rand() * GEOMETRIES)], materials[Math.floor(rand() * MATERIALS)]));
        mesh.position[0] = ((i % side) - side / 2) * 1.5;
        mesh.position[2] = -Math.floor(i / side) * 1.5;
        mesh.rotation.set([0, Math.sin(i), 0, Math.cos(i)]);
        const normalised = Math.hypot(mesh.rotation[1], mesh.rotation[3]);
        mesh.rotation[1] /= normalised;
        mesh.rotation[3] /= normalised;
        if (i % MOVE_EVERY === 0) moving.push(mesh);
        else mesh.frozen = FROZEN;
    }
    for (let i = 0; i < 64; i++) {
        const light = scene.add_point_light(new PointLight());
        light.position.set([(i % 8) * 6 - 24, 2, -Math.floor(i / 8) * 6]);
        light.range = 10;
    }
    return { scene, moving };
}

const submits_timer = new SubmitTimer();

async function measure(device: GPUDevice, count: number, shapes: Geometry[], materials: StandardMaterial[]) {
    const { scene, moving } = world(count, shapes, materials);
    const renderer = new Renderer({ device, target: new TextureRenderTarget(width, height), scene, gbuffer_bundles: BUNDLES, gbuffer_culling: CULLING });
    const camera = renderer.view.camera;
    camera.position.set([0, 30, 30]);
    camera.target.set([0, 0, -30]);
    camera.far = 1000;
    let t = 0;
    const move = () => {
        t += 1;
        for (let i = 0; i < moving.length; i++) moving[i].position[1] = Math.sin(t * 0.1 + i) * 0.5;
    };
    for (let i = 0; i < 10; i++) {
        move();
        renderer.render_frame();
        await device.queue.onSubmittedWorkDone();
    }
    const cpu: number[] = [];
    const submit: number[] = [];
    const gpu = new Map<string, number[]>();
    const profile = await CpuProfile.from_env();
    await profile?.start();
    for (let i = 0; i < FRAMES; i++) {
        move();
        submits_timer.reset();
        const t0 = performance.now();
        renderer.render_frame();
        cpu.push(performance.now() - t0 - submits_timer.ms);
        submit.push(submits_timer.ms);
        await device.queue.onSubmittedWorkDone();
        const timer = renderer.timer;
        if (timer !== null) {
            for (let k = 0; k < timer.timing_count; k++) {
                const timing = timer.timings[k];
                if (!gpu.has(timing.name)) gpu.set(timing.name, []);
                gpu.get(timing.name)!.push(timing.ms);
            }
        }
    }
    await profile?.stop(count);
    const runs = renderer.gbuffer_draw_list.opaque_run_count;
    await device.queue.onSubmittedWorkDone();
    renderer.destroy();
    return { count, cpu_ms: median(cpu), submit_ms: median(submit), runs, gpu: [...gpu].map(([name, ms]) => ({ name, ms: median(ms) })) };
}

async function open_device(): Promise<{ device: GPUDevice; info: { vendor: string; architecture: string; device: string; description: string } }> {
    if (process.env.BENCH_DEVICE === "fake") {
        // the one bench that borrows the tests' FAKE device: it answers every call at once and keeps nothing
        const { fake_gpu_device, ensure_webgpu_constants } = await import("../test/shade/renderer/fake_gpu_device.js");
        ensure_webgpu_constants();
        return { device: fake_gpu_device({ features: ["indirect-first-instance"] }).device, info: { vendor: "FAKE", architecture: "", device: "device", description: "(our code's CPU alone)" } };
    }
    // kept referenced: a collected instance crashes onSubmittedWorkDone
    const gpu = create(["disable-dawn-features=timestamp_quantization"]);
    (globalThis as { __bench_gpu?: GPU }).__bench_gpu = gpu;
    const adapter = await gpu.requestAdapter();
    if (adapter === null) throw new Error("no WebGPU adapter");
    const features = (["timestamp-query", "indirect-first-instance"] as const).filter((f) => adapter.features.has(f));
    const device = await adapter.requestDevice({ requiredFeatures: features });
    submits_timer.wrap(device);
    return { device, info: adapter.info };
}

const { device, info } = await open_device();
console.log(`adapter: ${info.vendor} ${info.architecture} ${info.device} ${info.description}; target ${width}x${height}; ${FRAMES} frames; ${GEOMETRIES} geometries, ${MATERIALS} materials, one in ${MOVE_EVERY} moving; frozen ${FROZEN}; gbuffer_bundles ${BUNDLES}; culling ${CULLING && device.features.has("indirect-first-instance")}; timestamps not quantized`);
const shapes = geometries();
const rand = random(7);
const materials = Array.from({ length: MATERIALS }, (_, i) => new StandardMaterial({ base_color: [0.2 + rand() * 0.7, 0.2 + rand() * 0.7, 0.2 + rand() * 0.7, 1], roughness: 0.2 + rand() * 0.7, label: `material ${i}` }));
const results = [];
for (const count of SIZES) {
    const r = await measure(device, count, shapes, materials);
    results.push(r);
    const total = r.gpu.reduce((sum, g) => sum + g.ms, 0);
    const steps = r.gpu.map((g) => `${g.name} ${g.ms.toFixed(3)}`).join(", ") || "(no timestamp-query)";
    console.log(`${String(count).padStart(7)} meshes: CPU ${r.cpu_ms.toFixed(3)} ms/frame record+encode (median), submit ${r.submit_ms.toFixed(3)}; ${r.runs} G-buffer runs; GPU ${total.toFixed(3)} ms: ${steps}`);
}
if (results.length === 2) console.log(`CPU ${results[1].count}/${results[0].count}: ${(results[1].cpu_ms / results[0].cpu_ms).toFixed(2)}x`);
console.log(JSON.stringify({ bench: "scene_scale", adapter: `${info.vendor} ${info.architecture} ${info.device}`.trim(), size: `${width}x${height}`, frozen: FROZEN, results: results.map((r) => ({ meshes: r.count, cpu_ms: r.cpu_ms, submit_ms: r.submit_ms, runs: r.runs, gpu: Object.fromEntries(r.gpu.map((g) => [g.name, g.ms])) })) }));
device.destroy();
