// Cost of the sun's cascaded shadow map per cascade: whole-frame wall time (record to GPU done) and the
// shadow pass's GPU time from timestamps, for no shadow extension and 1 to 4 cascades, as ratios to the frame
// without shadows (SwiftShader's absolute figures say little about a real GPU; the ratios say how the cost grows).
//   npm run bench -- shadows                                     (SwiftShader)
//   BENCH_SIZE=1920x1080 BENCH_SHADOW_RES=2048 node shadows.mjs  (on a real GPU)
import { create, globals } from "webgpu";
import { make_box_geometry } from "../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { make_sphere_geometry } from "../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../shade/renderer/Renderer.js";
import { Mesh } from "../shade/renderer/scene/Mesh.js";
import { Scene } from "../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { ShadowExtension } from "../shade/renderer/shadows/ShadowExtension.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";

Object.assign(globalThis, globals);
const [width, height] = (process.env.BENCH_SIZE ?? "128x128").split("x").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 20);
const MESHES = Number(process.env.BENCH_MESHES ?? 400);
const RESOLUTION = Number(process.env.BENCH_SHADOW_RES ?? 512);

function town(): Scene {
    const scene = new Scene();
    const ground = new StandardMaterial({ base_color: [0.6, 0.6, 0.55, 1], roughness: 0.9 });
    scene.add(new Mesh(make_plane_geometry(200, 200), ground));
    const geometries = [make_box_geometry(1, 2, 1), make_sphere_geometry(0.6, 16, 8), make_box_geometry(2, 1, 1)];
    const materials = Array.from({ length: 4 }, (_, i) => new StandardMaterial({ base_color: [0.4 + i * 0.1, 0.5, 0.7 - i * 0.1, 1] }));
    const side = Math.ceil(Math.sqrt(MESHES));
    for (let i = 0; i < MESHES; i++) {
        const mesh = scene.add(new Mesh(geometries[i % 3], materials[i % 4]));
        mesh.position.set([((i % side) - side / 2) * 3, 1, -Math.floor(i / side) * 3 + 10]);
    }
    return scene;
}

function median(values: number[]): number {
    const s = [...values].sort((a, b) => a - b);
    return s[s.length >> 1];
}

// Every configuration gets a renderer of its own, and they render in turn, one frame each per round: on a
// shared machine whose load drifts, each configuration sees the same load.
async function measure_all(device: GPUDevice, configurations: number[]) {
    const runs = configurations.map((cascades) => {
        const renderer = new Renderer({ device, target: new TextureRenderTarget(width, height), scene: town(), feature_taa_enabled: false });
        const camera = renderer.view.camera;
        camera.position.set([0, 12, 16]);
        camera.target.set([0, 0, -10]);
        camera.far = 300;
        if (cascades > 0) renderer.add_extension(new ShadowExtension({ cascades, resolution: RESOLUTION, distance: 80 }));
        return { cascades, renderer, wall: [] as number[], shadow: [] as number[], lighting: [] as number[], frame: [] as number[] };
    });
    for (let round = 0; round < FRAMES + 5; round++) {
        for (const run of runs) {
            const t0 = performance.now();
            run.renderer.render_frame();
            await device.queue.onSubmittedWorkDone();
            if (round < 5) continue;
            run.wall.push(performance.now() - t0);
            const timer = run.renderer.timer;
            if (timer !== null && timer.timing_count > 0) {
                let sum = 0;
                for (let k = 0; k < timer.timing_count; k++) {
                    const t = timer.timings[k];
                    sum += t.ms;
                    if (t.name === "lighting") run.lighting.push(t.ms);
                }
                run.frame.push(sum);
                run.shadow.push(run.renderer.extension_ms("shadows"));
            }
        }
    }
    return runs.map((r) => {
        r.renderer.destroy();
        const m = (v: number[]) => (v.length ? median(v) : NaN);
        return { cascades: r.cascades, wall_ms: m(r.wall), gpu_frame_ms: m(r.frame), shadow_ms: m(r.shadow), lighting_ms: m(r.lighting) };
    });
}

const gpu = create(process.env.BENCH_QUANTIZED === "1" ? [] : ["disable-dawn-features=timestamp_quantization"]);
const adapter = await gpu.requestAdapter();
if (adapter === null) throw new Error("no WebGPU adapter");
const features: GPUFeatureName[] = adapter.features.has("timestamp-query") ? ["timestamp-query"] : [];
const device = await adapter.requestDevice({ requiredFeatures: features });
const info = adapter.info;
console.log(`adapter: ${info.vendor} ${info.architecture} ${info.device} ${info.description}; target ${width}x${height}; ${MESHES} meshes; ${RESOLUTION}^2 per cascade; ${FRAMES} frames`);
const rows = await measure_all(device, [0, 1, 2, 3, 4]);
const base = rows[0];
console.log("cascades | wall ms/frame | x no shadows | GPU frame ms | shadow pass GPU ms | lighting GPU ms");
for (const r of rows) {
    console.log(
        `${String(r.cascades).padStart(8)} | ${r.wall_ms.toFixed(2).padStart(8)} | ${(r.wall_ms / base.wall_ms).toFixed(2).padStart(5)} | ` +
            `${r.gpu_frame_ms.toFixed(3).padStart(8)} | ${r.shadow_ms.toFixed(3).padStart(8)} | ${r.lighting_ms.toFixed(3).padStart(8)}`,
    );
}
const per_cascade = (rows[4].shadow_ms - rows[1].shadow_ms) / 3;
console.log(`shadow pass GPU ms per extra cascade: ${per_cascade.toFixed(3)}; shadowed lighting / shadowless: ${(rows[3].lighting_ms / base.lighting_ms).toFixed(2)}`);
console.log(
    JSON.stringify({
        bench: "shadows",
        adapter: `${info.vendor} ${info.architecture} ${info.device}`.trim(),
        size: `${width}x${height}`,
        resolution: RESOLUTION,
        rows,
        wall_ratio_3_cascades: rows[3].wall_ms / base.wall_ms,
        shadow_ms_per_cascade: per_cascade,
    }),
);
device.destroy();
