// Animated skinned characters: N Khronos Foxes (24 joints, 1,728 vertices each) walking, each at its own time and
// speed, through ModelSystem + AnimatorSystem + SceneSystem on Dawn in Node at 1920x1080. CPU per frame: the
// animation (AnimatorSystem.update: sampling and pose writes), the transform hierarchy, the skins (ModelSystem
// before_render) and the render call; GPU per frame: the skinning compute pass and every pass (timestamps, Dawn's
// quantization off). Allocation per steady frame: the heap counter over the timed loop (the bench's own timers,
// arrays and promises included), then young-generation bytes per frame in synchronous windows after a full GC
// (test/harness/allocation.ts) for the CPU frame (animation, hierarchy, ModelSystem and SceneSystem
// before_render) and for the whole frame with the render on Dawn (its JS wrappers included), against an idle frame.
//
//   npx esbuild bench/skinned_characters.bench.ts --bundle --platform=node --format=esm --external:webgpu \
//       --external:pngjs --external:jpeg-js --define:__SHADE_DEBUG__=false --outfile=bench/output/skinned.mjs
//   node bench/output/skinned.mjs          knobs: BENCH_COUNT=100,1000 BENCH_FRAMES=240 BENCH_FOX=<path of Fox.glb>
import * as dawn from "webgpu";
import { Engine } from "../engine/Engine.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";
import { Animator } from "../systems/model/Animator.js";
import { AnimatorSystem } from "../systems/model/AnimatorSystem.js";
import { load_level_with_models } from "../systems/model/load_level_with_models.js";
import { ModelSystem } from "../systems/model/ModelSystem.js";
import { SceneSystem } from "../systems/scene/SceneSystem.js";
import { allocation_sites, steady_bytes_per_frame, window_medians } from "../test/harness/allocation.js";

Object.assign(globalThis, dawn.globals);

const [width, height] = (process.env.BENCH_SIZE ?? "1920x1080").split("x").map(Number);
const COUNTS = (process.env.BENCH_COUNT ?? "100,1000").split(",").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 240);
const FOX = process.env.BENCH_FOX ?? "samples/assets/Fox/Fox.glb";
const STEP = 1 / 60;

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
// kept referenced: a collected instance crashes onSubmittedWorkDone
const instance = dawn.create(["disable-dawn-features=timestamp_quantization"]);

function level(count: number) {
    const side = Math.ceil(Math.sqrt(count));
    const entities: unknown[] = [
        { name: "camera", Transform: { position: [0, side * 0.9, side * 1.3], rotation: look_down(side) }, Camera: { fov: 50, near: 0.5, far: 500 } },
        { name: "sun", Transform: {}, DirectionalLight: { direction: [-0.4, -1, -0.5], intensity: 3 } },
    ];
    for (let i = 0; i < count; i++) {
        const x = ((i % side) - side / 2) * 1.5;
        const z = (Math.floor(i / side) - side / 2) * 1.5;
        entities.push({
            name: `fox ${i}`,
            Transform: { position: [x, 0, z], scale: [0.01, 0.01, 0.01] },
            Model: { src: FOX },
            Animator: { clip: i % 3 === 0 ? "Run" : "Walk", speed: 0.8 + ((i * 0.37) % 0.4) },
        });
    }
    return { version: 1, entities };
}

// the camera's rotation: looking at the origin from (0, 0.9 s, 1.3 s)
function look_down(side: number): number[] {
    const angle = Math.atan2(side * 0.9, side * 1.3);
    return [-Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)];
}

