// Bloom: GPU time of the BloomExtension's passes (6-level chain: downsamples, upsamples, composite) at 1920x1080,
// on its raster path and on its compute path, from the renderer's per-pass timestamps (Dawn's timestamp
// quantization off). The scene: emissive spheres and boxes on a dim floor, TAA off (the bloom runs at the output
// size either way). The two paths take turns, round after round, on one renderer; each figure is the median over
// every timed frame of its path. Goal: bloom <= 0.3 ms on the H200.
//
//   npx esbuild bench/bloom.bench.ts --bundle --platform=node --format=esm --external:webgpu \
//       --define:__SHADE_DEBUG__=false --outfile=bench/output/bloom.mjs
//   node bench/output/bloom.mjs          knobs: BENCH_SIZE=1920x1080 BENCH_FRAMES=120 BENCH_ROUNDS=3 BENCH_LEVELS=6
import * as dawn from "webgpu";
import { BloomExtension } from "../shade/renderer/bloom/BloomExtension.js";
import { bloom_level_count } from "../shade/renderer/bloom/bloom_level_count.js";
import { make_box_geometry } from "../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../shade/renderer/Renderer.js";
import { Mesh } from "../shade/renderer/scene/Mesh.js";
import { Scene } from "../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";

Object.assign(globalThis, dawn.globals);

const [width, height] = (process.env.BENCH_SIZE ?? "1920x1080").split("x").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 120);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LEVELS = Number(process.env.BENCH_LEVELS ?? 6);
const WARM = 20;
const PATHS = ["raster", "compute"] as const;

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];

function emissive_scene(): Scene {
    const scene = new Scene();
    scene.sun.intensity = 0.05;
    scene.ambient.set([0.01, 0.01, 0.012]);
    scene.sky.set([0, 0, 0]);
    const floor = scene.add(new Mesh(make_box_geometry(), new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1], roughness: 0.8 })));
    floor.scale.set([12, 0.1, 8]);
    const sphere = make_sphere_geometry(0.5, 32, 16);
    const box = make_box_geometry();
    for (let i = 0; i < 9; i++) {
        const emissive = [(i % 3) * 6 + 1, ((i + 1) % 3) * 6 + 1, ((i + 2) % 3) * 6 + 1];
        const mesh = scene.add(new Mesh(i % 2 === 0 ? sphere : box, new StandardMaterial({ base_color: [0.05, 0.05, 0.05, 1], emissive })));
        mesh.position.set([(i % 3) * 2.2 - 2.2, 0.5, Math.floor(i / 3) * 1.5 - 1.5]);
        mesh.scale.set([0.7, 0.7, 0.7]);
    }
    return scene;
}

// kept referenced: a collected instance crashes onSubmittedWorkDone
const instance = dawn.create(["disable-dawn-features=timestamp_quantization"]);
const adapter = await instance.requestAdapter();
if (adapter === null) throw new Error("no WebGPU adapter");
if (!adapter.features.has("timestamp-query")) throw new Error("the adapter has no timestamp-query: no GPU times");
const device = await adapter.requestDevice({ requiredFeatures: ["timestamp-query"] });
const info = adapter.info;
const levels = bloom_level_count(width, height, LEVELS);
console.log(
    `adapter: ${info.vendor} ${info.architecture} ${info.device} (${info.description}); ${width}x${height}; bloom ${levels} levels (${2 * levels} passes), ` +
        `rgba16float; TAA off; ${ROUNDS} rounds x ${FRAMES} frames per path after ${WARM} warm; timestamps not quantized`,
);

const target = new TextureRenderTarget(width, height);
const renderer = new Renderer({ device, target, scene: emissive_scene(), feature_taa_enabled: false, gpu_timing_frames_per_read: 8 });
renderer.view.camera.position.set([0, 3, 6]);
renderer.view.camera.target.set([0, 0.4, 0]);
// one extension per path, named after it: a frame's timings tell by their scope which path ran, even when their
// read-back lands after the switch; the one not measured has intensity 0 (records nothing)
const blooms = new Map(
    PATHS.map((path) => {
        const bloom = new BloomExtension({ levels: LEVELS, path, intensity: 0 });
        bloom.name = `bloom ${path}`;
        return [bloom.name, renderer.add_extension(bloom)] as const;
    }),
);
const timer = renderer.timer;
if (timer === null) throw new Error("the renderer has no GPU timer");

/** Per extension (path): the bloom's total per frame, and each pass's times by name. */
const totals = new Map<string, number[]>([...blooms.keys()].map((name) => [name, []]));
const passes = new Map<string, Map<string, number[]>>([...blooms.keys()].map((name) => [name, new Map()]));
const others = new Map<string, number[]>();
let recording = false;
timer.on_frame = (t) => {
    if (!recording) return;
    let total = 0;
    let seen = 0;
    let scope: string | null = null;
    for (let k = 0; k < t.timing_count; k++) {
        const timing = t.timings[k];
        const by_pass = timing.scope === null ? undefined : passes.get(timing.scope);
        if (by_pass === undefined) {
            let list = others.get(timing.name);
            if (list === undefined) others.set(timing.name, (list = []));
            list.push(timing.ms);
            continue;
        }
        scope = timing.scope;
        total += timing.ms;
        seen++;
        let list = by_pass.get(timing.name);
        if (list === undefined) by_pass.set(timing.name, (list = []));
        list.push(timing.ms);
    }
    if (scope !== null && seen === 2 * levels) totals.get(scope)!.push(total);
};

for (let round = 0; round < ROUNDS; round++) {
    for (const path of PATHS) {
        for (const [name, bloom] of blooms) bloom.intensity = name === `bloom ${path}` ? 0.04 : 0;
        recording = false;
        for (let f = 0; f < WARM; f++) renderer.render_frame();
        await device.queue.onSubmittedWorkDone();
        recording = true;
        for (let f = 0; f < FRAMES; f++) {
            renderer.render_frame();
            if ((f & 7) === 7) await device.queue.onSubmittedWorkDone();
        }
        await device.queue.onSubmittedWorkDone();
        // let the last read-backs land before the next path's frames
        for (let i = 0; i < 4; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    }
}

for (const name of blooms.keys()) {
    const list = totals.get(name)!;
    const by_pass = [...passes.get(name)!].map(([pass, ms]) => `${pass} ${median(ms).toFixed(4)}`);
    console.log(`${name}: ${list.length > 0 ? median(list).toFixed(4) : "-"} ms per frame (median of ${list.length} frames)`);
    console.log(`    passes: ${by_pass.join(", ")}`);
}
const frame = [...others].map(([name, ms]) => `${name} ${median(ms).toFixed(3)}`);
console.log(`rest of the frame (ms, both paths' frames): ${frame.join(", ")}`);
for (const bloom of blooms.values()) bloom.destroy();
renderer.destroy();
process.exit(0);
