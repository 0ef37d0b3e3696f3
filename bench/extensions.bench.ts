// Per-frame CPU cost of render extensions: registry + frame records + frame graph, with 0, 10 and 100 no-op
// extensions spread evenly over the six phases, on a FAKE texture allocator and a FAKE encoder (no GPU).
//
// One frame mirrors the CPU side of Renderer.render_frame: FrameContext.begin; at each phase frame.enter,
// the built-in step's passes and records (GBufferTextures + ViewTextures at AfterGBuffer from the G-buffer
// pass, SceneColor at AfterLighting, republished by a transparency stand-in at AfterTransparency and by the
// upscale at BeforePresent, the imported present target written by tonemap and published as PresentTarget
// at Overlay), then registry.record_phase; then frame.close, graph.compile, graph.execute on the fake
// encoder (passes resolve their views and attachments as the real steps do), graph.reset. Camera upload,
// command encoders and submission are GPU-side and left out.
//
// A no-op extension records no pass: half do nothing, half read a record carried at their phase. Their
// cost is what the registry adds per extension (a graph scope, the record call, the guards around it).
//
// Timing: configurations are interleaved round by round, one performance.now() pair per batch of frames
// (in Node 20 each call returns a fresh heap number, so never per frame); the figure is the median over
// rounds of the batch mean. Allocation: after a full GC, young-generation (minor) GCs are counted with a
// PerformanceObserver over 200k steady frames at N = 100, and the young-generation bytes a frame allocates
// are read from v8.getHeapSpaceStatistics() (new space) over GC-free windows - precise to a few bytes.
// Diagnostic windows with parts of the frame left out say which part allocates when one does.
import { PerformanceObserver, constants, performance } from "node:perf_hooks";
import { cpus } from "node:os";
import v8 from "node:v8";
import vm from "node:vm";
import { FrameGraph } from "../shade/device/graph/FrameGraph.js";
import type { FrameExecution } from "../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../shade/device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../shade/device/graph/TextureResourceDescriptor.js";
import { FrameContext } from "../shade/renderer/extension/FrameContext.js";
import { FRAME_PHASES, FramePhase } from "../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../shade/renderer/extension/GBufferTextures.js";
import { PresentTarget } from "../shade/renderer/extension/PresentTarget.js";
import { RenderExtension } from "../shade/renderer/extension/RenderExtension.js";
import { RenderExtensionRegistry } from "../shade/renderer/extension/RenderExtensionRegistry.js";
import { RenderView } from "../shade/renderer/extension/RenderView.js";
import { SceneColor } from "../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../shade/renderer/extension/ViewTextures.js";
import { FakeAllocator, FakeEncoder, type FakeTexture } from "./fake_gpu.js";

const OUTPUT_W = 1920;
const OUTPUT_H = 1080;
const SCALE = 0.75;
const INTERNAL_W = Math.round(OUTPUT_W * SCALE);
const INTERNAL_H = Math.round(OUTPUT_H * SCALE);

const WARMUP_FRAMES = 20_000;
const ROUNDS = 150;
const BATCH = 200;
const GC_FRAMES = 200_000;
const PART_FRAMES = 30_000;

const USAGE_COPY_SRC = 0x01;
const USAGE_TEXTURE_BINDING = 0x04;
const USAGE_RENDER_ATTACHMENT = 0x10;
const TARGET_USAGE = USAGE_RENDER_ATTACHMENT | USAGE_TEXTURE_BINDING | USAGE_COPY_SRC;


/** What `FrameGraph.execute` takes: the device and the frame's encoder. */
type ExecutionTarget = Parameters<FrameGraph<FakeTexture, string>["execute"]>[0];

// ---- no-op extensions ----

/** Records nothing. */
class NoOpExtension extends RenderExtension {
    constructor(
        public name: string,
        public phase: FramePhase,
    ) {
        super();
    }
    record(_frame: FrameContext): void {}
}

/** Records nothing; reads one record its phase carries (what a conditional extension does before bailing). */
class ReaderExtension extends RenderExtension {
    sink = 0;
    constructor(
        public name: string,
        public phase: FramePhase,
    ) {
        super();
    }
    record(frame: FrameContext): void {
        this.sink = read_one(frame);
    }
}

