// The soak: frames of a scene with every registered system while the output size changes every few frames,
// extensions are added and removed every frame, entities are created and destroyed, and the device is destroyed
// several times (the engine recovers by itself). Samples JS heap (after gc), the transient pool and the GPU bytes
// the engine tracks at fixed points, each in the same settled state (32x32, no churn extension) so that samples
// compare. Dawn on whatever adapter the harness finds (SwiftShader here).
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { Transform } from "../../engine/components/Transform.js";
import { Engine } from "../../engine/Engine.js";
import { load_level } from "../../engine/level/load_level.js";
import type { System } from "../../engine/System.js";
import type { GPUMemory } from "../../shade/device/GPUMemoryTracker.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { INTERN_GRACE_COLLECTS, TextureResourceDescriptor } from "../../shade/device/graph/TextureResourceDescriptor.js";
import { TransientTexturePool } from "../../shade/device/graph/TransientTexturePool.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { DebugDrawSystem } from "../../systems/debug_draw/DebugDrawSystem.js";
import { DecalSystem } from "../../systems/decals/DecalSystem.js";
import { FogOfWarSystem } from "../../systems/fog_of_war/FogOfWarSystem.js";
import { HighlightSystem } from "../../systems/highlight/HighlightSystem.js";
import { GPUParticleEmitterSystem } from "../../systems/particles/GPUParticleEmitterSystem.js";
import { PathDisplaySystem } from "../../systems/path_display/PathDisplaySystem.js";
import { TerrainSystem } from "../../systems/terrain/TerrainSystem.js";
import { Trail3DSystem } from "../../systems/trails/Trail3DSystem.js";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export interface SoakOptions {
    /** Dawn's GPU (the harness's get_gpu() in tests; dawn.node loaded by path in the bundled run). */
    readonly gpu: GPU;
    readonly frames: number;
    /** Samples taken (one every frames / samples frames). */
    readonly samples: number;
    /** Devices destroyed over the run. */
    readonly device_losses: number;
    readonly seed: number;
    /** Entities alive at any time (created and destroyed every frame). */
    readonly population: number;
    readonly log?: (line: string) => void;
}

export interface SoakSample {
    readonly frame: number;
    /** Which renderer (device) the sample was taken on: GraphicsEngine.renderer_generation. */
    readonly generation: number;
    readonly heap: number;
    readonly pool_textures: number;
    /** Shapes the pool holds buckets for, and descriptors interned (the whole process's table). */
    readonly pool_shapes: number;
    readonly interned: number;
    readonly gpu: GPUMemory;
    readonly seconds: number;
}

export interface SoakResult {
    readonly samples: SoakSample[];
    /** Everything on_error reported that is not an expected device-loss report. */
    readonly errors: Error[];
    readonly device_loss_reports: number;
    readonly recoveries: number;
    /** Frames that threw, with the error (the run stops at the first). */
    readonly thrown: string | null;
    readonly frames_rendered: number;
    readonly seconds: number;
    readonly systems: string[];
    /** Per frame of the main loop (not the settling or recovery frames): ms of the systems' update and of the render. */
    readonly update_ms: Float64Array;
    readonly render_ms: Float64Array;
}

/** A band painted over the scene colour; cycled through as the extension added and removed every frame. */
class ChurnBand extends RenderExtension {
    phase = FramePhase.AfterTransparency;
    name: string;
    readonly #effect: FullscreenEffect;
    constructor(index: number) {
        super();
        this.name = `churn ${index}`;
        const x = index / 8;
        this.#effect = new FullscreenEffect({
            label: `churn ${index} band`,
            inputs: 0,
            format: "rgba16float",
            fragment: `fn effect(uv: vec2f) -> vec4f { if (uv.x < ${x.toFixed(3)} || uv.x >= ${(x + 0.1).toFixed(3)}) { discard; } return vec4f(0.5, 0.4, ${x.toFixed(3)}, 1.0); }`,
        });
    }
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
    }
}

