// The soak on Dawn: SOAK_FRAMES frames (default 1,500 at 32x32 in CI: ~30 s on 2 idle cores; SOAK_FRAMES=100000 for the full run) with
// every registered system, a resize storm, an extension added and removed every frame, entities created and
// destroyed every frame and the device destroyed several times. Fails when a frame throws, when anything but a
// device-loss report comes through on_error, or when heap, transient pool or GPU bytes keep growing after warm-up.
import { expect, it } from "vitest";
import { get_gpu } from "../harness/index.js";
import { run_soak, slowdown, soak_problems, WARMUP_SAMPLES } from "./soak_run.js";

const FRAMES = Number(process.env.SOAK_FRAMES ?? 1500);
const SAMPLES = 10;
const LOSSES = Number(process.env.SOAK_LOSSES ?? (FRAMES >= 20_000 ? 8 : 3));

it(`soak: ${FRAMES} frames with resize storm, extension and entity churn, ${LOSSES} destroyed devices`, { timeout: Math.max(120_000, FRAMES * 60) }, async () => {
    const result = await run_soak({ gpu: get_gpu(), frames: FRAMES, samples: SAMPLES, device_losses: LOSSES, seed: 1234, population: 24 });
    console.log(
        `soak: ${FRAMES} frames (${result.frames_rendered} rendered) in ${result.seconds.toFixed(1)} s, ${result.recoveries} recoveries, ` +
            `${result.device_loss_reports} device-loss reports; systems ${result.systems.join(", ")}`,
    );
    const update = slowdown(result.update_ms, WARMUP_SAMPLES / SAMPLES);
    const render = slowdown(result.render_ms, WARMUP_SAMPLES / SAMPLES);
    console.log(
        `soak: median ms per frame after warm-up / last tenth: update ${update.settled.toFixed(3)} / ${update.last.toFixed(3)}, ` +
            `render ${render.settled.toFixed(3)} / ${render.last.toFixed(3)}`,
    );
    expect(result.thrown).toBeNull();
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.samples.length).toBe(SAMPLES);
    expect(soak_problems(result, LOSSES)).toEqual([]);
});
