// GPU cost of the ambient occlusion (GTAOExtension: "gtao / horizons" + "gtao / denoise") at 1920x1080, half and
// full resolution, raster against compute, from the renderer's pass timestamps (Dawn's quantization off); and the
// lighting pass with and without the occlusion binding. A town of boxes on a floor seen from above at an angle, so
// that most pixels run the full horizon search. Every configuration gets a renderer of its own and they render in
// turn, one frame each per round, so a drifting load falls on all alike. Goal on the H200: AO <= 0.5 ms.
//
//   npx esbuild bench/ambient_occlusion.bench.ts --bundle --platform=node --format=esm --external:webgpu \
//       --define:__SHADE_DEBUG__=false --outfile=bench/output/ambient_occlusion.mjs
//   node bench/output/ambient_occlusion.mjs     knobs: BENCH_SIZE=1920x1080 BENCH_FRAMES=120 BENCH_SLICES=2 BENCH_STEPS=4
//   (or `npm run bench -- ambient_occlusion`; on SwiftShader use a small size: BENCH_SIZE=320x180 BENCH_FRAMES=5)
import * as dawn from "webgpu";
import { GTAOExtension } from "../shade/renderer/ao/GTAOExtension.js";
import type { FullscreenPath } from "../shade/renderer/fullscreen/FullscreenPath.js";
import { make_box_geometry } from "../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Renderer } from "../shade/renderer/Renderer.js";
import { Mesh } from "../shade/renderer/scene/Mesh.js";
import { Scene } from "../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../shade/renderer/target/TextureRenderTarget.js";

Object.assign(globalThis, dawn.globals);

const [width, height] = (process.env.BENCH_SIZE ?? "1920x1080").split("x").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 120);
const SLICES = Number(process.env.BENCH_SLICES ?? 2);
const STEPS = Number(process.env.BENCH_STEPS ?? 4);
const WARMUP = 10;

// kept referenced: a collected instance crashes onSubmittedWorkDone
const instance = dawn.create(["disable-dawn-features=timestamp_quantization"]);

function town(): Scene {
    const scene = new Scene();
    scene.ambient.set([0.4, 0.4, 0.45]);
    const ground = new StandardMaterial({ base_color: [0.6, 0.6, 0.55, 1], roughness: 0.9 });
    scene.add(new Mesh(make_plane_geometry(200, 200), ground));
    const box = make_box_geometry();
    const materials = Array.from({ length: 4 }, (_, i) => new StandardMaterial({ base_color: [0.4 + i * 0.1, 0.5, 0.7 - i * 0.1, 1] }));
    for (let i = 0; i < 400; i++) {
        const mesh = scene.add(new Mesh(box, materials[i % 4]));
        const h = 0.5 + ((i * 37) % 7) * 0.4;
        mesh.scale.set([1.2, h, 1.2]);
        mesh.position.set([((i % 20) - 10) * 2.5, h / 2, -Math.floor(i / 20) * 2.5 + 10]);
    }
    return scene;
}

interface Configuration {
    readonly name: string;
    readonly gtao: { path: FullscreenPath; half_resolution: boolean } | null;
}

const CONFIGURATIONS: Configuration[] = [
    { name: "no AO", gtao: null },
    { name: "half res, raster", gtao: { path: "raster", half_resolution: true } },
    { name: "half res, compute", gtao: { path: "compute", half_resolution: true } },
    { name: "full res, raster", gtao: { path: "raster", half_resolution: false } },
    { name: "full res, compute", gtao: { path: "compute", half_resolution: false } },
];

const median = (v: number[]) => (v.length === 0 ? NaN : [...v].sort((a, b) => a - b)[v.length >> 1]);

const adapter = await instance.requestAdapter();
if (adapter === null) throw new Error("no WebGPU adapter");
if (!adapter.features.has("timestamp-query")) throw new Error("the adapter has no timestamp-query: no GPU times to report");
const device = await adapter.requestDevice({ requiredFeatures: ["timestamp-query"] });
const info = adapter.info;
console.log(`adapter: ${info.vendor} ${info.architecture} ${info.device} ${info.description}; ${width}x${height}; ${SLICES} slices x ${STEPS} steps; ${FRAMES} frames after ${WARMUP}; timestamps not quantized`);

const runs = CONFIGURATIONS.map((configuration) => {
    const renderer = new Renderer({ device, target: new TextureRenderTarget(width, height), scene: town(), feature_taa_enabled: false });
    const camera = renderer.view.camera;
    camera.position.set([0, 14, 18]);
    camera.target.set([0, 0, -12]);
    camera.far = 300;
    if (configuration.gtao !== null) renderer.add_extension(new GTAOExtension({ radius: 1, slices: SLICES, steps: STEPS, ...configuration.gtao }));
    const ms = new Map<string, number[]>();
    let recording = false;
    renderer.timer!.on_frame = (t) => {
        if (!recording) return;
        for (let k = 0; k < t.timing_count; k++) {
            const timing = t.timings[k];
            let list = ms.get(timing.name);
            if (list === undefined) ms.set(timing.name, (list = []));
            list.push(timing.ms);
        }
    };
    return { configuration, renderer, ms, start: () => (recording = true) };
});

for (let round = 0; round < WARMUP + FRAMES; round++) {
    for (const run of runs) {
        if (round === WARMUP) run.start();
        run.renderer.render_frame();
        await device.queue.onSubmittedWorkDone();
    }
}
// the last batch of timestamps lands a few frames late
for (let i = 0; i < 16; i++) {
    for (const run of runs) {
        run.renderer.render_frame();
        await device.queue.onSubmittedWorkDone();
    }
}

console.log("configuration      | AO GPU ms (horizons + denoise) | horizons | denoise | lighting GPU ms");
const rows = runs.map(({ configuration, renderer, ms }) => {
    const horizons = median(ms.get("gtao / horizons") ?? []);
    const denoise = median(ms.get("gtao / denoise") ?? []);
    const lighting = median(ms.get("lighting") ?? []);
    const ao = configuration.gtao === null ? 0 : horizons + denoise;
    console.log(
        `${configuration.name.padEnd(18)} | ${ao.toFixed(3).padStart(30)} | ${(configuration.gtao === null ? "-" : horizons.toFixed(3)).padStart(8)} | ` +
            `${(configuration.gtao === null ? "-" : denoise.toFixed(3)).padStart(7)} | ${lighting.toFixed(3).padStart(8)}`,
    );
    renderer.destroy();
    return { name: configuration.name, ao_ms: ao, horizons_ms: horizons, denoise_ms: denoise, lighting_ms: lighting, samples: ms.get("lighting")?.length ?? 0 };
});
console.log(
    JSON.stringify({
        bench: "ambient_occlusion",
        adapter: `${info.vendor} ${info.architecture} ${info.device}`.trim(),
        size: `${width}x${height}`,
        slices: SLICES,
        steps: STEPS,
        rows,
    }),
);
device.destroy();
process.exit(0);
