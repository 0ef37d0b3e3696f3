// Raw Dawn, no engine: the CPU of a render pass that replays one render bundle of N draws, by how the bundle draws
// (the question behind the scene path's bundled runs: what a draw costs on replay, and what its buffer changes add).
// Each kind records the same N draws of 36 indices into a 64x64 target:
//   indexed_indirect  setVertexBuffer + setIndexBuffer per draw (500 geometries' own buffers), drawIndexedIndirect
//   shared_indirect   one vertex and index buffer for every draw (a geometry arena), drawIndexedIndirect only
//   indirect          setVertexBuffer per draw, drawIndirect (no index buffer)
//   indexed           as indexed_indirect with drawIndexed (arguments in the bundle)
//   direct            setVertexBuffer per draw, draw
// Prints the median CPU of the pass (begin, executeBundles, end), of finish and of submit per kind, and each kind's
// ratio to indexed_indirect (what the G-buffer's bundle records today).
//
//   npm run bench -- bundle_draws          (SwiftShader: ratios only)
//   knobs: BENCH_DRAWS=942 (the 100,000-mesh scene's runs), BENCH_FRAMES=300
import * as dawn from "webgpu";
import { median } from "./submit_timer.js";

Object.assign(globalThis, dawn.globals);

const DRAWS = Number(process.env.BENCH_DRAWS ?? 942);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 300);
const GEOMETRIES = 500;
const KINDS = ["indexed_indirect", "shared_indirect", "indirect", "indexed", "direct"] as const;
type Kind = (typeof KINDS)[number];

const gpu = dawn.create(["disable-dawn-features=timestamp_quantization"]);
const adapter = await gpu.requestAdapter();
if (adapter === null) throw new Error("bundle_draws: no WebGPU adapter");
const device = await adapter.requestDevice({ requiredFeatures: adapter.features.has("indirect-first-instance") ? ["indirect-first-instance"] : [] });
device.addEventListener("uncapturederror", (e) => {
    console.error(`bundle_draws: ${(e as GPUUncapturedErrorEvent).error.message}`);
    process.exit(1);
});

