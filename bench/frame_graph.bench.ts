// Frame graph vs hand-encoded WebGPU, on Dawn (SwiftShader on machines without a GPU).
//
// Every frame, the graph variant builds the 64-pass / 32-transient chain (frame_graph_chain.ts), compiles it,
// executes it into one command encoder, submits and resets. The raw variant encodes the same 64 render passes
// with the same pipelines, precreated textures, bind groups and render pass descriptors (built once; nothing
// needs patching). Two diagnostic variants show where the gap goes: raw + debug groups adds the
// push/popDebugGroup pair the graph wraps around every pass; graph, no debug groups runs the graph variant with
// an encoder whose push/popDebugGroup do nothing (everything else forwarded to the real encoder).
//
// Measured: CPU time to record and submit one frame (performance.now around build..submit), and the full frame
// time including the wait on queue.onSubmittedWorkDone() every WAIT_EVERY frames. Variants run in interleaved
// blocks (rotating order) so that drift (SwiftShader threads, JIT, thermal) hits all of them alike.
// On SwiftShader only the ratios mean anything; absolute times are CPU rasteriser times.
import { cpus, loadavg } from "node:os";
import { create, globals } from "webgpu";
import { FrameGraph } from "../shade/device/graph/FrameGraph.js";
import type { FrameGraphResources } from "../shade/device/graph/FrameGraphResources.js";
import type { FrameExecution, FrameExecutionTarget } from "../shade/device/graph/FrameExecution.js";
import { GPUTextureAllocator } from "../shade/device/graph/GPUTextureAllocator.js";
import { TextureResourceDescriptor } from "../shade/device/graph/TextureResourceDescriptor.js";
import {
    ChainRecorder,
    FORMAT,
    PASS_COUNT,
    SIZE,
    TRANSIENT_COUNT,
    TRANSIENT_USAGE,
    USAGE_COPY_DST,
    USAGE_COPY_SRC,
    USAGE_RENDER_ATTACHMENT,
    USAGE_TEXTURE_BINDING,
    median,
    quantile,
    source_of,
    table,
    target_of,
    type ChainPassData,
} from "./frame_graph_chain.js";

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
const env_int = (name: string, fallback: number): number => {
    const v = Number.parseInt(process.env[name] ?? "", 10);
    return Number.isFinite(v) && v > 0 ? v : fallback;
};
/** Frames per block of one variant. */
const BLOCK = env_int("BENCH_BLOCK", 24);
/** Blocks of each variant measured (after WARMUP_ROUNDS rounds thrown away), at most. */
const ROUNDS = env_int("BENCH_ROUNDS", 48);
/** Fewer rounds are measured when they would take longer than this (a busy machine): the bench stays < ~90 s. */
const MEASURE_BUDGET_S = env_int("BENCH_BUDGET_S", 60);
/** ...but never fewer than this many. */
const MIN_ROUNDS = 12;
const WARMUP_ROUNDS = env_int("BENCH_WARMUP_ROUNDS", 4);
/** Wait on the queue after this many frames so it cannot grow without bound. */
const WAIT_EVERY = env_int("BENCH_WAIT_EVERY", 4);

const SHADER = /* wgsl */ `
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;

struct VOut {
    @builtin(position) position: vec4f,
    @location(0) uv: vec2f,
};

@vertex fn vs(@builtin(vertex_index) i: u32) -> VOut {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    var o: VOut;
    o.position = vec4f(p * 2.0 - 1.0, 0.0, 1.0);
    o.uv = vec2f(p.x, 1.0 - p.y);
    return o;
}

@fragment fn fs_fade(v: VOut) -> @location(0) vec4f {
    return textureSample(src, smp, v.uv) * 0.98 + vec4f(0.01, 0.005, 0.0, 0.0);
}

@fragment fn fs_swizzle(v: VOut) -> @location(0) vec4f {
    return textureSample(src, smp, v.uv).gbra;
}
`;

interface GpuPassData extends ChainPassData {
    readonly pipeline: GPURenderPipeline;
    /** colorAttachments[0] is replaced each frame by the graph's (reused) attachment object. */
    readonly pass_descriptor: GPURenderPassDescriptor & { colorAttachments: GPURenderPassColorAttachment[] };
    /** Bind group cache: one entry, keyed by the view the pass sampled last. */
    readonly group_entries: [GPUBindGroupEntry, GPUBindGroupEntry];
    readonly group_descriptor: GPUBindGroupDescriptor;
    cached_view: GPUTextureView | null;
    cached_group: GPUBindGroup | null;
}

