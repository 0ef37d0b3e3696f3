// GPU particles: simulated and drawn per frame at 1M, 4M and 10M capacity, through the Engine.
//
// Each configuration: a GPUParticleEmitterSystem of `capacity` slots, 64 emitters in an 8 x 8 grid that keep
// the pool about full (an initial burst fills it; rate x mean lifetime = capacity), small billboards (0.02
// units) over a 1280 x 720 target (SwiftShader: 64 x 64), the renderer's whole frame around them (G-buffer,
// lighting, TAA, tonemap). Two blend mixes: all additive (one indirect draw), and half the emitters alpha
// (weighted blended OIT: accumulate + composite).
//
// Measured per frame: CPU ms of `engine.tick` (system update, record, graph compile and execute, submit;
// nothing waits on the GPU); wall ms from tick to `queue.onSubmittedWorkDone`; GPU ms per pass from
// timestamp queries (the renderer's GPUPassTimer: "particle atlas / simulate" is the compute pass,
// "particles / additive", "particles / accumulate", "particles / composite" the raster passes). Medians.
//
// The Dawn instance is created with `disable-dawn-features=timestamp_quantization` (BENCH_QUANTIZED=1 keeps
// Dawn's default quantized timestamps). Knobs: BENCH_CAPACITIES=1000000,4000000,10000000 BENCH_FRAMES=60
// BENCH_WIDTH/BENCH_HEIGHT, DAWN_NODE=<path to dawn.node> (load Dawn by path instead of the `webgpu` package).
import { createRequire } from "node:module";
import { cpus } from "node:os";
import { addComponent } from "bitecs";
import { Transform } from "../engine/components/Transform.js";
import { Engine } from "../engine/Engine.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";
import { add_particle_emitter, GPUParticleEmitterSystem, ParticleBlend } from "../systems/particles/index.js";

interface Dawn {
    create(flags: string[]): GPU;
    globals: object;
}

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
const dawn: Dawn = process.env.DAWN_NODE
    ? (createRequire(import.meta.url)(process.env.DAWN_NODE) as Dawn)
    : ((await import("webgpu")) as unknown as Dawn);
Object.assign(globalThis, dawn.globals);

const quantized = process.env.BENCH_QUANTIZED === "1";
const flags = quantized ? [] : ["disable-dawn-features=timestamp_quantization"];
const gpu = dawn.create(flags);
const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
if (adapter === null) throw new Error("particles bench: no WebGPU adapter");
const software = adapter.info.architecture === "swiftshader" || adapter.info.vendor === "google";
const env_list = (name: string, fallback: number[]): number[] => {
    const values = (process.env[name] ?? "").split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0);
    return values.length > 0 ? values : fallback;
};
const env_int = (name: string, fallback: number): number => {
    const v = Number.parseInt(process.env[name] ?? "", 10);
    return Number.isFinite(v) && v > 0 ? v : fallback;
};
const CAPACITIES = env_list("BENCH_CAPACITIES", [1_000_000, 4_000_000, 10_000_000]);
const FRAMES = env_int("BENCH_FRAMES", software ? 6 : 60);
const WARMUP = env_int("BENCH_WARMUP", software ? 2 : 20);
const WIDTH = env_int("BENCH_WIDTH", software ? 64 : 1280);
const HEIGHT = env_int("BENCH_HEIGHT", software ? 64 : 720);
const EMITTERS = 64;
/** Billboard size at birth (it halves over life). */
const SIZE = Number(process.env.BENCH_SIZE ?? "") > 0 ? Number(process.env.BENCH_SIZE) : 0.02;
/** `splat_pixels` of the system: additive particles smaller than this on screen are splatted by compute. */
const SPLAT = process.env.BENCH_SPLAT !== undefined && Number(process.env.BENCH_SPLAT) >= 0 ? Number(process.env.BENCH_SPLAT) : 2;
const MIXES = (process.env.BENCH_MIXES ?? "0,0.5").split(",").map(Number).filter((n) => n >= 0 && n <= 1);
const LIFETIME: [number, number] = [1.5, 2.5];
const DT = 1 / 60;

