// The skirmish level, every system and extension of the sample (terrain, scene meshes, walkers, decals, trails,
// paths, GPU particles, fog of war, highlight, shadows, colour grade, minimap), at 1920x1080 on Dawn in Node:
// CPU per frame (systems' update + the sample's after_update, and render: record, compile, encode, submit) and
// GPU per frame (every pass, by timestamps with Dawn's quantization off), with the level's 200 units or more
// (BENCH_UNITS: the level's units repeated round their loops at other offsets).
//
//   npx esbuild bench/skirmish.bench.ts --bundle --platform=node --format=esm --external:webgpu \
//       --define:__SHADE_DEBUG__=false --outfile=bench/output/skirmish.mjs && node bench/output/skirmish.mjs
//   knobs: BENCH_SIZE=1920x1080 BENCH_UNITS=200,2000 BENCH_FRAMES=240 BENCH_WARM=60 BENCH_FULLSCREEN=auto|raster|compute
//          BENCH_ASSETS=<folder of the level's models, default samples/assets/> BENCH_LOD=off|<ratio>@<screen size>,... (the Foxes' levels of detail) BENCH_PNG=<prefix> (the last frame, as a picture)
//          BENCH_CPU_PROFILE=<prefix> (a V8 CPU profile of the timed frames, <prefix><units>.cpuprofile: build with --keep-names)
//          BENCH_GPU_TIMING=0 (no GPU timer: the CPU of a frame without timestamp writes; no GPU figures)
//          BENCH_DEVICE=fake (the tests' FAKE device: our code's CPU alone, every GPU call answered at once; what to
//          profile on a machine without a GPU, where SwiftShader's threads share the cores with the profiled one)
import { readFileSync } from "node:fs";
import { CpuProfile } from "./cpu_profile.js";
import * as dawn from "webgpu";
import { Engine } from "../engine/Engine.js";
import type { FullscreenPath } from "../shade/renderer/fullscreen/FullscreenPath.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";
import { SkirmishLevel } from "../samples/skirmish/SkirmishLevel.js";
import type { DetailLevelTarget } from "../shade/renderer/geometry/simplify_detail_levels.js";
import { read_texture } from "../test/harness/read_texture.js";
import { to_rgba8, write_png } from "../test/harness/png.js";

const FAKE = process.env.BENCH_DEVICE === "fake";
if (FAKE) {
    const { ensure_webgpu_constants } = await import("../test/shade/renderer/fake_gpu_device.js");
    ensure_webgpu_constants();
} else {
    Object.assign(globalThis, dawn.globals);
}

const [width, height] = (process.env.BENCH_SIZE ?? "1920x1080").split("x").map(Number);
const UNITS = (process.env.BENCH_UNITS ?? "200,2000").split(",").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 240);
const WARM = Number(process.env.BENCH_WARM ?? 60);
const FULLSCREEN = (process.env.BENCH_FULLSCREEN ?? "auto") as FullscreenPath;
const STEP = 1 / 60;
const GPU_TIMING = process.env.BENCH_GPU_TIMING !== "0";
const LEVEL_URL = new URL("../samples/skirmish/levels/skirmish.json", import.meta.url);

interface LevelEntity {
    name?: string;
    parent?: string;
    Walker?: { offset?: number; speed?: number };
    [component: string]: unknown;
}

/** The level with its units repeated up to `units`, each copy further round its loop. */
function level_with(units: number): { version: number; entities: LevelEntity[] } {
    const level = JSON.parse(readFileSync(process.env.BENCH_LEVEL ?? LEVEL_URL, "utf8")) as { version: number; entities: LevelEntity[] };
    const walkers = level.entities.filter((e) => e.Walker !== undefined);
    const bodies = new Map<string, LevelEntity[]>();
    for (const e of level.entities) {
        if (typeof e.parent !== "string") continue;
        bodies.set(e.parent, [...(bodies.get(e.parent) ?? []), e]);
    }
    for (let copy = 1; walkers.length * copy < units; copy++) {
        for (let i = 0; i < walkers.length && walkers.length * copy + i < units; i++) {
            const clone = structuredClone(walkers[i]);
            clone.name = `${walkers[i].name} copy ${copy}`;
            clone.Walker!.offset = ((walkers[i].Walker!.offset ?? 0) + copy * 0.618) % 1;
            level.entities.push(clone);
            // the unit's body (its fox), under the copy
            for (const body of bodies.get(walkers[i].name!) ?? []) level.entities.push({ ...structuredClone(body), name: `${body.name} copy ${copy}`, parent: clone.name });
        }
    }
    return level;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
const p90 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length * 0.9)];

// kept referenced: a collected instance crashes onSubmittedWorkDone
const instance: GPU = FAKE ? await fake_instance() : dawn.create(["disable-dawn-features=timestamp_quantization"]);

// a GPU whose one adapter hands out the tests' FAKE device
async function fake_instance(): Promise<GPU> {
    const { fake_gpu_device } = await import("../test/shade/renderer/fake_gpu_device.js");
    // a new device for each engine (each measured size starts its own)
    const adapter = () => {
        const { device } = fake_gpu_device({ features: ["indirect-first-instance"] });
        return { features: device.features, limits: device.limits, info: { vendor: "FAKE", architecture: "", device: "device (our code's CPU alone)" }, requestDevice: async () => device };
    };
    return { requestAdapter: async () => adapter(), getPreferredCanvasFormat: () => "rgba8unorm" } as unknown as GPU;
}

