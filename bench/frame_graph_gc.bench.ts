// Young-generation GCs of the frame graph in steady state, on a FAKE allocator and a FAKE encoder (no GPU).
//
// 100,000 frames of the 64-pass / 32-transient chain (frame_graph_chain.ts): build, compile, execute (the
// passes resolve their views and colour attachments as the Dawn benchmark's do, then record nothing), reset.
// Frames 0..10k warm up (JIT, pool, node arrays); then a full GC empties the young generation and minor GCs
// (perf_hooks 'gc' entries of kind NODE_PERFORMANCE_GC_MINOR) are counted over frames 10k..100k.
// Goal: 0. Any allocation per frame, however small, fills the nursery eventually and shows up as a count.
//
// Timing uses one performance.now() per batch of frames, never per frame: in Node 20 each call returns a
// fresh heap number, which would itself be counted. After the counted run, the same loop is repeated with
// parts of the frame left out (record only; record + compile) to say which part allocates, and, when the
// count is not 0 (or BENCH_ALLOC_PROFILE=1), a child process with inlining off runs V8's sampling heap profiler
// (objects collected by minor GCs included) and names the functions that allocate, in the TypeScript sources.
import { spawnSync } from "node:child_process";
import { Session } from "node:inspector/promises";
import { findSourceMap } from "node:module";
import { relative } from "node:path";
import { PerformanceObserver, constants, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { FrameGraph } from "../shade/device/graph/FrameGraph.js";
import type { FrameExecution, FrameExecutionTarget } from "../shade/device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../shade/device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../shade/device/graph/TextureResourceDescriptor.js";
import { FakeAllocator, FakeEncoder, type FakeTexture } from "./fake_gpu.js";
import {
    ChainRecorder,
    FORMAT,
    PASS_COUNT,
    SIZE,
    TRANSIENT_COUNT,
    TRANSIENT_USAGE,
    USAGE_COPY_SRC,
    USAGE_RENDER_ATTACHMENT,
    USAGE_TEXTURE_BINDING,
    median,
    table,
    type ChainPassData,
} from "./frame_graph_chain.js";

const ALLOC_PROFILE_FLAG = "--alloc-profile";
const TOTAL_FRAMES = 100_000;
const WARMUP_FRAMES = 10_000;
/** Frames per timed batch (one performance.now() pair per batch). */
const BATCH = 100;
/** Frames of each diagnostic run after the counted one. */
const PART_FRAMES = 30_000;


interface FakePassData extends ChainPassData {
    /** What the pass resolved this frame, kept so the work cannot be optimised away. */
    view: unknown;
    attachment: GPURenderPassColorAttachment | null;
}

// ---- the frame ----

const allocator = new FakeAllocator();
const graph = new FrameGraph<FakeTexture, string>(allocator);
const transient = TextureResourceDescriptor.of(SIZE, SIZE, FORMAT, TRANSIENT_USAGE);
const imported = TextureResourceDescriptor.of(SIZE, SIZE, FORMAT, USAGE_RENDER_ATTACHMENT | USAGE_TEXTURE_BINDING | USAGE_COPY_SRC);
const source = allocator.create(imported, "source");
const output = allocator.create(imported, "output");
const encoder = new FakeEncoder();
const execution: FrameExecutionTarget = { graphics: null as unknown as GPUDevice, encoder: encoder as unknown as GPUCommandEncoder };
const clear_value: GPUColorDict = { r: 0, g: 0, b: 0, a: 0 };

const execute_pass = (d: FakePassData, resources: FrameGraphResources, _execution: FrameExecution): void => {
    d.view = resources.view(d.source);
    d.attachment = resources.color_attachment(d.target, clear_value);
};
const pass_data: FakePassData[] = Array.from({ length: PASS_COUNT }, (_, index) => ({
    index,
    source: -1,
    target: -1,
    view: null,
    attachment: null,
}));
const recorder = new ChainRecorder<FakePassData>(pass_data, execute_pass);

type Part = "record" | "record + compile" | "record + compile + execute";

function frame(part: Part): void {
    recorder.record(graph, source, output, transient, imported);
    if (part !== "record") graph.compile();
    if (part === "record + compile + execute") {
        if (graph.execute(execution) !== PASS_COUNT) throw new Error("a pass of the chain was culled");
    }
    graph.reset();
}

// ---- GC counting ----

let minor_gcs = 0;
let major_gcs = 0;
const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
        const kind = (entry as { readonly detail?: { readonly kind?: number } | null }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor_gcs++;
        else major_gcs++;
    }
});

