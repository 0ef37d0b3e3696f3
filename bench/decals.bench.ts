// Decals: 10,000 box-projected decals over a terrain. CPU per frame of DecalSystem.update (static decals:
// the compare-only path; and every decal moving: all records rewritten and uploaded), of the extension's
// upload, and of a whole Engine.tick; GPU time of the "decals / draw" pass and of the frame, against the
// same scene with 0 decals (on SwiftShader only the ratio means anything).
//
//   npm run bench -- decals
//
// Dawn (SwiftShader here, or a real GPU through VK_ICD_FILENAMES), 128 x 128 target, TAA off, a 64-unit terrain
// (129 samples a side) seen from above at an angle; decals of 1 x 1 x 1 units scattered over it (about 2.4 per
// square unit: they overlap). Medians over FRAMES frames after WARMUP; the queue is drained every frame so
// that the GPU timings land (timestamp-query).
import { performance } from "node:perf_hooks";
import { globals } from "webgpu";
import { create } from "webgpu";
import { Transform } from "../engine/components/Transform.js";
import { Engine } from "../engine/Engine.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";
import { Decal } from "../systems/decals/Decal.js";
import { DecalSystem } from "../systems/decals/DecalSystem.js";
import { Terrain } from "../systems/terrain/Terrain.js";
import { TerrainSystem } from "../systems/terrain/TerrainSystem.js";

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
Object.assign(globalThis, globals);

const DECALS = Number(process.env.BENCH_DECALS ?? 10_000);
const SIZE = Number(process.env.BENCH_SIZE ?? 128);
const WARMUP = 20;
const FRAMES = Number(process.env.BENCH_FRAMES ?? 60);
const DT = 1 / 60;

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
}

interface Result {
    decals: number;
    tick_ms: number;
    update_static_ms: number;
    update_moving_ms: number;
    upload_moving_ms: number;
    gpu_frame_ms: number;
    gpu_decals_ms: number;
    gpu_terrain_ms: number;
    adapter: string;
}

async function run(count: number): Promise<Result> {
    const gpu = create(["disable-dawn-features=timestamp_quantization"]);
    const errors: Error[] = [];
    const engine = new Engine({ graphics: { gpu, target: new TextureRenderTarget(SIZE, SIZE), on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false;
    const camera = engine.graphics.view.camera;
    camera.position.set([0, 40, 30]);
    camera.target.set([0, 0, 0]);
    await engine.graphics.start();
    const device = engine.graphics.device!;
    const renderer = engine.graphics.renderer!;
    await engine.add_system(new TerrainSystem(engine.graphics));
    const decals = await engine.add_system(new DecalSystem(engine.graphics, { initial_capacity: Math.max(1, count) }));
    const em = engine.entityManager;
    const ground = em.create_entity();
    em.add_component(ground, Transform);
    em.add_component(ground, Terrain);
    Terrain.write(ground, { size: 64, resolution: 129, height_scale: 6, seed: 3 });
    engine.update(0);
    const terrain_system = engine.systems[0] as TerrainSystem;
    const eids: number[] = [];
    let seed = 12345;
    const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    for (let i = 0; i < count; i++) {
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        em.add_component(eid, Decal);
        const x = (random() - 0.5) * 60;
        const z = (random() - 0.5) * 60;
        Transform.position.set([x, terrain_system.height_at(x, z), z], eid * 3);
        Decal.write(eid, { size: [1, 1, 1], frame: i % 8, rotation: random() * 6.28, color: [1, 1, 1, 0.9] });
        eids.push(eid);
    }
    const tick: number[] = [];
    const gpu_frame: number[] = [];
    const gpu_decals: number[] = [];
    const gpu_terrain: number[] = [];
    for (let f = 0; f < WARMUP + FRAMES; f++) {
        const t0 = performance.now();
        engine.tick(DT);
        const t1 = performance.now();
        await device.queue.onSubmittedWorkDone();
        await new Promise((resolve) => setImmediate(resolve));
        if (f < WARMUP) continue;
        tick.push(t1 - t0);
        const timer = renderer.timer;
        if (timer !== null && timer.timing_count > 0) {
            let total = 0;
            let d = 0;
            let t = 0;
            for (let i = 0; i < timer.timing_count; i++) {
                const timing = timer.timings[i];
                total += timing.ms;
                if (timing.name === "decals / draw") d += timing.ms;
                if (timing.name === "terrain / draw") t += timing.ms;
            }
            gpu_frame.push(total);
            gpu_decals.push(d);
            gpu_terrain.push(t);
        }
    }
    // the update alone: static (compare only), then every decal moving (all records rewritten) with the upload
    const update_static: number[] = [];
    for (let f = 0; f < FRAMES; f++) {
        const t0 = performance.now();
        decals.update(DT);
        update_static.push(performance.now() - t0);
    }
    const update_moving: number[] = [];
    const upload_moving: number[] = [];
    for (let f = 0; f < FRAMES; f++) {
        for (let i = 0; i < eids.length; i++) {
            Transform.position[eids[i] * 3 + 1] += f & 1 ? 0.001 : -0.001;
            em.mark_transform_changed(eids[i]);
        }
        // the world matrices the decals read (untimed: the figure is the decals')
        em.update_world_transforms();
        const t0 = performance.now();
        decals.update(DT);
        const t1 = performance.now();
        decals.extension!.upload(device);
        upload_moving.push(performance.now() - t1);
        update_moving.push(t1 - t0);
        await device.queue.onSubmittedWorkDone();
    }
    const info = (await gpu.requestAdapter())?.info;
    await engine.shutdown();
    if (errors.length > 0) throw new Error(`decals bench: GPU errors: ${errors.map((e) => e.message).join("; ")}`);
    return {
        decals: count,
        tick_ms: median(tick),
        update_static_ms: median(update_static),
        update_moving_ms: median(update_moving),
        upload_moving_ms: median(upload_moving),
        gpu_frame_ms: gpu_frame.length > 0 ? median(gpu_frame) : Number.NaN,
        gpu_decals_ms: gpu_decals.length > 0 ? median(gpu_decals) : Number.NaN,
        gpu_terrain_ms: gpu_terrain.length > 0 ? median(gpu_terrain) : Number.NaN,
        adapter: info === undefined ? "?" : `${info.vendor} ${info.architecture} ${info.device}`.trim(),
    };
}

const none = await run(0);
const many = await run(DECALS);
console.log(`adapter: ${many.adapter}; ${SIZE} x ${SIZE} target, TAA off; terrain 64 units, 129 samples a side`);
for (const r of [none, many]) {
    console.log(
        `${String(r.decals).padStart(6)} decals: Engine.tick CPU ${r.tick_ms.toFixed(3)} ms; DecalSystem.update static ${r.update_static_ms.toFixed(3)} ms, ` +
            `all moving ${r.update_moving_ms.toFixed(3)} ms + upload ${r.upload_moving_ms.toFixed(3)} ms; ` +
            `GPU frame ${r.gpu_frame_ms.toFixed(3)} ms, decals pass ${r.gpu_decals_ms.toFixed(3)} ms, terrain pass ${r.gpu_terrain_ms.toFixed(3)} ms`,
    );
}
console.log(`GPU frame with ${DECALS} decals / with 0: ${(many.gpu_frame_ms / none.gpu_frame_ms).toFixed(2)}x; CPU tick: ${(many.tick_ms / none.tick_ms).toFixed(2)}x`);
