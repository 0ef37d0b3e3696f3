// The soak as a plain node program, for long runs outside vitest (bundled with esbuild; see BENCHMARKS.md):
// SOAK_FRAMES (default 100000), SOAK_LOSSES (8), DAWN_NODE=<path to dawn.node> (else the `webgpu` package).
// Prints the samples and a verdict; exits 1 when the soak fails its checks.
import { createRequire } from "node:module";
import { run_soak, slowdown, soak_problems, WARMUP_SAMPLES } from "./soak_run.js";

interface Dawn {
    create(flags: string[]): GPU;
    globals: object;
}
if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = "/usr/lib/chromium/vk_swiftshader_icd.json";
const dawn: Dawn = process.env.DAWN_NODE ? (createRequire(import.meta.url)(process.env.DAWN_NODE) as Dawn) : ((await import("webgpu")) as unknown as Dawn);
Object.assign(globalThis, dawn.globals);
// timestamp quantization off, as in every benchmark (the engine times its passes on the GPU); SOAK_QUANTIZED=1 keeps it
const gpu = dawn.create(process.env.SOAK_QUANTIZED === "1" ? [] : ["disable-dawn-features=timestamp_quantization"]);
const adapter = await gpu.requestAdapter();
console.log(`adapter: ${adapter?.info.vendor} ${adapter?.info.device} (${adapter?.info.architecture})`);

const frames = Number(process.env.SOAK_FRAMES ?? 100_000);
const losses = Number(process.env.SOAK_LOSSES ?? 8);
const result = await run_soak({ gpu, frames, samples: 10, device_losses: losses, seed: 1234, population: 24 });
const problems = soak_problems(result, losses);
const update = slowdown(result.update_ms, WARMUP_SAMPLES / 10);
const render = slowdown(result.render_ms, WARMUP_SAMPLES / 10);
console.log(
    `median ms per frame after warm-up / last tenth: update ${update.settled.toFixed(3)} / ${update.last.toFixed(3)} (${update.ratio.toFixed(2)}x), ` +
        `render ${render.settled.toFixed(3)} / ${render.last.toFixed(3)} (${render.ratio.toFixed(2)}x)`,
);
console.log(
    `soak: ${frames} frames (${result.frames_rendered} rendered) in ${result.seconds.toFixed(1)} s (${((1000 * result.seconds) / frames).toFixed(2)} ms/frame), ` +
        `${result.recoveries} recoveries, ${result.device_loss_reports} device-loss reports; ${problems.length === 0 ? "PASS" : `FAIL:\n${problems.join("\n")}`}`,
);
process.exit(problems.length === 0 ? 0 : 1);