function read_one(frame: FrameContext): number {
    switch (frame.phase) {
        case FramePhase.FrameStart:
            return frame.resolution[0];
        case FramePhase.AfterGBuffer:
            return frame.get(ViewTextures).depth;
        case FramePhase.Overlay:
            return frame.get(PresentTarget).target;
        default:
            return frame.get(SceneColor).color;
    }
}

/** `count` classes, each its own subclass of ReaderExtension: what a record call site sees in a real app. */
function distinct_classes(count: number): (new (name: string, phase: FramePhase) => RenderExtension)[] {
    const classes: (new (name: string, phase: FramePhase) => RenderExtension)[] = [];
    for (let i = 0; i < count; i++) classes.push(class extends ReaderExtension {});
    return classes;
}

/** Extension i goes to phase i mod 6; alternate rounds of six are no-ops and readers. */
function make_extensions(count: number, distinct: boolean): RenderExtension[] {
    const classes = distinct ? distinct_classes(count) : null;
    const list: RenderExtension[] = [];
    for (let i = 0; i < count; i++) {
        const phase = FRAME_PHASES[i % FRAME_PHASES.length];
        const name = `ext ${String(i).padStart(4, "0")}`;
        if (classes !== null) list.push(new classes[i](name, phase));
        else list.push(Math.floor(i / FRAME_PHASES.length) % 2 === 0 ? new NoOpExtension(name, phase) : new ReaderExtension(name, phase));
    }
    return list;
}

// ---- the frame ----

/** What the built-in passes carry to their execute (reused frame to frame, like the real steps' fields). */
interface StepData {
    a: FrameGraphHandle;
    b: FrameGraphHandle;
    c: FrameGraphHandle;
    d: FrameGraphHandle;
    e: FrameGraphHandle;
    /** What execute resolved, kept so that the work cannot be optimised away. */
    view: unknown;
    attachment: unknown;
}

const step_data = (): StepData => ({ a: -1, b: -1, c: -1, d: -1, e: -1, view: null, attachment: null });
const sky: GPUColorDict = { r: 0.05, g: 0.07, b: 0.1, a: 0 };

function execute_gbuffer(d: StepData, resources: FrameGraphResources, _execution: FrameExecution): void {
    d.attachment = resources.color_attachment(d.a, sky);
    d.attachment = resources.color_attachment(d.b);
    d.attachment = resources.color_attachment(d.c);
    d.attachment = resources.color_attachment(d.d);
    d.attachment = resources.depth_attachment(d.e, 1);
}

/** A fullscreen pass: input `a` (optional), output `b`. */
function execute_fullscreen(d: StepData, resources: FrameGraphResources, _execution: FrameExecution): void {
    if (d.a !== -1) d.view = resources.view(d.a);
    d.attachment = resources.color_attachment(d.b);
}

/**
 * Which pieces of the frame run, for the allocation diagnostics: "record" records the built-in passes and
 * resets (no compile, no execute, no records, no registry); "compile" and "execute" add those graph stages;
 * "records" adds the FrameContext and its records; "full" adds the registry (the frame that is timed).
 */
type Part = "record" | "compile" | "execute" | "records" | "full";

/** One renderer's CPU side: its graph, frame context and registry, and the built-in steps' pass data. */
class FrameLoop {
    readonly label: string;
    readonly extensions: number;
    readonly allocator = new FakeAllocator();
    readonly graph = new FrameGraph<FakeTexture, string>(this.allocator);
    readonly frame: FrameContext;
    readonly registry = new RenderExtensionRegistry();
    readonly encoder = new FakeEncoder();
    readonly execution: ExecutionTarget;
    readonly present: FakeTexture;

    readonly #gbuffer = step_data();
    readonly #lighting = step_data();
    readonly #transparency = step_data();
    readonly #upscale = step_data();
    readonly #tonemap = step_data();