/** Lets queued performance entries reach the observer. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

/** A full GC: `gc` when node runs with --expose-gc (npm run bench does), otherwise exposed at run time. */
function full_gc(): void {
    let gc = (globalThis as { gc?: () => void }).gc;
    if (gc === undefined) {
        setFlagsFromString("--expose-gc");
        gc = runInNewContext("gc") as () => void;
        (globalThis as { gc?: () => void }).gc = gc;
    }
    gc();
}

interface Window {
    readonly frames: number;
    readonly minor: number;
    readonly major: number;
    /** Median over batches of the mean time per frame, microseconds. */
    readonly us_per_frame: number;
}

/** Runs `frames` frames of `part` after a full GC and counts the GCs that happen meanwhile. */
async function counted(part: Part, frames: number): Promise<Window> {
    const batches = Math.floor(frames / BATCH);
    const batch_us = new Float64Array(batches);
    full_gc();
    await settle();
    minor_gcs = 0;
    major_gcs = 0;
    observer.observe({ entryTypes: ["gc"] });
    for (let b = 0; b < batches; b++) {
        const t0 = performance.now();
        for (let f = 0; f < BATCH; f++) frame(part);
        batch_us[b] = ((performance.now() - t0) * 1000) / BATCH;
    }
    await settle();
    observer.disconnect();
    return { frames: batches * BATCH, minor: minor_gcs, major: major_gcs, us_per_frame: median(batch_us) };
}

// ---- allocation sites (child process) ----

interface ProfileNode {
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
    readonly selfSize: number;
    readonly children: readonly ProfileNode[];
}

interface AllocationSite {
    /** `function (file:line)` of the allocating function, in the TypeScript sources where a source map knows it. */
    readonly site: string;
    readonly bytes_per_frame: number;
}

/** Maps a position in the bundle to `file:line` in the sources (1-based), or the bundle position. */
function source_position(url: string, line: number, column: number): string {
    if (url === "") return "(native)";
    const map = findSourceMap(url) ?? (url.startsWith("file:") ? findSourceMap(fileURLToPath(url)) : undefined);
    const entry = map?.findEntry(line, column);
    if (entry !== undefined && "originalSource" in entry) {
        const file = entry.originalSource.startsWith("file:") ? fileURLToPath(entry.originalSource) : entry.originalSource;
        return `${relative(process.cwd(), file)}:${entry.originalLine + 1}`;
    }
    return `${url.startsWith("file:") ? relative(process.cwd(), fileURLToPath(url)) : url}:${line + 1}`;
}

/** In the child: warm up, then sample allocations over PROFILE_FRAMES frames; prints one JSON line. */
async function allocation_profile(): Promise<void> {
    const PROFILE_FRAMES = 5_000;
    for (let f = 0; f < WARMUP_FRAMES; f++) frame("record + compile + execute");
    const session = new Session();
    session.connect();
    await session.post("HeapProfiler.enable");
    // the last two options (V8 11+) keep samples of objects that died young: the ones a scavenge collects
    const options = { samplingInterval: 512, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true };
    await session.post("HeapProfiler.startSampling", options);
    for (let f = 0; f < PROFILE_FRAMES; f++) frame("record + compile + execute");
    const { profile } = await session.post("HeapProfiler.stopSampling");
    session.disconnect();
    const by_site = new Map<string, number>();
    const walk = (node: ProfileNode): void => {
        if (node.selfSize > 0 && !node.callFrame.url.startsWith("node:")) {
            const f = node.callFrame;
            const site = `${f.functionName === "" ? "(anonymous)" : f.functionName} (${source_position(f.url, f.lineNumber, f.columnNumber)})`;
            by_site.set(site, (by_site.get(site) ?? 0) + node.selfSize);
        }
        for (const child of node.children) walk(child);
    };
    walk(profile.head as ProfileNode);
    const sites: AllocationSite[] = [...by_site]
        .map(([site, bytes]) => ({ site, bytes_per_frame: bytes / PROFILE_FRAMES }))
        .filter((s) => s.bytes_per_frame >= 1)
        .sort((a, b) => b.bytes_per_frame - a.bytes_per_frame);
    console.log(JSON.stringify(sites));
}