// BENCH_LOD: "off" (the Foxes without levels of detail), "<ratio>@<screen size>,..." (those levels), unset: the level's
function detail_levels(): DetailLevelTarget[] | undefined {
    const spec = process.env.BENCH_LOD;
    if (spec === undefined || spec === "") return undefined;
    if (spec === "off") return [];
    return spec.split(",").map((level) => {
        const [ratio, screen_size] = level.split("@").map(Number);
        return { ratio, screen_size };
    });
}

async function measure(units: number): Promise<void> {
    const target = new TextureRenderTarget(width, height);
    const errors: Error[] = [];
    const engine = new Engine({ graphics: { gpu: instance, target, fullscreen_paths: FULLSCREEN, gpu_timing: GPU_TIMING, on_error: (e) => errors.push(e) } });
    const camera = engine.graphics.view.camera;
    camera.position.set([0, 21, 25]);
    camera.target.set([0, 0, 1.5]);
    camera.fov_y = Math.PI / 4;
    const scene = engine.graphics.scene;
    scene.sun.direction.set([-0.45, -1, -0.3]);
    scene.sun.color.set([1, 0.92, 0.8]);
    scene.sun.intensity = 2.4;
    scene.ambient.set([0.08, 0.1, 0.14]);
    const level = new SkirmishLevel(engine, { assets_url: process.env.BENCH_ASSETS ?? "samples/assets/", detail_levels: detail_levels() });
    await engine.graphics.start();
    await level.load(level_with(units));
    const renderer = engine.graphics.renderer!;
    const device = renderer.device;
    const gpu = new Map<string, number[]>();
    const totals: number[] = [];
    const timer = renderer.timer;
    if (timer !== null) {
        timer.on_frame = (t) => {
            let total = 0;
            for (let k = 0; k < t.timing_count; k++) {
                const timing = t.timings[k];
                let list = gpu.get(timing.name);
                if (list === undefined) gpu.set(timing.name, (list = []));
                list.push(timing.ms);
                total += timing.ms;
            }
            totals.push(total);
        };
    }
    const update_ms: number[] = [];
    const render_ms: number[] = [];
    const profile = await CpuProfile.from_env();
    for (let f = 0; f < WARM + FRAMES; f++) {
        if (f === WARM && profile !== null) await profile.start();
        const t0 = performance.now();
        engine.update(STEP);
        level.after_update();
        const t1 = performance.now();
        engine.render();
        const t2 = performance.now();
        if (f >= WARM) {
            update_ms.push(t1 - t0);
            render_ms.push(t2 - t1);
        }
        if (f === WARM - 1) {
            gpu.clear();
            totals.length = 0;
        }
        await device.queue.onSubmittedWorkDone();
    }
    await profile?.stop(units);
    // the timer's last batch
    for (let i = 0; i < 16; i++) {
        engine.render();
        await device.queue.onSubmittedWorkDone();
    }
    const cpu = update_ms.map((u, i) => u + render_ms[i]);
    // BENCH_PNG=<prefix>: the last frame as <prefix><units>.png, to look at
    if (process.env.BENCH_PNG !== undefined) {
        const image = await read_texture(device, target.acquire());
        write_png(`${process.env.BENCH_PNG}${units}.png`, image.width, image.height, to_rgba8(image));
    }
    // instances the last frame's culling drew at each level of detail
    const counts = await renderer.gbuffer_culling.read_level_instance_counts(device);
    const per_level = [0, 0, 0, 0];
    for (let i = 0; i < counts.length; i++) per_level[i % 4] += counts[i];
    const passes = [...gpu].map(([name, ms]) => ({ name, ms: median(ms) })).sort((a, b) => b.ms - a.ms);
    console.log(
        `${String(units).padStart(5)} units | CPU ${median(cpu).toFixed(3)} ms (p90 ${p90(cpu).toFixed(3)}): update ${median(update_ms).toFixed(3)} + render ${median(render_ms).toFixed(3)} | ` +
            `GPU ${totals.length > 0 ? median(totals).toFixed(3) : "-"} ms (p90 ${totals.length > 0 ? p90(totals).toFixed(3) : "-"}) over ${passes.length} passes`,
    );
    console.log(`      instances drawn per level of detail: ${per_level.join(" / ")}`);
    console.log(`      top passes: ${passes.slice(0, 12).map((p) => `${p.name} ${p.ms.toFixed(3)}`).join(", ")}`);
    if (errors.length > 0) console.log(`      errors: ${errors.map((e) => e.message).join(" | ")}`);
    await level.unload();
    engine.graphics.stop();
}

const adapter = await instance.requestAdapter();
const info = adapter?.info;
console.log(`adapter: ${info?.vendor} ${info?.architecture} ${info?.device}; ${width}x${height}; ${FRAMES} frames after ${WARM} warm; fullscreen_paths ${FULLSCREEN}; gpu timing ${GPU_TIMING ? "on" : "off"}; levels of detail ${process.env.BENCH_LOD ?? "the level's"}; timestamps not quantized`);
for (const units of UNITS) await measure(units);
process.exit(0);