function make_random(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Level entities the churn creates, one component kind each (with a Transform where the system reads one). */
function entity_template(kind: number, x: number, z: number): Record<string, unknown> {
    const position = [x, 0.2, z];
    switch (kind) {
        case 0:
            return { Transform: { position }, Trail3D: { width: 0.1, max_age: 0.5, color: [1, 0.5, 0.2, 1] } };
        case 1:
            return { Path: { waypoints: [[x, 0.05, z], [x + 1, 0.05, z + 0.5], [x + 2, 0.05, z - 0.5]], width: 0.08 } };
        case 2:
            return { Transform: { position }, ParticleEmitter: { rate: 40, lifetime_min: 0.2, lifetime_max: 0.6, size_start: 0.1, size_end: 0.02 } };
        case 3:
            return { Transform: { position }, DebugBounds: { half_extents: [0.3, 0.3, 0.3] } };
        case 4:
            return { Transform: { position: [x, 0, z] }, Decal: { size: [1, 1, 1] } };
        case 5:
            return { Transform: { position }, FogRevealer: { radius: 3, team: 0 } };
        default:
            return { Transform: { position }, Highlight: { color: [1, 1, 0, 1], width: 2 } };
    }
}
const KINDS = 7;
const SETTLE_FRAMES = TransientTexturePool.EVICT_AFTER_FRAMES + INTERN_GRACE_COLLECTS + 2;

export async function run_soak(options: SoakOptions): Promise<SoakResult> {
    const log = options.log ?? ((line: string) => console.log(line));
    const random = make_random(options.seed);
    const all_errors: Error[] = [];
    const target = new TextureRenderTarget(32, 32);
    const engine = new Engine({ graphics: { gpu: options.gpu, target, on_error: (e) => all_errors.push(e) } });
    const graphics = engine.graphics;
    const camera = graphics.view.camera;
    camera.position.set([0, 8, 10]);
    camera.target.set([0, 0, 0]);

    const debug = new DebugDrawSystem(graphics);
    const systems: System[] = [
        new TerrainSystem(graphics),
        new Trail3DSystem(graphics, { initial_capacity: 16 }),
        new PathDisplaySystem(graphics),
        debug,
        new GPUParticleEmitterSystem(graphics, { capacity: 2048 }),
        new DecalSystem(graphics),
        new FogOfWarSystem(graphics, { grid: [32, 32], bounds: [-16, -16, 16, 16] }),
        new HighlightSystem(graphics),
    ];
    await graphics.start();
    for (const system of systems) await engine.add_system(system);
    load_level(engine, { entities: [{ Transform: {}, Terrain: { size: 24, resolution: 17 } }] });

    const churn = Array.from({ length: 4 }, (_, i) => new ChurnBand(i));
    let churn_current: ChurnBand | null = null;
    const alive: number[] = [];
    const kinds: number[] = [];
    const create = (kind: number) => {
        const ids = load_level(engine, { entities: [entity_template(kind, random() * 10 - 5, random() * 10 - 5)] });
        alive.push(ids[0]);
        kinds.push(kind);
    };
    for (let i = 0; i < options.population; i++) create(i % KINDS);

    const frames = options.frames;
    const every = Math.max(1, Math.floor(frames / options.samples));
    // the losses come in the first 40% of the run, so that the last device lives through the last 6 samples
    // (a device's GPU figures start again from nothing: growth is only visible within one device's life)
    const losses = new Set<number>();
    for (let i = 0; i < options.device_losses; i++) losses.add(Math.floor(every / 2 + (i * 3.5 * every) / Math.max(1, options.device_losses)));
    const samples: SoakSample[] = [];
    const started = performance.now();
    let rendered = 0;
    let recoveries = 0;
    let thrown: string | null = null;
    const dt = 1 / 60;
    let tick_ms = 0;
    let level_ms = 0;
    let wait_ms = 0;
    const update_ms = new Float64Array(frames);
    const render_ms = new Float64Array(frames);
    const tick = (frame: number, timed = false): boolean => {
        // trails follow their entity: move every Transform a little
        for (let k = 0; k < alive.length; k++) {
            const eid = alive[k];
            Transform.position[eid * 3] += Math.sin(frame * 0.05 + k) * 0.02;
            Transform.position[eid * 3 + 2] += Math.cos(frame * 0.05 + k) * 0.02;
            if (engine.entityManager.has_component(eid, Transform)) engine.entityManager.mark_transform_changed(eid);
        }
        debug.line([-1, 0.5, 0], [1, 0.5, 0], [0, 1, 0, 1]);
        debug.box([0, 0.5, 0], [0.2, 0.2, 0.2], [1, 0, 1, 1]);
        const t0 = performance.now();
        engine.update(dt);
        const t1 = performance.now();
        graphics.render();
        const t2 = performance.now();
        tick_ms += t2 - t0;
        if (timed) {
            update_ms[frame] = t1 - t0;
            render_ms[frame] = t2 - t1;
        }
        return graphics.state === "running";
    };

    try {
        for (let frame = 0; frame < frames; frame++) {
            // extension churn: the previous one out, another one in, every frame
            if (churn_current !== null) graphics.remove_extension(churn_current);
            churn_current = graphics.add_extension(churn[frame % churn.length]);
            // entity churn: one or two destroyed, each replaced by a new one of the same kind (a constant mix, so
            // that samples compare), through the level loader
            const n = 1 + Math.floor(random() * 2);
            for (let i = 0; i < n; i++) {
                const k = Math.floor(random() * alive.length);
                const kind = kinds[k];
                engine.entityManager.remove_entity(alive[k]);
                alive[k] = alive[alive.length - 1];
                kinds[k] = kinds[kinds.length - 1];
                alive.pop();
                kinds.pop();
                const l0 = performance.now();
                create(kind);
                level_ms += performance.now() - l0;
            }
            // resize storm: a new output size every 2 to 5 frames
            if (frame % (2 + (frame % 4)) === 0) target.resize(8 + Math.floor(random() * 48), 8 + Math.floor(random() * 48));

            if (tick(frame, true)) rendered++;
            if (losses.has(frame) && graphics.device !== null) {
                graphics.device.destroy();
                // the engine notices and rebuilds; frames go on meanwhile (systems update, nothing is drawn)
                for (let wait = 0; graphics.state !== "running"; wait++) {
                    if (wait > 2000) throw new Error(`frame ${frame}: the engine did not recover from a destroyed device (state ${graphics.state})`);
                    tick(frame);
                    await sleep(2);
                }
                recoveries++;
            }
            const w0 = performance.now();
            if (frame % 8 === 7 && graphics.device !== null) await graphics.device.queue.onSubmittedWorkDone();
            wait_ms += performance.now() - w0;
            if ((frame + 1) % every === 0) {
                // the settled state every sample is taken in: 32x32, no churn extension, frames enough for the pool
                // to evict the storm's textures and the intern table to forget their shapes
                if (churn_current !== null) graphics.remove_extension(churn_current);
                churn_current = null;
                target.resize(32, 32);
                for (let i = 0; i < SETTLE_FRAMES; i++) tick(frame);
                await graphics.device?.queue.onSubmittedWorkDone();
                gc();
                gc();
                const heap = process.memoryUsage().heapUsed;
                const pool = graphics.renderer?.graph.pool;
                const sample: SoakSample = {
                    frame: frame + 1,
                    generation: graphics.renderer_generation,
                    heap,
                    pool_textures: pool?.live_count ?? 0,
                    pool_shapes: pool?.shape_count ?? 0,
                    interned: TextureResourceDescriptor.interned_count,
                    gpu: graphics.gpu_memory(),
                    seconds: (performance.now() - started) / 1000,
                };
                samples.push(sample);
                const g = sample.gpu;
                log(
                    `soak frame ${sample.frame}: heap ${(heap / 1048576).toFixed(2)} MiB, pool ${sample.pool_textures} textures of ${sample.pool_shapes} shapes, ${sample.interned} interned ` +
                        `(${(g.transients / 1024).toFixed(1)} KiB), GPU buffers ${(g.buffers / 1024).toFixed(1)} KiB, textures ${(g.textures / 1024).toFixed(1)} KiB, ` +
                        `total ${(g.total / 1024).toFixed(1)} KiB; ${alive.length} entities, ${recoveries} recoveries, ${sample.seconds.toFixed(1)} s (tick ${tick_ms.toFixed(0)} ms, level ${level_ms.toFixed(0)} ms, GPU wait ${wait_ms.toFixed(0)} ms)`,
                );
            }
        }
    } catch (error) {
        thrown = error instanceof Error ? `${error.message}\n${error.stack}` : String(error);
    }
    const seconds = (performance.now() - started) / 1000;
    await engine.shutdown();
    const device_loss = (e: Error) => /^GPU device lost \(destroyed\)/.test(e.message);
    return {
        samples,
        errors: all_errors.filter((e) => !device_loss(e)),
        device_loss_reports: all_errors.filter(device_loss).length,
        recoveries,
        thrown,
        frames_rendered: rendered,
        seconds,
        systems: systems.map((s) => s.name),
        update_ms,
        render_ms,
    };
}

/**
 * Whether a figure keeps growing, by either of two rules: even the smallest sample of the last half is above the
 * largest of the first half by more than `tolerance` (a leak, however small per frame, rises above any noise), or
 * the last sample is above the first by more than `tolerance` (a leak whose figure saws up and down on the way, as
 * a table that starts over now and then). A figure that moves up and down or settles at a plateau passes.
 * Returns the excess, or 0.
 */
export function growth(values: readonly number[], tolerance: number): number {
    const half = Math.floor(values.length / 2);
    const first = Math.max(...values.slice(0, half));
    const last = Math.min(...values.slice(half));
    if (last - first > tolerance) return last - first;
    const end_to_end = values[values.length - 1] - values[0];
    return end_to_end > tolerance ? end_to_end : 0;
}

/** Samples left out as warm-up (pools growing to the scene's needs, the JIT settling). */
export const WARMUP_SAMPLES = 3;
/**
 * Slack for GPU buffers within one device's life: some pools grow by small steps during a device's first few
 * hundred frames of this churn and then stay (in 100,000 frames on the H200 every sample was the same byte count).
 */
export const BUFFER_TOLERANCE = 32 * 1024;
/** The last tenth's median frame time may be this much over the median after warm-up. */
export const SLOWDOWN_LIMIT = 1.2;

function median(values: Float64Array): number {
    const sorted = Float64Array.from(values).sort();
    return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
}

function lower_quartile(values: Float64Array): number {
    const sorted = Float64Array.from(values).sort();
    return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 4)];
}

