// Cost of the Velocity frame product: the "velocity" pass GPU ms and the renderer's CPU ms per frame, on a city
// of N meshes (TAA on) that stands still (no velocity pass), moves with TAA told not to ask for velocity, and
// moves with TAA using velocity (the default).
//   npm run bench -- frame_products                (SwiftShader: 256x256, CPU figures and ratios only)
//   DAWN_NODE=<dawn.node> BENCH_SIZE=1920x1080 node frame_products.mjs   (a real GPU)
import { createRequire } from "node:module";
import { make_box_geometry } from "../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { make_sphere_geometry } from "../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../shade/renderer/Renderer.js";
import { Mesh } from "../shade/renderer/scene/Mesh.js";
import { Scene } from "../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";

interface Dawn {
    create(flags: string[]): GPU;
    globals: object;
}
const dawn: Dawn = process.env.DAWN_NODE
    ? (createRequire(import.meta.url)(process.env.DAWN_NODE) as Dawn)
    : ((await import("webgpu")) as unknown as Dawn);
Object.assign(globalThis, dawn.globals);

const [width, height] = (process.env.BENCH_SIZE ?? "256x256").split("x").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 60);
const COUNT = Number(process.env.BENCH_MESHES ?? 10000);

function city(count: number): { scene: Scene; meshes: Mesh[] } {
    const scene = new Scene();
    const geometries = [make_box_geometry(), make_sphere_geometry(0.5, 16, 8)];
    const materials = Array.from({ length: 8 }, (_, i) => new StandardMaterial({ base_color: [0.3 + i * 0.08, 0.5, 0.9 - i * 0.08, 1] }));
    const floor = scene.add(new Mesh(make_plane_geometry(400, 400), materials[0]));
    floor.position[1] = -0.5;
    const side = Math.ceil(Math.sqrt(count));
    const meshes: Mesh[] = [];
    for (let i = 0; i < count; i++) {
        const mesh = scene.add(new Mesh(geometries[i % geometries.length], materials[(i * 7) % materials.length]));
        mesh.position[0] = ((i % side) - side / 2) * 1.5;
        mesh.position[2] = -Math.floor(i / side) * 1.5;
        meshes.push(mesh);
    }
    return { scene, meshes };
}

function median(values: number[]): number {
    const s = [...values].sort((a, b) => a - b);
    return s[s.length >> 1] ?? 0;
}

async function measure(device: GPUDevice, mode: "still" | "moving, no velocity" | "moving, velocity") {
    const { scene, meshes } = city(COUNT);
    const renderer = new Renderer({ device, target: new TextureRenderTarget(width, height), scene });
    renderer.taa_uses_velocity = mode === "moving, velocity";
    const camera = renderer.view.camera;
    camera.position.set([0, 25, 30]);
    camera.target.set([0, 0, -20]);
    camera.far = 500;
    let t = 0;
    const frame = () => {
        if (mode !== "still") {
            t++;
            const dx = Math.sin(t * 0.1) * 0.01;
            for (let i = 0; i < meshes.length; i += 2) meshes[i].position[0] += dx;
        }
        renderer.render_frame();
    };
    for (let i = 0; i < 10; i++) {
        frame();
        await device.queue.onSubmittedWorkDone();
    }
    const cpu: number[] = [];
    const gpu = new Map<string, number[]>();
    let passes = "";
    renderer.capture_pass_list = true;
    for (let i = 0; i < FRAMES; i++) {
        const t0 = performance.now();
        frame();
        cpu.push(performance.now() - t0);
        await device.queue.onSubmittedWorkDone();
        const timer = renderer.timer;
        if (timer !== null) {
            for (let k = 0; k < timer.timing_count; k++) {
                const s = timer.timings[k];
                if (!gpu.has(s.name)) gpu.set(s.name, []);
                gpu.get(s.name)!.push(s.ms);
            }
        }
        passes = renderer.last_frame_passes.map((p) => p.name).join(", ");
    }
    renderer.destroy();
    const steps = [...gpu].map(([name, ms]) => `${name} ${median(ms).toFixed(3)}`).join(", ") || "(no timestamp-query)";
    console.log(`${mode.padEnd(20)} | CPU ${median(cpu).toFixed(3)} ms/frame (incl. submit) | GPU ms: ${steps}`);
    console.log(`${"".padEnd(20)} | passes: ${passes}`);
}

// kept referenced: a collected instance crashes onSubmittedWorkDone
const instance = dawn.create(["disable-dawn-features=timestamp_quantization"]);
const adapter = await instance.requestAdapter();
if (adapter === null) throw new Error("no WebGPU adapter");
const features: GPUFeatureName[] = adapter.features.has("timestamp-query") ? ["timestamp-query"] : [];
const device = await adapter.requestDevice({ requiredFeatures: features });
const info = adapter.info;
console.log(`adapter: ${info.vendor} ${info.architecture} ${info.device}; ${width}x${height} output (TAA 0.75), ${COUNT} meshes (half of them moving), ${FRAMES} frames`);
await measure(device, "still");
await measure(device, "moving, no velocity");
await measure(device, "moving, velocity");
device.destroy();
void instance;