async function measure(count: number): Promise<void> {
    const target = new TextureRenderTarget(width, height);
    const errors: Error[] = [];
    const engine = new Engine({ max_entities: count * 40 + 64, graphics: { gpu: instance, target, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = true;
    await engine.graphics.start();
    const scene = await engine.add_system(new SceneSystem(engine.graphics));
    const models = await engine.add_system(new ModelSystem(engine.graphics, scene));
    const animators = new AnimatorSystem(models);
    await engine.add_system(animators);
    const t_load = performance.now();
    const ids = await load_level_with_models(engine, models, level(count));
    const load_ms = performance.now() - t_load;
    // every fox at its own place in its clip
    engine.update(0);
    for (let i = 2; i < ids.length; i++) animators.seek(ids[i], (i * 0.173) % 1);
    void Animator;
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
    const animate_ms: number[] = [];
    const update_ms: number[] = [];
    const render_ms: number[] = [];
    let heap_before = 0;
    for (let f = 0; f < 60 + FRAMES; f++) {
        if (f === 60) heap_before = process.memoryUsage().heapUsed;
        const t0 = performance.now();
        animators.update(STEP);
        const t1 = performance.now();
        // the rest of the engine's update (the animator runs above: stepping it again would double the time)
        engine.entityManager.update_world_transforms();
        const t2 = performance.now();
        engine.render();
        const t3 = performance.now();
        if (f >= 60) {
            animate_ms.push(t1 - t0);
            update_ms.push(t2 - t1);
            render_ms.push(t3 - t2);
        }
        if (f === 59) {
            gpu.clear();
            totals.length = 0;
        }
        await device.queue.onSubmittedWorkDone();
    }
    const heap_growth = (process.memoryUsage().heapUsed - heap_before) / FRAMES;
    for (let i = 0; i < 16; i++) {
        engine.render();
        await device.queue.onSubmittedWorkDone();
    }
    // young-generation bytes per steady frame, synchronous windows after a full GC, against an idle frame
    if (timer !== null) timer.on_frame = () => {};
    const em = engine.entityManager;
    const counter = new Uint32Array(1);
    const cpu_frame = (): void => {
        animators.update(STEP);
        em.update_world_transforms();
        models.before_render();
        scene.before_render();
    };
    const full_frame = (): void => {
        animators.update(STEP);
        engine.render();
    };
    const idle = (): void => {
        counter[0]++;
    };
    for (let i = 0; i < 1000; i++) cpu_frame();
    const steady = await steady_bytes_per_frame([cpu_frame, idle], { window: 100, accept: ([b, r]) => b <= r + 4 });
    const [cpu_bytes, idle_bytes] = steady.medians;
    await device.queue.onSubmittedWorkDone();
    const [full_bytes, idle_bytes_2] = window_medians([full_frame, idle], 10);
    await device.queue.onSubmittedWorkDone();
    const full_sites = await allocation_sites(full_frame, 30, 6);
    await device.queue.onSubmittedWorkDone();
    const passes = [...gpu].map(([name, ms]) => ({ name, ms: median(ms) })).sort((a, b) => b.ms - a.ms);
    const skinning = gpu.get("skinning");
    console.log(
        `${String(count).padStart(5)} foxes | load ${load_ms.toFixed(0)} ms | CPU animation ${median(animate_ms).toFixed(3)} ms, hierarchy ${median(update_ms).toFixed(3)} ms, ` +
            `render (skins + record + submit) ${median(render_ms).toFixed(3)} ms | GPU skinning ${skinning !== undefined ? median(skinning).toFixed(3) : "-"} ms, ` +
            `frame ${totals.length > 0 ? median(totals).toFixed(3) : "-"} ms | heap ${heap_growth.toFixed(0)} B/frame (GC included)`,
    );
    console.log(
        `      young-generation bytes per steady frame: CPU frame (animation, hierarchy, skins, scene sync) ${cpu_bytes.toFixed(1)} (idle ${idle_bytes.toFixed(1)}), ` +
            `whole frame with the render on Dawn ${full_bytes.toFixed(1)} (idle ${idle_bytes_2.toFixed(1)})`,
    );
    if (!steady.accepted) console.log(`      CPU frame allocates (after ${steady.rounds} rounds): ${steady.sites.join(" | ")}`);
    console.log(`      whole frame allocates at: ${full_sites.join(" | ")}`);
    console.log(`      top passes: ${passes.slice(0, 10).map((p) => `${p.name} ${p.ms.toFixed(3)}`).join(", ")}`);
    if (errors.length > 0) console.log(`      errors: ${errors.map((e) => e.message).join(" | ")}`);
    await engine.shutdown();
}

const adapter = await instance.requestAdapter();
const info = adapter?.info;
console.log(`adapter: ${info?.vendor} ${info?.architecture} ${info?.device}; ${width}x${height}; TAA on; ${FRAMES} frames after 60 warm; timestamps not quantized`);
for (const count of COUNTS) await measure(count);
process.exit(0);
