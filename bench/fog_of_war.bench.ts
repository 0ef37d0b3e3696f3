// FogOfWarSystem: a 512x512 grid with 2,000 moving revealers (radius 10 cells). CPU ms per frame of the
// system's update (cell crossings: conceal + reveal of the disc; fades) and of the upload of the changed rows
// (FogOfWarSystem.upload: one queue.writeTexture), GPU ms of the fog's passes where timestamps exist, and
// young-generation GCs in steady state.
//
//   npm run bench -- fog_of_war
//
// Dawn device (SwiftShader here, or a real GPU through VK_ICD_FILENAMES). Two speeds: 4 cells/s (a walking
// unit: about 7% of the revealers cross a cell per frame at 60 Hz) and 60 cells/s (every revealer crosses a
// cell every frame: the worst case). Full frames are rendered at BENCH_SIZE squared (default 128, TAA off) through Engine.tick so that
// the upload and the fog pass run as in a game; medians over TIMED_FRAMES. Knobs: BENCH_FRAMES, BENCH_REVEALERS,
// BENCH_SIZE, BENCH_FADE (fade_time, default 0.3 s).
import { PerformanceObserver, constants, performance } from "node:perf_hooks";
import { cpus } from "node:os";
import { createRequire } from "node:module";
import { Transform } from "../engine/components/Transform.js";
import { Engine } from "../engine/Engine.js";
import { make_box_geometry } from "../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";
import { FogOfWarSystem } from "../systems/fog_of_war/FogOfWarSystem.js";
import { FogRevealer } from "../systems/fog_of_war/FogRevealer.js";

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
interface Dawn {
    create(flags: string[]): GPU;
    globals: object;
}
// DAWN_NODE=<path to dawn.node> loads Dawn by path instead of the `webgpu` package (the H200 runs)
const dawn: Dawn = process.env.DAWN_NODE
    ? (createRequire(import.meta.url)(process.env.DAWN_NODE) as Dawn)
    : ((await import("webgpu")) as unknown as Dawn);
Object.assign(globalThis, dawn.globals);

const REVEALERS = Number(process.env.BENCH_REVEALERS ?? 2000);
const GRID = 512;
const RADIUS = 10;
const WARMUP = 60;
const TIMED_FRAMES = Number(process.env.BENCH_FRAMES ?? 300);
const DT = 1 / 60;
const SIZE = Number(process.env.BENCH_SIZE ?? 128);

function median(values: number[]): number {
    const sorted = values.slice().sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
}

let minor_gcs = 0;
new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
        const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor_gcs++;
    }
}).observe({ entryTypes: ["gc"] });