const module = device.createShaderModule({
    label: "bundle_draws shader",
    code: /* wgsl */ `
@group(0) @binding(0) var<storage, read> objects: array<vec4f>;
@vertex fn vs(@location(0) p: vec3f, @builtin(instance_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(p * 0.001, 1.0) + objects[i % 4u] * 0.0;
}
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`,
});
const pipeline = device.createRenderPipeline({
    label: "bundle_draws pipeline",
    layout: "auto",
    vertex: { module, entryPoint: "vs", buffers: [{ arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: "float32x3" }] }] },
    fragment: { module, entryPoint: "fs", targets: [{ format: "rgba8unorm" }] },
});
const objects = device.createBuffer({ label: "bundle_draws objects", size: 1024, usage: GPUBufferUsage.STORAGE });
const group = device.createBindGroup({ label: "bundle_draws group", layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: objects } }] });
const vertices: GPUBuffer[] = [];
const indices: GPUBuffer[] = [];
for (let g = 0; g < GEOMETRIES; g++) {
    vertices.push(device.createBuffer({ label: `bundle_draws vertices ${g}`, size: 12 * 300, usage: GPUBufferUsage.VERTEX }));
    indices.push(device.createBuffer({ label: `bundle_draws indices ${g}`, size: 2 * 600, usage: GPUBufferUsage.INDEX }));
}
const shared_vertices = device.createBuffer({ label: "bundle_draws shared vertices", size: 12 * 300 * GEOMETRIES, usage: GPUBufferUsage.VERTEX });
const shared_indices = device.createBuffer({ label: "bundle_draws shared indices", size: 2 * 600 * GEOMETRIES, usage: GPUBufferUsage.INDEX });
// per draw: 36 indices (or vertices), one instance; the shared kind's from its geometry's stretch of the arena
const args = new Uint32Array(DRAWS * 5);
for (let i = 0; i < DRAWS; i++) args.set([36, 1, 0, 0, 0], i * 5);
const indirect = device.createBuffer({ label: "bundle_draws indirect", size: args.byteLength, usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(indirect, 0, args);
const shared_args = new Uint32Array(DRAWS * 5);
for (let i = 0; i < DRAWS; i++) shared_args.set([36, 1, (i % GEOMETRIES) * 600, (i % GEOMETRIES) * 300, 0], i * 5);
const shared_indirect = device.createBuffer({ label: "bundle_draws shared indirect", size: shared_args.byteLength, usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(shared_indirect, 0, shared_args);
const target = device.createTexture({ label: "bundle_draws target", size: [64, 64], format: "rgba8unorm", usage: GPUTextureUsage.RENDER_ATTACHMENT });
const view = target.createView();

function record(kind: Kind): GPURenderBundle {
    const e = device.createRenderBundleEncoder({ label: `bundle_draws ${kind}`, colorFormats: ["rgba8unorm"] });
    e.setPipeline(pipeline);
    e.setBindGroup(0, group);
    if (kind === "shared_indirect") {
        e.setVertexBuffer(0, shared_vertices);
        e.setIndexBuffer(shared_indices, "uint16");
    }
    for (let i = 0; i < DRAWS; i++) {
        if (kind === "shared_indirect") {
            e.drawIndexedIndirect(shared_indirect, i * 20);
            continue;
        }
        e.setVertexBuffer(0, vertices[i % GEOMETRIES]);
        if (kind === "indexed_indirect" || kind === "indexed") e.setIndexBuffer(indices[i % GEOMETRIES], "uint16");
        if (kind === "indexed_indirect") e.drawIndexedIndirect(indirect, i * 20);
        else if (kind === "indirect") e.drawIndirect(indirect, i * 20);
        else if (kind === "indexed") e.drawIndexed(36, 1, 0, 0, i);
        else e.draw(36, 1, 0, i);
    }
    return e.finish({ label: `bundle_draws ${kind}` });
}

const descriptor: GPURenderPassDescriptor = { label: "bundle_draws pass", colorAttachments: [{ view, loadOp: "clear", storeOp: "store" }] };
const results = new Map<Kind, { pass: number[]; finish: number[]; submit: number[] }>();
for (const kind of KINDS) results.set(kind, { pass: [], finish: [], submit: [] });
// the kinds alternate frame by frame (the host's drift spreads over all of them alike)
const bundles = new Map(KINDS.map((k) => [k, [record(k)]]));
for (let f = 0; f < FRAMES + 30; f++) {
    for (const kind of KINDS) {
        const t0 = performance.now();
        const encoder = device.createCommandEncoder({ label: "bundle_draws encoder" });
        const pass = encoder.beginRenderPass(descriptor);
        pass.executeBundles(bundles.get(kind)!);
        pass.end();
        const t1 = performance.now();
        const commands = encoder.finish();
        const t2 = performance.now();
        device.queue.submit([commands]);
        const t3 = performance.now();
        await device.queue.onSubmittedWorkDone();
        if (f < 30) continue;
        const r = results.get(kind)!;
        r.pass.push(t1 - t0);
        r.finish.push(t2 - t1);
        r.submit.push(t3 - t2);
    }
}

console.log(`adapter: ${adapter.info.vendor} ${adapter.info.device}; ${DRAWS} draws a bundle over ${GEOMETRIES} geometries; ${FRAMES} frames, kinds alternated; timestamps not quantized`);
const base = median(results.get("indexed_indirect")!.pass);
const out: Record<string, unknown>[] = [];
for (const kind of KINDS) {
    const r = results.get(kind)!;
    const pass = median(r.pass);
    console.log(
        `  ${kind.padEnd(17)} pass ${pass.toFixed(3)} ms (${((pass * 1000) / DRAWS).toFixed(3)} us a draw; ${(pass / base).toFixed(2)}x indexed_indirect)  finish ${median(r.finish).toFixed(3)}  submit ${median(r.submit).toFixed(3)}`,
    );
    out.push({ kind, pass_ms: pass, finish_ms: median(r.finish), submit_ms: median(r.submit) });
}
console.log(JSON.stringify({ bench: "bundle_draws", adapter: adapter.info.device, draws: DRAWS, results: out }));
process.exit(0);