interface RawPass {
    readonly pipeline: GPURenderPipeline;
    readonly group: GPUBindGroup;
    readonly descriptor: GPURenderPassDescriptor;
    readonly label: string;
}

type Variant = "graph" | "raw" | "raw + debug groups" | "graph, no debug groups";
const VARIANTS: readonly Variant[] = ["graph", "raw", "raw + debug groups", "graph, no debug groups"];

/** Diagnostic only: an encoder that drops debug groups and forwards what the passes use to the real one. */
class NoDebugGroupEncoder {
    real: GPUCommandEncoder | null = null;
    pushDebugGroup(_label: string): void {}
    popDebugGroup(): void {}
    beginRenderPass(descriptor: GPURenderPassDescriptor): GPURenderPassEncoder {
        return this.real!.beginRenderPass(descriptor);
    }
}

async function main(): Promise<void> {
    // other work on the machine shows here; the benchmark's own SwiftShader threads add ~1.5 once it runs
    const load_before = loadavg()[0];
    if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
    Object.assign(globalThis, globals);
    // keep the GPU object referenced for the whole run: once it is collected, queue promises never settle
    const gpu = create(["disable-dawn-features=timestamp_quantization"]);
    const adapter = await gpu.requestAdapter();
    if (adapter === null) throw new Error(`no WebGPU adapter (VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES ?? "unset"})`);
    const device = await adapter.requestDevice();
    const gpu_errors: string[] = [];
    device.addEventListener("uncapturederror", (e) => gpu_errors.push((e as GPUUncapturedErrorEvent).error.message));
    device.pushErrorScope("validation");
    const queue = device.queue;

    // ---- shared GPU state (both variants) ----
    const module = device.createShaderModule({ code: SHADER });
    const group_layout = device.createBindGroupLayout({
        entries: [
            { binding: 0, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "float" } },
            { binding: 1, visibility: GPUShaderStage.FRAGMENT, sampler: { type: "filtering" } },
        ],
    });
    const layout = device.createPipelineLayout({ bindGroupLayouts: [group_layout] });
    const pipelines = ["fs_fade", "fs_swizzle"].map((entryPoint) =>
        device.createRenderPipeline({
            label: entryPoint,
            layout,
            vertex: { module, entryPoint: "vs" },
            fragment: { module, entryPoint, targets: [{ format: FORMAT }] },
            primitive: { topology: "triangle-list" },
        }),
    );
    const sampler = device.createSampler({ magFilter: "linear", minFilter: "linear" });
    const imported_usage = USAGE_RENDER_ATTACHMENT | USAGE_TEXTURE_BINDING | USAGE_COPY_SRC | USAGE_COPY_DST;
    const make_texture = (label: string, usage: number): GPUTexture =>
        device.createTexture({ label, size: { width: SIZE, height: SIZE }, format: FORMAT, usage });
    const source = make_texture("source", imported_usage);
    const output = make_texture("output", imported_usage);
    {
        const pixels = new Uint8Array(SIZE * SIZE * 4);
        for (let y = 0; y < SIZE; y++)
            for (let x = 0; x < SIZE; x++) pixels.set([x * 4, y * 4, (x ^ y) * 4, 255], (y * SIZE + x) * 4);
        queue.writeTexture({ texture: source }, pixels, { bytesPerRow: SIZE * 4 }, { width: SIZE, height: SIZE });
    }
    const clear_value: GPUColorDict = { r: 0, g: 0, b: 0, a: 0 };

    // ---- graph variant ----
    const allocator = new GPUTextureAllocator(device);
    const graph = new FrameGraph(allocator);
    const transient = TextureResourceDescriptor.of(SIZE, SIZE, FORMAT, TRANSIENT_USAGE);
    const imported = TextureResourceDescriptor.of(SIZE, SIZE, FORMAT, imported_usage);
    const execution: { graphics: GPUDevice; encoder: GPUCommandEncoder } = {
        graphics: device,
        encoder: null as unknown as GPUCommandEncoder,
    };
    let bind_group_misses = 0;
    const pass_data: GpuPassData[] = [];
    for (let i = 0; i < PASS_COUNT; i++) {
        const group_entries: [GPUBindGroupEntry, GPUBindGroupEntry] = [
            { binding: 0, resource: null as unknown as GPUTextureView },
            { binding: 1, resource: sampler },
        ];
        pass_data.push({
            index: i,
            source: -1,
            target: -1,
            pipeline: pipelines[i & 1],
            pass_descriptor: { colorAttachments: [null as unknown as GPURenderPassColorAttachment] },
            group_entries,
            group_descriptor: { layout: group_layout, entries: group_entries },
            cached_view: null,
            cached_group: null,
        });
    }
    const execute_pass = (d: GpuPassData, resources: FrameGraphResources, exec: FrameExecution): void => {
        const view = resources.view(d.source);
        if (view !== d.cached_view) {
            // first frame, or the pool handed this pass another texture: make (and keep) a bind group for it
            d.group_entries[0].resource = view;
            d.cached_group = exec.graphics.createBindGroup(d.group_descriptor);
            d.cached_view = view;
            bind_group_misses++;
        }
        d.pass_descriptor.colorAttachments[0] = resources.color_attachment(d.target, clear_value);
        const pass = exec.encoder.beginRenderPass(d.pass_descriptor);
        pass.setPipeline(d.pipeline);
        pass.setBindGroup(0, d.cached_group);
        pass.draw(3);
        pass.end();
    };
    const recorder = new ChainRecorder<GpuPassData>(pass_data, execute_pass);
    const commands: GPUCommandBuffer[] = [null as unknown as GPUCommandBuffer];

    const graph_frame = (): void => {
        const encoder = device.createCommandEncoder();
        execution.encoder = encoder;
        recorder.record(graph, source, output, transient, imported);
        graph.compile();
        graph.execute(execution);
        commands[0] = encoder.finish();
        queue.submit(commands);
        graph.reset();
    };
    const no_debug_encoder = new NoDebugGroupEncoder();
    const no_debug_execution: FrameExecutionTarget = { graphics: device, encoder: no_debug_encoder as unknown as GPUCommandEncoder };
    const graph_frame_no_debug_groups = (): void => {
        const encoder = device.createCommandEncoder();
        no_debug_encoder.real = encoder;
        recorder.record(graph, source, output, transient, imported);
        graph.compile();
        graph.execute(no_debug_execution);
        commands[0] = encoder.finish();
        queue.submit(commands);
        graph.reset();
    };

    // ---- raw variant: the same passes, everything precreated ----
    const raw_textures = Array.from({ length: TRANSIENT_COUNT }, (_, i) => make_texture(`raw T${i}`, TRANSIENT_USAGE));
    const texture_of = (t: number): GPUTexture => (t === -1 ? source : raw_textures[t]);
    const raw_passes: RawPass[] = [];
    for (let i = 0; i < PASS_COUNT; i++) {
        const target = target_of(i) === -1 ? output : raw_textures[target_of(i)];
        raw_passes.push({
            pipeline: pipelines[i & 1],
            group: device.createBindGroup({
                layout: group_layout,
                entries: [
                    { binding: 0, resource: texture_of(source_of(i)).createView() },
                    { binding: 1, resource: sampler },
                ],
            }),
            descriptor: {
                colorAttachments: [{ view: target.createView(), loadOp: "clear", storeOp: "store", clearValue: clear_value }],
            },
            label: recorder.pass_names[i],
        });
    }
    const raw_frame = (debug_groups: boolean): void => {
        const encoder = device.createCommandEncoder();
        for (let i = 0; i < PASS_COUNT; i++) {
            const p = raw_passes[i];
            if (debug_groups) encoder.pushDebugGroup(p.label);
            const pass = encoder.beginRenderPass(p.descriptor);
            pass.setPipeline(p.pipeline);
            pass.setBindGroup(0, p.group);
            pass.draw(3);
            pass.end();
            if (debug_groups) encoder.popDebugGroup();
        }
        commands[0] = encoder.finish();
        queue.submit(commands);
    };

    const frame_of: Record<Variant, () => void> = {
        graph: graph_frame,
        raw: () => raw_frame(false),
        "raw + debug groups": () => raw_frame(true),
        "graph, no debug groups": graph_frame_no_debug_groups,
    };

    // ---- sanity: both variants compute the same picture ----
    const read_output = async (): Promise<Uint8Array> => {
        const buffer = device.createBuffer({ size: SIZE * SIZE * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
        const encoder = device.createCommandEncoder();
        encoder.copyTextureToBuffer({ texture: output }, { buffer, bytesPerRow: SIZE * 4 }, { width: SIZE, height: SIZE });
        queue.submit([encoder.finish()]);
        await buffer.mapAsync(GPUMapMode.READ);
        const bytes = new Uint8Array(buffer.getMappedRange().slice(0));
        buffer.unmap();
        buffer.destroy();
        return bytes;
    };
    graph_frame();
    const graph_pixels = await read_output();
    raw_frame(false);
    const raw_pixels = await read_output();
    let differing = 0;
    for (let k = 0; k < graph_pixels.length; k++) if (graph_pixels[k] !== raw_pixels[k]) differing++;
    if (differing !== 0) throw new Error(`graph and raw outputs differ in ${differing} bytes: they do not do the same work`);
    if (graph.pool.created_count !== TRANSIENT_COUNT) {
        throw new Error(`expected the pool to hold ${TRANSIENT_COUNT} textures, it created ${graph.pool.created_count}`);
    }

    // ---- measurement ----
    const per_variant = (length: number): Record<Variant, Float64Array> => {
        const r = {} as Record<Variant, Float64Array>;
        for (const v of VARIANTS) r[v] = new Float64Array(length);
        return r;
    };
    /** CPU ms of every measured frame. */
    const cpu = per_variant(ROUNDS * BLOCK);
    /** Per block: median CPU ms, and wall ms per frame including the queue waits. */
    const block_cpu = per_variant(ROUNDS);
    const full = per_variant(ROUNDS);
    let misses_after_warmup = 0;
    const started = performance.now();
    let rounds = 0;
    let measure_start = 0;
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
        const measured = round >= WARMUP_ROUNDS;
        if (round === WARMUP_ROUNDS) {
            misses_after_warmup = bind_group_misses;
            measure_start = performance.now();
        }
        if (measured && rounds >= MIN_ROUNDS && performance.now() - measure_start > MEASURE_BUDGET_S * 1000) break;
        if (measured) rounds++;
        for (let k = 0; k < VARIANTS.length; k++) {
            const v = VARIANTS[(round + k) % VARIANTS.length];
            const frame = frame_of[v];
            const out = cpu[v];
            const base = (round - WARMUP_ROUNDS) * BLOCK;
            await queue.onSubmittedWorkDone(); // start every block on an idle queue
            const block_start = performance.now();
            for (let f = 0; f < BLOCK; f++) {
                const t0 = performance.now();
                frame();
                const t1 = performance.now();
                if (measured) out[base + f] = t1 - t0;
                if ((f + 1) % WAIT_EVERY === 0) await queue.onSubmittedWorkDone();
            }
            if (BLOCK % WAIT_EVERY !== 0) await queue.onSubmittedWorkDone();
            if (measured) {
                full[v][round - WARMUP_ROUNDS] = (performance.now() - block_start) / BLOCK;
                block_cpu[v][round - WARMUP_ROUNDS] = median(out.subarray(base, base + BLOCK));
            }
        }
    }
    const seconds = (performance.now() - started) / 1000;
    const load_after = loadavg()[0];
    const cores = cpus().length;
    const busy = load_before > cores * 0.75;
    misses_after_warmup = bind_group_misses - misses_after_warmup;

    const error = await device.popErrorScope();
    if (error !== null) gpu_errors.push(error.message);
    await queue.onSubmittedWorkDone();
    graph.destroy();
    for (const t of [source, output, ...raw_textures]) t.destroy();
    device.destroy();
    if (gpu_errors.length > 0) throw new Error(`GPU errors:\n  ${gpu_errors.join("\n  ")}`);

    // ---- report ----
    const cpu_ms = (v: Variant) => median(cpu[v], rounds * BLOCK);
    const p = (v: Variant, q: number) => quantile(cpu[v], q, rounds * BLOCK);
    const full_ms = (v: Variant) => median(full[v], rounds);
    /** Median over rounds of (block median of v) / (block median of raw in the same round): drift-free. */
    const paired = (v: Variant) => median(block_cpu[v].map((x, r) => x / block_cpu.raw[r]), rounds);
    const ratio = cpu_ms("graph") / cpu_ms("raw");
    const full_ratio = full_ms("graph") / full_ms("raw");
    const fmt = (x: number, d = 3) => x.toFixed(d);
    console.log(`frame graph vs raw WebGPU: ${PASS_COUNT} render passes, ${TRANSIENT_COUNT} transients of ${SIZE}x${SIZE} ${FORMAT}`);
    console.log(`adapter: ${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.device}`.trimEnd());
    console.log(
        `${rounds} blocks x ${BLOCK} frames per variant (after ${WARMUP_ROUNDS} warm-up rounds; at most ${ROUNDS}, fewer past ` +
            `${MEASURE_BUDGET_S} s), order rotated per round, ` +
            `queue drained every ${WAIT_EVERY} frames; ${seconds.toFixed(1)} s`,
    );
    console.log("cpu = record + submit of one frame (graph: build + compile + execute + finish + submit + reset)");
    console.log(
        `load average (1 min) before / after the run: ${load_before.toFixed(1)} / ${load_after.toFixed(1)} on ${cores} cores` +
            (busy ? "  WARNING: the machine is busy with other work; these figures are not reliable" : ""),
    );
    console.log("");
    console.log(
        table(
            ["variant", "cpu ms/frame median", "p10", "p90", "full ms/frame incl. wait", "cpu / raw", "paired cpu / raw"],
            VARIANTS.map((v) => [
                v,
                fmt(cpu_ms(v)),
                fmt(p(v, 0.1)),
                fmt(p(v, 0.9)),
                fmt(full_ms(v)),
                fmt(cpu_ms(v) / cpu_ms("raw")),
                fmt(paired(v)),
            ]),
        ),
    );
    console.log("(paired = median over rounds of the ratio of block medians within one round)");
    console.log("");
    console.log(`median ms/frame graph: ${fmt(cpu_ms("graph"))}   raw: ${fmt(cpu_ms("raw"))}`);
    console.log(`ratio graph/raw (cpu record+submit): ${fmt(ratio)}   goal <= 1.10: ${ratio <= 1.1 ? "met" : "MISSED"}`);
    console.log(`ratio graph/raw (full frame incl. wait): ${fmt(full_ratio)}`);
    console.log(
        `graph overhead per frame: ${fmt((cpu_ms("graph") - cpu_ms("raw")) * 1000, 0)} us, of which per-pass debug groups ` +
            `~${fmt((cpu_ms("graph") - cpu_ms("graph, no debug groups")) * 1000, 0)} us ` +
            `(raw + debug groups costs ${fmt((cpu_ms("raw + debug groups") - cpu_ms("raw")) * 1000, 0)} us over raw)`,
    );
    console.log(
        `bind groups: cached per pass, one entry keyed by the pooled view the pass sampled (pool textures are stable ` +
            `frame to frame); created ${bind_group_misses}, of them after warm-up: ${misses_after_warmup}`,
    );
    console.log(`pool: ${graph.pool.created_count} textures created over the run`);
    console.log(
        JSON.stringify({
            bench: "frame_graph",
            passes: PASS_COUNT,
            transients: TRANSIENT_COUNT,
            graph_cpu_ms: +fmt(cpu_ms("graph"), 4),
            raw_cpu_ms: +fmt(cpu_ms("raw"), 4),
            ratio: +fmt(ratio, 4),
            paired_ratio: +fmt(paired("graph"), 4),
            goal_ratio: 1.1,
            goal_met: ratio <= 1.1,
            graph_full_ms: +fmt(full_ms("graph"), 4),
            raw_full_ms: +fmt(full_ms("raw"), 4),
            full_ratio: +fmt(full_ratio, 4),
            raw_debug_groups_cpu_ms: +fmt(cpu_ms("raw + debug groups"), 4),
            graph_no_debug_groups_cpu_ms: +fmt(cpu_ms("graph, no debug groups"), 4),
            bind_group_misses_after_warmup: misses_after_warmup,
            frames_per_variant: rounds * BLOCK,
            load_average: [+load_before.toFixed(2), +load_after.toFixed(2)],
            cores,
            machine_busy: busy,
        }),
    );
}

await main();