/** Runs `allocation_profile` in a child node without inlining (so that each site keeps its own function). */
function profile_allocations(): AllocationSite[] | string {
    const file = fileURLToPath(import.meta.url);
    const child = spawnSync(
        process.execPath,
        ["--expose-gc", "--no-turbo-inlining", "--enable-source-maps", file, ALLOC_PROFILE_FLAG],
        { encoding: "utf8", timeout: 60_000 },
    );
    const last = child.stdout?.trim().split("\n").pop() ?? "";
    if (child.status !== 0 || !last.startsWith("[")) return `allocation profile failed: ${child.stderr || child.error?.message || "no output"}`;
    return JSON.parse(last) as AllocationSite[];
}

async function main(): Promise<void> {
    const started = performance.now();
    for (let f = 0; f < WARMUP_FRAMES; f++) frame("record + compile + execute");
    const created_after_warmup = allocator.created;

    const steady = await counted("record + compile + execute", TOTAL_FRAMES - WARMUP_FRAMES);
    if (allocator.created !== created_after_warmup) throw new Error("the pool created textures in steady state");
    if (encoder.depth !== 0) throw new Error("debug groups are unbalanced");

    // diagnostics: which part allocates, and what build + compile alone costs
    const parts: Part[] = ["record", "record + compile", "record + compile + execute"];
    const by_part: Window[] = [];
    for (const part of parts) by_part.push(await counted(part, PART_FRAMES));
    const seconds = (performance.now() - started) / 1000;

    const fmt = (x: number, d = 2) => x.toFixed(d);
    console.log(`frame graph GC: ${PASS_COUNT} passes, ${TRANSIENT_COUNT} transients, FAKE allocator and encoder (no GPU)`);
    console.log(
        `${TOTAL_FRAMES} frames (build + compile + execute + reset); young GCs counted over frames ` +
            `${WARMUP_FRAMES}..${TOTAL_FRAMES} after a full GC; ${seconds.toFixed(1)} s`,
    );
    console.log("");
    console.log(
        table(
            ["run", "frames", "young GCs", "old GCs", "us/frame (median of batches)"],
            [
                ["steady state (counted)", String(steady.frames), String(steady.minor), String(steady.major), fmt(steady.us_per_frame)],
                ...parts.map((part, k) => [
                    `diagnostic: ${part}`,
                    String(by_part[k].frames),
                    String(by_part[k].minor),
                    String(by_part[k].major),
                    fmt(by_part[k].us_per_frame),
                ]),
            ],
        ),
    );
    console.log("");
    const build_compile = by_part[1].us_per_frame;
    console.log(`young-generation GCs over frames ${WARMUP_FRAMES}..${TOTAL_FRAMES}: ${steady.minor}   goal 0: ${steady.minor === 0 ? "met" : "MISSED"}`);
    console.log(`build + compile: ${fmt(build_compile)} us/frame median; with fake execute + reset: ${fmt(steady.us_per_frame)} us/frame`);
    let sites: AllocationSite[] = [];
    if (steady.minor !== 0 || process.env.BENCH_ALLOC_PROFILE === "1") {
        const first = parts.findIndex((_, k) => by_part[k].minor > 0);
        if (steady.minor !== 0) {
            console.log(`allocation first appears in: ${first === -1 ? "(no part allocates enough on its own)" : parts[first]}`);
        }
        const profiled = profile_allocations();
        if (typeof profiled === "string") {
            console.log(profiled);
        } else {
            sites = profiled;
            const total = sites.reduce((sum, s) => sum + s.bytes_per_frame, 0);
            console.log(`allocating functions (sampling heap profiler, inlining off): ~${total.toFixed(0)} bytes/frame`);
            console.log(table(["function (source)", "bytes/frame"], sites.slice(0, 12).map((s) => [s.site, s.bytes_per_frame.toFixed(0)])));
        }
    }
    console.log(
        JSON.stringify({
            bench: "frame_graph_gc",
            frames: TOTAL_FRAMES,
            counted_frames: steady.frames,
            young_gcs: steady.minor,
            old_gcs: steady.major,
            goal_young_gcs: 0,
            goal_met: steady.minor === 0,
            build_compile_us: +fmt(build_compile, 3),
            frame_us: +fmt(steady.us_per_frame, 3),
            young_gcs_record: by_part[0].minor,
            young_gcs_record_compile: by_part[1].minor,
            young_gcs_record_compile_execute: by_part[2].minor,
            part_frames: PART_FRAMES,
            alloc_bytes_per_frame: Math.round(sites.reduce((sum, s) => sum + s.bytes_per_frame, 0)),
            alloc_sites: sites.slice(0, 8).map((s) => s.site),
        }),
    );
}

if (process.argv.includes(ALLOC_PROFILE_FLAG)) await allocation_profile();
else await main();