    constructor(label: string, extensions: readonly RenderExtension[]) {
        this.label = label;
        this.extensions = extensions.length;
        // the context is typed for GPU textures; it only forwards handles to the graph
        this.frame = new FrameContext(this.graph as unknown as FrameGraph, new RenderView());
        for (const e of extensions) this.registry.add(e);
        this.execution = { graphics: null as unknown as GPUDevice, encoder: this.encoder as unknown as GPUCommandEncoder };
        this.present = this.allocator.create(TextureResourceDescriptor.of(OUTPUT_W, OUTPUT_H, "rgba8unorm", TARGET_USAGE), "present target");
    }

    /** One frame; `part` leaves pieces out (see Part). Returns the number of passes executed. */
    run(part: Part): number {
        const frame = this.frame;
        const graph = this.graph;
        const registry = this.registry;
        const records = part === "records" || part === "full";
        const extensions = part === "full";
        const compile = part !== "record";
        const execute = compile && part !== "compile";
        frame.begin(INTERNAL_W, INTERNAL_H, OUTPUT_W, OUTPUT_H);
        if (extensions) registry.record_phase(FramePhase.FrameStart, frame);

        // G-buffer step
        frame.enter(FramePhase.AfterGBuffer);
        const w = frame.resolution[0];
        const h = frame.resolution[1];
        const g = this.#gbuffer;
        const pass = graph.add("gbuffer", g, execute_gbuffer);
        g.a = pass.write(pass.create("gbuffer albedo", TextureResourceDescriptor.of(w, h, "rgba8unorm", TARGET_USAGE)));
        g.b = pass.write(pass.create("gbuffer normal", TextureResourceDescriptor.of(w, h, "rgba16float", TARGET_USAGE)));
        g.c = pass.write(pass.create("gbuffer material", TextureResourceDescriptor.of(w, h, "rgba8uint", TARGET_USAGE)));
        g.d = pass.write(pass.create("gbuffer object id", TextureResourceDescriptor.of(w, h, "r32uint", TARGET_USAGE)));
        g.e = pass.write(pass.create("depth", TextureResourceDescriptor.of(w, h, "depth32float", TARGET_USAGE)));
        if (records) {
            const gbuffer = frame.create(GBufferTextures);
            gbuffer.albedo = g.a;
            gbuffer.normal = g.b;
            gbuffer.material = g.c;
            gbuffer.object_id = g.d;
            frame.create(ViewTextures).depth = g.e;
        }
        if (extensions) registry.record_phase(FramePhase.AfterGBuffer, frame);

        // lighting step
        frame.enter(FramePhase.AfterLighting);
        const l = this.#lighting;
        l.a = records ? frame.get(GBufferTextures).albedo : g.a;
        const scene_target = graph.create("scene colour", TextureResourceDescriptor.of(frame.resolution[0], frame.resolution[1], "rgba16float", TARGET_USAGE));
        const lit = graph.add("lighting", l, execute_fullscreen);
        lit.read(l.a);
        l.b = lit.write(scene_target);
        if (records) frame.create(SceneColor).color = l.b;
        if (extensions) registry.record_phase(FramePhase.AfterLighting, frame);

        // transparency stand-in (loads the scene colour, republishes it)
        frame.enter(FramePhase.AfterTransparency);
        const t = this.#transparency;
        t.a = -1;
        const transparent = graph.add("transparency", t, execute_fullscreen);
        t.b = transparent.write(records ? frame.get(SceneColor).color : l.b, "load");
        if (records) frame.get(SceneColor).color = t.b;
        if (extensions) registry.record_phase(FramePhase.AfterTransparency, frame);

        // upscale step
        frame.enter(FramePhase.BeforePresent);
        const u = this.#upscale;
        u.a = records ? frame.get(SceneColor).color : t.b;
        const upscaled = graph.create(
            "upscaled scene colour",
            TextureResourceDescriptor.of(frame.output_resolution[0], frame.output_resolution[1], "rgba16float", TARGET_USAGE),
        );
        const up = graph.add("upscale", u, execute_fullscreen);
        up.read(u.a);
        u.b = up.write(upscaled);
        if (records) frame.get(SceneColor).color = u.b;
        if (extensions) registry.record_phase(FramePhase.BeforePresent, frame);

        // tonemap + present
        const canvas = graph.import_texture("present target", this.present);
        const tm = this.#tonemap;
        tm.a = records ? frame.get(SceneColor).color : u.b;
        const tone = graph.add("tonemap", tm, execute_fullscreen);
        tone.read(tm.a);
        tm.b = tone.write(canvas);

        frame.enter(FramePhase.Overlay);
        if (records) frame.create(PresentTarget).target = tm.b;
        if (extensions) registry.record_phase(FramePhase.Overlay, frame);
        frame.close();

        if (compile) graph.compile();
        const executed = execute ? graph.execute(this.execution) : 0;
        graph.reset();
        return executed;
    }