async function run(gpu: GPU, speed: number): Promise<string> {
    const errors: Error[] = [];
    const engine = new Engine({ graphics: { gpu, target: new TextureRenderTarget(SIZE, SIZE), adapter_options: { powerPreference: "high-performance" }, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false;
    const camera = engine.graphics.view.camera;
    camera.position.set([0, 300, 200]);
    camera.target.set([0, 0, 0]);
    camera.far = 1000;
    const ground = new Mesh(make_box_geometry(GRID, 1, GRID), new StandardMaterial({ base_color: [0.6, 0.6, 0.6] }));
    ground.position.set([0, -0.5, 0]);
    engine.graphics.scene.add(ground);
    await engine.graphics.start();
    const device = engine.graphics.device!;
    const renderer = engine.graphics.renderer!;
    const fog = await engine.add_system(
        new FogOfWarSystem(engine.graphics, { grid: [GRID, GRID], bounds: [-GRID / 2, -GRID / 2, GRID / 2, GRID / 2], teams: 2, fade_time: Number(process.env.BENCH_FADE ?? 0.3) }),
    );
    const em = engine.entityManager;
    const eids: number[] = [];
    const heading = new Float32Array(REVEALERS * 2);
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
    for (let i = 0; i < REVEALERS; i++) {
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        em.add_component(eid, FogRevealer, (e) => {
            FogRevealer.radius[e] = RADIUS;
            FogRevealer.team[e] = i & 1;
        });
        Transform.position.set([(random() - 0.5) * GRID * 0.9, 0, (random() - 0.5) * GRID * 0.9], eid * 3);
        const a = random() * Math.PI * 2;
        heading[i * 2] = Math.cos(a);
        heading[i * 2 + 1] = Math.sin(a);
        eids.push(eid);
    }
    const step = speed * DT;
    const limit = GRID * 0.45;
    const move = (): void => {
        const p = Transform.position;
        for (let i = 0; i < eids.length; i++) {
            const o = eids[i] * 3;
            let x = p[o] + heading[i * 2] * step;
            let z = p[o + 2] + heading[i * 2 + 1] * step;
            // bounce off the edges of the map
            if (x < -limit || x > limit) {
                heading[i * 2] = -heading[i * 2];
                x = p[o];
            }
            if (z < -limit || z > limit) {
                heading[i * 2 + 1] = -heading[i * 2 + 1];
                z = p[o + 2];
            }
            p[o] = x;
            p[o + 2] = z;
            em.mark_transform_changed(eids[i]);
        }
        // the world matrices the fog reads, brought up to date here: the figure is the fog's, not the hierarchy's
        em.update_world_transforms();
    };
    // the upload, timed where the FrameStart pass calls it
    let upload_ms = 0;
    const upload = fog.upload.bind(fog);
    fog.upload = (d: GPUDevice): void => {
        const t = performance.now();
        upload(d);
        upload_ms += performance.now() - t;
    };
    const update: number[] = [];
    const uploads: number[] = [];
    const moves: number[] = [];
    const rows: number[] = [];
    const gpu_fog: number[] = [];
    let gcs_before = 0;
    for (let f = 0; f < WARMUP + TIMED_FRAMES; f++) {
        if (f === WARMUP) gcs_before = minor_gcs;
        move();
        upload_ms = 0;
        const t0 = performance.now();
        engine.update(DT);
        const t1 = performance.now();
        const dirty = fog.grid.dirty_max_row - fog.grid.dirty_min_row + 1;
        engine.graphics.render();
        await device.queue.onSubmittedWorkDone();
        await new Promise((resolve) => setImmediate(resolve));
        if (f < WARMUP) continue;
        update.push(t1 - t0);
        uploads.push(upload_ms);
        moves.push(fog.moves);
        rows.push(Math.max(0, dirty));
        const timer = renderer.timer;
        if (timer !== null && timer.timing_count > 0) {
            let ms = 0;
            for (let i = 0; i < timer.timing_count; i++) if (timer.timings[i].name.startsWith("fog of war")) ms += timer.timings[i].ms;
            gpu_fog.push(ms);
        }
    }
    const gcs = minor_gcs - gcs_before;
    await engine.shutdown();
    if (errors.length > 0) throw new Error(`fog bench: GPU errors: ${errors.map((e) => e.message).join("; ")}`);
    return (
        `speed ${speed} cells/s: update ${median(update).toFixed(3)} ms (${median(moves)} cell crossings/frame), ` +
        `upload ${median(uploads).toFixed(3)} ms (${median(rows)} dirty rows), CPU ${(median(update) + median(uploads)).toFixed(3)} ms/frame; ` +
        `GPU fog passes ${gpu_fog.length > 0 ? `${median(gpu_fog).toFixed(3)} ms` : "n/a (no timestamp-query)"}; ` +
        `${gcs} minor GCs over ${TIMED_FRAMES} frames`
    );
}

async function main(): Promise<void> {
    const gpu = dawn.create(["disable-dawn-features=timestamp_quantization"]);
    const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
    console.log(
        `fog of war bench: ${GRID}x${GRID} grid, ${REVEALERS} revealers (radius ${RADIUS} cells, 2 teams), ${SIZE}x${SIZE} frames; ` +
            `${adapter?.info.description || adapter?.info.device || "?"}; ${cpus()[0]?.model ?? "?"} x ${cpus().length}; node ${process.version}`,
    );
    for (const speed of [4, 60]) console.log(await run(gpu, speed));
}

await main();