console.log(
    `particles bench: adapter ${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.device} (${adapter.info.description}); ` +
        `${cpus()[0]?.model ?? "?"} x ${cpus().length}; node ${process.version}; timestamps ${quantized ? "quantized (Dawn default)" : "not quantized (disable-dawn-features=timestamp_quantization)"}; ` +
        `${WIDTH}x${HEIGHT}, ${FRAMES} frames after ${WARMUP}, particle size ${SIZE}, splat_pixels ${SPLAT}`,
);

const median = (values: number[]): number => {
    if (values.length === 0) return NaN;
    const s = [...values].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

interface Row {
    capacity: number;
    mix: string;
    alive: number;
    splatted: number;
    cpu_ms: number;
    submit_ms: number;
    wall_ms: number;
    gpu_frame_ms: number;
    sim_ms: number;
    draw_ms: number;
    passes: string;
}

async function run(capacity: number, alpha_share: number): Promise<Row> {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(WIDTH, HEIGHT);
    const limits = adapter!.limits;
    const engine = new Engine({
        graphics: {
            gpu,
            target,
            adapter_options: { powerPreference: "high-performance" },
            device_descriptor: {
                requiredLimits: { maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize, maxBufferSize: limits.maxBufferSize },
            },
            on_error: (e) => errors.push(e),
        },
    });
    await engine.graphics.start();
    const device = engine.graphics.device!;
    const renderer = engine.graphics.renderer!;
    const system = await engine.add_system(new GPUParticleEmitterSystem(engine.graphics, { capacity, splat_pixels: SPLAT }));
    const em = engine.entityManager;
    const mean_life = (LIFETIME[0] + LIFETIME[1]) / 2;
    const per_emitter = Math.floor(capacity / EMITTERS);
    for (let i = 0; i < EMITTERS; i++) {
        const eid = em.create_entity();
        addComponent(em.world, eid, Transform);
        Transform.position.set([((i % 8) - 3.5) * 0.5, 0, (Math.floor(i / 8) - 3.5) * 0.5], eid * 3);
        Transform.rotation.set([0, 0, 0, 1], eid * 4);
        const alpha = i < EMITTERS * alpha_share;
        add_particle_emitter(em, eid, {
            rate: per_emitter / mean_life,
            burst: per_emitter,
            lifetime: LIFETIME,
            cone_angle: 0.6,
            speed: [0.5, 1.5],
            gravity: [0, -0.5, 0],
            drag: 0.1,
            size: [SIZE, SIZE / 2],
            color_start: alpha ? [0.3, 0.3, 0.35, 0.5] : [1, 0.5, 0.2, 1],
            color_end: alpha ? [0.3, 0.3, 0.35, 0] : [0.5, 0.1, 0.05, 0],
            frames: alpha ? [4, 4] : [0, 1],
            blend: alpha ? ParticleBlend.Alpha : ParticleBlend.Additive,
            soft: true,
            softness: 0.2,
            seed: i + 1,
        });
    }
    // time inside queue.submit, apart: on SwiftShader the GPU work runs on the same two cores
    let submit_ms = 0;
    const queue = device.queue;
    const submit = queue.submit.bind(queue);
    queue.submit = (buffers: Iterable<GPUCommandBuffer>): undefined => {
        const s0 = performance.now();
        submit(buffers);
        submit_ms += performance.now() - s0;
        return undefined;
    };
    const submits: number[] = [];
    const cpu: number[] = [];
    const wall: number[] = [];
    const gpu_frame: number[] = [];
    const sim: number[] = [];
    const draw: number[] = [];
    const per_pass = new Map<string, number[]>();
    for (let f = 0; f < WARMUP + FRAMES; f++) {
        submit_ms = 0;
        const t0 = performance.now();
        engine.tick(DT);
        const t1 = performance.now();
        await device.queue.onSubmittedWorkDone();
        const t2 = performance.now();
        // lets the timer's read-back of an earlier frame land
        await new Promise((resolve) => setImmediate(resolve));
        if (f < WARMUP) continue;
        cpu.push(t1 - t0);
        submits.push(submit_ms);
        wall.push(t2 - t0);
        const timer = renderer.timer;
        if (timer !== null && timer.timing_count > 0) {
            let total = 0;
            let s = 0;
            let d = 0;
            for (let i = 0; i < timer.timing_count; i++) {
                const t = timer.timings[i];
                total += t.ms;
                if (t.name === "particle atlas / simulate") s += t.ms;
                else if (t.name.startsWith("particles / ")) d += t.ms;
                let list = per_pass.get(t.name);
                if (list === undefined) per_pass.set(t.name, (list = []));
                list.push(t.ms);
            }
            gpu_frame.push(total);
            sim.push(s);
            draw.push(d);
        }
    }
    const pool = await system.read_back();
    await engine.remove_system(system);
    await device.queue.onSubmittedWorkDone();
    await engine.graphics.stop();
    if (errors.length > 0) {
        throw new Error(`particles bench: GPU errors: ${errors.map((e) => `${e.message}${e.cause !== undefined ? ` (${String((e.cause as Error).stack ?? e.cause)})` : ""}`).join("; ")}`);
    }
    const passes = [...per_pass.entries()].map(([name, ms]) => `${name} ${median(ms).toFixed(3)}`).join(", ");
    return {
        capacity,
        mix: alpha_share === 0 ? "additive" : `${Math.round(alpha_share * 100)}% alpha (OIT)`,
        alive: pool.alive,
        splatted: pool.splatted,
        cpu_ms: median(cpu),
        submit_ms: median(submits),
        wall_ms: median(wall),
        gpu_frame_ms: median(gpu_frame),
        sim_ms: median(sim),
        draw_ms: median(draw),
        passes,
    };
}

const rows: Row[] = [];
for (const mix of MIXES) {
    for (const capacity of CAPACITIES) {
        const row = await run(capacity, mix);
        rows.push(row);
        console.log(
            `capacity ${row.capacity.toLocaleString("en")} (${row.mix}): alive ${row.alive.toLocaleString("en")} (splatted ${row.splatted.toLocaleString("en")}); cpu ${row.cpu_ms.toFixed(3)} ms (of which in queue.submit ${row.submit_ms.toFixed(3)}); ` +
                `wall to done ${row.wall_ms.toFixed(3)} ms; GPU frame ${row.gpu_frame_ms.toFixed(3)} ms, particles: simulate ${row.sim_ms.toFixed(3)} ms + draw ${row.draw_ms.toFixed(3)} ms` +
                `\n    passes (median ms): ${row.passes}`,
        );
    }
}
console.log("\n| capacity | mix | alive | CPU ms/frame | CPU ms outside submit | wall to done ms | GPU frame ms | simulate (compute) ms | draw ms (raster + splat) | particles GPU ms | splatted |");
console.log("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
    console.log(
        `| ${r.capacity.toLocaleString("en")} | ${r.mix} | ${r.alive.toLocaleString("en")} | ${r.cpu_ms.toFixed(3)} | ${(r.cpu_ms - r.submit_ms).toFixed(3)} | ${r.wall_ms.toFixed(2)} | ${r.gpu_frame_ms.toFixed(2)} | ` +
            `${r.sim_ms.toFixed(3)} | ${r.draw_ms.toFixed(3)} | ${(r.sim_ms + r.draw_ms).toFixed(3)} | ${r.splatted.toLocaleString("en")} |`,
    );
}
const base = rows[0].cpu_ms;
console.log(`CPU ms per frame relative to the first row: ${rows.map((r) => (r.cpu_ms / base).toFixed(2)).join(", ")}`);
process.exit(0);