    /** Throws unless the frame does what the renderer's would (all built-in passes run, nothing leaks). */
    check(): void {
        const created = this.allocator.created;
        const executed = this.run("full");
        if (executed !== 5) throw new Error(`${this.label}: expected the 5 built-in passes to run, ran ${executed}`);
        if (this.allocator.created !== created) throw new Error(`${this.label}: the pool created textures in steady state`);
        if (this.encoder.depth !== 0) throw new Error(`${this.label}: debug groups are unbalanced`);
    }
}

// ---- measurement helpers ----

function median(values: ArrayLike<number>): number {
    const sorted = Float64Array.from(values).sort();
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function quantile(values: ArrayLike<number>, q: number): number {
    const sorted = Float64Array.from(values).sort();
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
    const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
    const line = (cells: readonly string[]) => cells.map((s, c) => (c === 0 ? s.padEnd(widths[c]) : s.padStart(widths[c]))).join("  ");
    return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** A full GC: `gc` when node runs with --expose-gc (npm run bench), otherwise exposed at run time. */
function full_gc(): void {
    let gc = (globalThis as { gc?: () => void }).gc;
    if (gc === undefined) {
        v8.setFlagsFromString("--expose-gc");
        gc = vm.runInNewContext("gc") as () => void;
        (globalThis as { gc?: () => void }).gc = gc;
    }
    gc();
}

/** Bytes in the young generation now (new space + new large objects). */
function young_bytes(): number {
    const spaces = v8.getHeapSpaceStatistics();
    let bytes = 0;
    for (const s of spaces) if (s.space_name === "new_space" || s.space_name === "new_large_object_space") bytes += s.space_used_size;
    return bytes;
}

let minor_gcs = 0;
let major_gcs = 0;
const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
        const kind = (entry as { readonly detail?: { readonly kind?: number } | null }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor_gcs++;
        else major_gcs++;
    }
});
observer.observe({ entryTypes: ["gc"] });

/** Lets queued GC entries reach the observer. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

interface AllocWindow {
    readonly frames: number;
    readonly minor: number;
    readonly major: number;
    readonly seconds: number;
}

/** Runs `frames` frames after a full GC and counts the GCs that happen meanwhile. */
async function counted(loop: FrameLoop, part: Part, frames: number): Promise<AllocWindow> {
    full_gc();
    await settle();
    const minor0 = minor_gcs;
    const major0 = major_gcs;
    const t0 = performance.now();
    for (let f = 0; f < frames; f++) loop.run(part);
    const seconds = (performance.now() - t0) / 1000;
    await settle();
    return { frames, minor: minor_gcs - minor0, major: major_gcs - major0, seconds };
}

/**
 * Young-generation bytes that `cycle` allocates per call: the new space's growth over a window short enough
 * that no GC empties it (after a full GC; the window halves until no GC lands in it). NaN if none fits.
 */
async function young_bytes_per(cycle: () => void, start = 2048): Promise<number> {
    for (let n = start; n >= 8; n >>= 1) {
        full_gc();
        await settle();
        const gcs = minor_gcs + major_gcs;
        // the reading itself allocates (an array of space statistics): calibrate it with an empty window
        const c0 = young_bytes();
        const c1 = young_bytes();
        const b0 = young_bytes();
        for (let i = 0; i < n; i++) cycle();
        const b1 = young_bytes();
        await settle();
        if (minor_gcs + major_gcs === gcs) return Math.max(0, b1 - b0 - (c1 - c0)) / n;
    }
    return Number.NaN;
}