/**
 * The last tenth's median over the median from warm-up to the last tenth, of `values` (one per frame), and the
 * same of their lower quartiles. `ratio` is the smaller: a leak slows every frame, so both grow; other work on a
 * shared machine slows some frames, which moves the median more than the lower quartile.
 */
export function slowdown(values: Float64Array, warmup_fraction: number): { ratio: number; settled: number; last: number } {
    const n = values.length;
    const before = values.subarray(Math.floor(n * warmup_fraction), Math.floor(n * 0.9));
    const after = values.subarray(Math.floor(n * 0.9));
    const settled = median(before);
    const last = median(after);
    const by_median = settled > 0 ? last / settled : 1;
    const quartile = lower_quartile(before);
    const by_quartile = quartile > 0 ? lower_quartile(after) / quartile : 1;
    return { ratio: Math.min(by_median, by_quartile), settled, last };
}

/** What is wrong with a soak's result, in words (empty when it passed). */
export function soak_problems(result: SoakResult, device_losses: number): string[] {
    const problems: string[] = [];
    if (result.thrown !== null) problems.push(`a frame threw: ${result.thrown}`);
    for (const e of result.errors) problems.push(`on_error: ${e.message}`);
    if (result.recoveries !== device_losses) problems.push(`${result.recoveries} recoveries of ${device_losses} destroyed devices`);
    if (result.device_loss_reports !== device_losses) problems.push(`${result.device_loss_reports} device-loss reports for ${device_losses} destroyed devices`);
    const settled = result.samples.slice(WARMUP_SAMPLES);
    if (settled.length < 4) return [...problems, `only ${result.samples.length} samples`];
    const heap_tolerance = (values: number[]) => Math.max(2 * 1048576, 0.05 * Math.min(...values));
    const heap = settled.map((s) => s.heap);
    if (growth(heap, heap_tolerance(heap)) > 0) problems.push(`JS heap keeps growing: ${heap.join(", ")}`);
    // and within each device's life: a device's own state (pipelines, bind groups, per-device caches) leaking
    // would saw up and down across losses and pass the whole-run rule
    const generations = new Set(result.samples.map((s) => s.generation));
    for (const generation of generations) {
        const life = result.samples.filter((s) => s.generation === generation).slice(1).map((s) => s.heap);
        if (life.length >= 4 && growth(life, heap_tolerance(life)) > 0) {
            problems.push(`JS heap keeps growing within device ${generation}'s life: ${life.join(", ")}`);
        }
    }
    // taken in the same settled state: the pool, its shapes, the interned descriptors and the non-buffer
    // textures are exactly the same every time (a shape remembered past its use shows here first)
    for (const [what, values] of [
        ["pool textures", settled.map((s) => s.pool_textures)],
        ["pool shapes", settled.map((s) => s.pool_shapes)],
        ["interned descriptors", settled.map((s) => s.interned)],
        ["GPU transients", settled.map((s) => s.gpu.transients)],
        ["GPU textures", settled.map((s) => s.gpu.textures)],
    ] as const) {
        if (values.some((v) => v !== values[0])) problems.push(`${what} change between settled samples: ${values.join(", ")}`);
    }
    // buffers: within the last device's life, which holds the last samples
    const last = result.samples.filter((s) => s.generation === result.samples[result.samples.length - 1].generation).slice(1);
    if (last.length < 4) problems.push(`only ${last.length} samples on the last device`);
    const buffers = last.map((s) => s.gpu.buffers);
    if (growth(buffers, BUFFER_TOLERANCE) > 0) problems.push(`GPU buffers keep growing on the last device: ${buffers.join(", ")}`);
    // frame time: the last tenth against the frames after warm-up
    const warmup = WARMUP_SAMPLES / result.samples.length;
    for (const [what, values] of [
        ["update", result.update_ms],
        ["render", result.render_ms],
    ] as const) {
        const s = slowdown(values, warmup);
        if (s.ratio > SLOWDOWN_LIMIT) {
            problems.push(
                `${what} time per frame grows: median ${s.last.toFixed(3)} ms over the last tenth, ${s.settled.toFixed(3)} ms after warm-up (${s.ratio.toFixed(2)}x, limit ${SLOWDOWN_LIMIT}x)`,
            );
        }
    }
    return problems;
}
