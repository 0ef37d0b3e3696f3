// HighlightSystem: outlines of 1, 8 and 64 px around 16 highlighted boxes at 256x256. CPU ms per frame of
// Engine.tick (the highlight's record and encode within it; a frame with no highlight as the baseline), GPU ms
// of the highlight's passes (timestamps: seed, the jump flood's log2(width) + 1 passes, composite) and the
// ratio to the 1 px outline: the jump flood's cost grows with log2(width), a blur kernel's with width^2.
//
//   npm run bench -- highlight
//
// Dawn device (SwiftShader here, or a real GPU through VK_ICD_FILENAMES), TAA off; medians over BENCH_FRAMES.
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import { Transform } from "../engine/components/Transform.js";
import { Engine } from "../engine/Engine.js";
import { make_box_geometry } from "../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";
import { Highlight } from "../systems/highlight/Highlight.js";
import { HighlightSystem } from "../systems/highlight/HighlightSystem.js";

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

const SIZE = Number(process.env.BENCH_SIZE ?? 256);
const WARMUP = 20;
const FRAMES = Number(process.env.BENCH_FRAMES ?? 60);
const BOXES = 16;

function median(values: number[]): number {
    const sorted = values.slice().sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
}

interface Row {
    width: number;
    cpu_ms: number;
    wall_ms: number;
    gpu_ms: number | null;
    passes: number;
}

async function run(gpu: GPU, width: number): Promise<Row> {
    const errors: Error[] = [];
    const engine = new Engine({ graphics: { gpu, target: new TextureRenderTarget(SIZE, SIZE), adapter_options: { powerPreference: "high-performance" }, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false;
    const camera = engine.graphics.view.camera;
    camera.position.set([0, 12, 8]);
    camera.target.set([0, 0, 0]);
    await engine.graphics.start();
    const device = engine.graphics.device!;
    const renderer = engine.graphics.renderer!;
    const system = await engine.add_system(new HighlightSystem(engine.graphics));
    const em = engine.entityManager;
    for (let i = 0; i < BOXES; i++) {
        const mesh = new Mesh(make_box_geometry(0.8, 0.8, 0.8), new StandardMaterial({ base_color: [0.3, 0.5, 0.8] }));
        mesh.position.set([((i % 4) - 1.5) * 2.5, 0.4, (Math.floor(i / 4) - 1.5) * 2.5]);
        engine.graphics.scene.add(mesh);
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        system.set_mesh(eid, mesh);
        if (width > 0) {
            em.add_component(eid, Highlight, (e) => {
                Highlight.width[e] = width;
                Highlight.color.set([1, 0.7, 0.1, 1], e * 4);
            });
        }
    }
    const cpu: number[] = [];
    const wall: number[] = [];
    const gpu_ms: number[] = [];
    for (let f = 0; f < WARMUP + FRAMES; f++) {
        const t0 = performance.now();
        engine.tick(1 / 60);
        const t1 = performance.now();
        await device.queue.onSubmittedWorkDone();
        const t2 = performance.now();
        await new Promise((resolve) => setImmediate(resolve));
        if (f < WARMUP) continue;
        cpu.push(t1 - t0);
        wall.push(t2 - t0);
        const timer = renderer.timer;
        if (timer !== null && timer.timing_count > 0) {
            let ms = 0;
            for (let i = 0; i < timer.timing_count; i++) {
                const t = timer.timings[i];
                if (t.name.startsWith("highlight / ")) ms += t.ms;
                if (f === WARMUP + FRAMES - 1 && process.env.BENCH_PASSES) console.log(`  ${width} px: ${t.name} ${t.ms.toFixed(3)} ms`);
            }
            gpu_ms.push(ms);
        }
    }
    const passes = system.extension!.flood_passes;
    await engine.shutdown();
    if (errors.length > 0) throw new Error(`highlight bench: GPU errors: ${errors.map((e) => e.message).join("; ")}`);
    return { width, cpu_ms: median(cpu), wall_ms: median(wall), gpu_ms: gpu_ms.length > 0 ? median(gpu_ms) : null, passes };
}

async function main(): Promise<void> {
    const gpu = dawn.create(["disable-dawn-features=timestamp_quantization"]);
    const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
    console.log(
        `highlight bench: ${BOXES} highlighted boxes at ${SIZE}x${SIZE}; ${adapter?.info.description || adapter?.info.device || "?"}; ` +
            `${cpus()[0]?.model ?? "?"} x ${cpus().length}; node ${process.version}`,
    );
    const rows: Row[] = [];
    for (const width of [0, 1, 8, 64]) rows.push(await run(gpu, width));
    const one = rows.find((r) => r.width === 1)!;
    for (const r of rows) {
        const gpu_text = r.gpu_ms === null ? "GPU n/a (no timestamp-query)" : `GPU highlight passes ${r.gpu_ms.toFixed(3)} ms`;
        const ratio = r.width > 0 && r.gpu_ms !== null && one.gpu_ms !== null ? `, x${(r.gpu_ms / one.gpu_ms).toFixed(2)} of 1 px` : "";
        console.log(
            `${r.width === 0 ? "no highlight" : `${r.width} px`}: CPU tick ${r.cpu_ms.toFixed(3)} ms, wall ${r.wall_ms.toFixed(2)} ms, ` +
                `${gpu_text}${ratio}; ${r.width === 0 ? 0 : r.passes} flood passes`,
        );
    }
}

await main();