// The V8 mechanism behind one allocation site: shrinking an array with `length = 0` makes V8 trim its backing
// store once the capacity reaches 16, so the next push allocates a new one - every frame.
const trimmed: number[] = [];
function length_zero_then_push(): void {
    trimmed.length = 0;
    for (let i = 0; i < 5; i++) trimmed.push(i);
}
const counted_list: number[] = [];
let counted_length = 0;
function count_zero_then_store(): void {
    counted_length = 0;
    for (let i = 0; i < 5; i++) counted_list[counted_length++] = i;
}

// ---- main ----

async function main(): Promise<void> {
    const started = performance.now();
    const configs = [
        new FrameLoop("0", make_extensions(0, false)),
        new FrameLoop("10", make_extensions(10, false)),
        new FrameLoop("100", make_extensions(100, false)),
        new FrameLoop("100, 100 classes", make_extensions(100, true)),
    ];
    const [n0, n10, n100] = configs;

    // warm-up: every path (all parts) of every configuration, so no JIT tier change lands in a timed batch
    for (let f = 0; f < WARMUP_FRAMES; f++) {
        for (const c of configs) c.run("full");
        if (f % 4 === 0) {
            n100.run("record");
            n100.run("compile");
            n100.run("execute");
            n100.run("records");
        }
    }
    for (const c of configs) c.check();

    // timing, interleaved: each round runs one batch of every configuration, starting at a rotating one
    const per_frame_us = configs.map(() => new Float64Array(ROUNDS));
    for (let r = 0; r < ROUNDS; r++) {
        for (let k = 0; k < configs.length; k++) {
            const i = (r + k) % configs.length;
            const c = configs[i];
            const t0 = performance.now();
            for (let f = 0; f < BATCH; f++) c.run("full");
            per_frame_us[i][r] = ((performance.now() - t0) * 1000) / BATCH;
        }
    }
    const med = per_frame_us.map((v) => median(v));
    const p10 = per_frame_us.map((v) => quantile(v, 0.1));
    const p90 = per_frame_us.map((v) => quantile(v, 0.9));
    const t0 = med[0];
    const per_ext_10 = ((med[1] - t0) * 1000) / 10;
    const per_ext_100 = ((med[2] - t0) * 1000) / 100;
    const per_ext_100_classes = ((med[3] - t0) * 1000) / 100;

    // allocation: the long counted run at N = 100, then bytes per frame of each configuration and part
    const steady = await counted(n100, "full", GC_FRAMES);
    n100.check();
    const steady_bytes = await young_bytes_per(() => n100.run("full"));
    const rows: { label: string; w: AllocWindow; bytes: number }[] = [];
    for (const c of configs) {
        rows.push({ label: `${c.label} extensions: full frame`, w: await counted(c, "full", PART_FRAMES), bytes: await young_bytes_per(() => c.run("full")) });
    }
    const parts: { part: Part; label: string }[] = [
        { part: "record", label: "diagnostic: built-in passes recorded, reset" },
        { part: "compile", label: "diagnostic: + compile" },
        { part: "execute", label: "diagnostic: + execute (fake encoder)" },
        { part: "records", label: "diagnostic: + FrameContext records" },
        { part: "full", label: "diagnostic: + registry, 100 extensions" },
    ];
    for (const p of parts) {
        rows.push({ label: p.label, w: await counted(n100, p.part, PART_FRAMES), bytes: await young_bytes_per(() => n100.run(p.part)) });
    }
    for (let i = 0; i < 1000; i++) {
        length_zero_then_push();
        count_zero_then_store();
    }
    const trim_bytes = await young_bytes_per(length_zero_then_push);
    const count_bytes = await young_bytes_per(count_zero_then_store);
    observer.disconnect();
    const seconds = (performance.now() - started) / 1000;

    const fmt = (x: number, d = 2) => (Number.isNaN(x) ? "n/a (GC)" : x.toFixed(d));
    const cpu = cpus()[0]?.model ?? "unknown CPU";
    console.log(`render extensions: registry + records + frame graph, FAKE allocator and encoder (no GPU)`);
    console.log(`node ${process.version}, ${cpu} (${cpus().length} cores), __SHADE_DEBUG__ ${String(__SHADE_DEBUG__)}`);
    console.log(
        `frame: ${OUTPUT_W}x${OUTPUT_H} output, ${INTERNAL_W}x${INTERNAL_H} internal; 5 built-in passes ` +
            `(gbuffer, lighting, transparency stand-in, upscale, tonemap), ${n0.graph.pool.live_count} pooled textures, 1 imported target`,
    );
    console.log(
        `timing: ${WARMUP_FRAMES} warm-up frames per configuration, then ${ROUNDS} interleaved rounds of ${BATCH} frames; ` +
            `median / p10 / p90 over rounds of the batch mean`,
    );
    console.log("");
    console.log(
        table(
            ["extensions", "us/frame median", "p10", "p90", "ns/extension vs 0"],
            configs.map((c, i) => [
                c.label,
                fmt(med[i], 3),
                fmt(p10[i], 3),
                fmt(p90[i], 3),
                i === 0 ? "-" : fmt(((med[i] - t0) * 1000) / c.extensions, 1),
            ]),
        ),
    );
    console.log("");
    console.log(`per extension: (t100 - t0) / 100 = ${fmt(per_ext_100, 1)} ns   (t10 - t0) / 10 = ${fmt(per_ext_10, 1)} ns   goal < 1000 ns`);
    console.log(`with 100 distinct extension classes (megamorphic record call): ${fmt(per_ext_100_classes, 1)} ns per extension`);
    console.log("");
    console.log(
        table(
            ["allocation (each window after a full GC)", "frames", "young GCs", "old GCs", "young bytes/frame", "us/frame"],
            [
                ["steady state, 100 extensions (counted)", String(steady.frames), String(steady.minor), String(steady.major), fmt(steady_bytes, 1), fmt((steady.seconds * 1e6) / steady.frames, 3)],
                ...rows.map(({ label, w, bytes }) => [label, String(w.frames), String(w.minor), String(w.major), fmt(bytes, 1), fmt((w.seconds * 1e6) / w.frames, 3)]),
            ],
        ),
    );
    console.log(
        `V8 mechanism: 'list.length = 0' then 5 pushes: ${fmt(trim_bytes, 1)} bytes per cycle; ` +
            `a count reset to 0 then 5 stores: ${fmt(count_bytes, 1)} bytes per cycle`,
    );
    console.log("");
    const gc_goal = steady.minor === 0;
    const cost_goal = per_ext_100 < 1000;
    console.log(`young-generation GCs over ${steady.frames} steady frames at 100 extensions: ${steady.minor}   goal 0: ${gc_goal ? "met" : "MISSED"}`);
    console.log(`cost per extension ${fmt(per_ext_100, 1)} ns   goal < 1000 ns: ${cost_goal ? "met" : "MISSED"}`);
    if (!gc_goal) {
        let previous = 0;
        for (const { label, bytes } of rows.slice(configs.length)) {
            if (bytes - previous >= 1) console.log(`allocates: ${label.replace("diagnostic: ", "")}: +${fmt(bytes - previous, 1)} bytes/frame`);
            previous = bytes;
        }
        console.log("allocation sites: see BENCHMARKS.md, Render extensions");
    }
    console.log(`${seconds.toFixed(1)} s`);
    console.log(
        JSON.stringify({
            bench: "extensions",
            node: process.version,
            cpu,
            us_per_frame_0: +med[0].toFixed(3),
            us_per_frame_10: +med[1].toFixed(3),
            us_per_frame_100: +med[2].toFixed(3),
            us_per_frame_100_distinct_classes: +med[3].toFixed(3),
            ns_per_extension_100: +per_ext_100.toFixed(1),
            ns_per_extension_10: +per_ext_10.toFixed(1),
            ns_per_extension_100_distinct_classes: +per_ext_100_classes.toFixed(1),
            goal_ns_per_extension: 1000,
            young_gcs: steady.minor,
            old_gcs: steady.major,
            gc_frames: steady.frames,
            young_bytes_per_frame_100: Number.isNaN(steady_bytes) ? null : +steady_bytes.toFixed(1),
            goal_young_gcs: 0,
            goals_met: gc_goal && cost_goal,
        }),
    );
}

await main();
