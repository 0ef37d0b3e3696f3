// GPU skinning: compute (what the renderer does: one dispatch skins every Fox into a shared buffer, then each
// mesh pass draws the skinned positions) against vertex (every mesh pass skins in its vertex shader from the
// palette). N Khronos Foxes (1,728 vertices, 24 joints), each drawn once per mesh pass (the G-buffer, the velocity
// product and three shadow cascades are up to five passes a frame) into a 1920x1080 depth + colour target, as the
// renderer draws skinned meshes (a draw each). GPU ms per frame from timestamps around the whole frame, Dawn's
// timestamp quantization off. Vertex skinning of the velocity pass would need last frame's palette too (counted
// here as a second skin per vertex in that pass).
//
//   npx esbuild bench/skinning_paths.bench.ts --bundle --platform=node --format=esm --external:webgpu \
//       --external:pngjs --external:jpeg-js --define:__SHADE_DEBUG__=false --outfile=bench/output/skinning_paths.mjs
//   node bench/output/skinning_paths.mjs     knobs: BENCH_COUNT=1000 BENCH_PASSES=1,2,5 BENCH_FRAMES=100 BENCH_SIZE=1920x1080
import * as dawn from "webgpu";
import { load_gltf } from "../engine/assets/load_gltf.js";
import { SKINNING_WGSL } from "../shade/renderer/skinning/skinning_wgsl.js";

Object.assign(globalThis, dawn.globals);

const COUNT = Number(process.env.BENCH_COUNT ?? 1000);
const PASSES = (process.env.BENCH_PASSES ?? "1,2,5").split(",").map(Number);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 100);
const [width, height] = (process.env.BENCH_SIZE ?? "1920x1080").split("x").map(Number);
const FOX = process.env.BENCH_FOX ?? "samples/assets/Fox/Fox.glb";
// kept referenced: a collected instance crashes onSubmittedWorkDone
const instance = dawn.create(["disable-dawn-features=timestamp_quantization"]);

const DRAW_COMMON = /* wgsl */ `
struct View { view_projection: mat4x4f };
@group(0) @binding(0) var<uniform> view: View;
// per instance: its place (xyz) on the grid
@group(0) @binding(1) var<storage, read> places: array<vec4f>;
@fragment fn fs(@location(0) n: vec3f) -> @location(0) vec4f { return vec4f(normalize(n) * 0.5 + 0.5, 1.0); }
`;

// draws positions skinned by the compute pass (vertex buffers at the instance's offset, as the renderer binds them)
const DRAW_SKINNED_WGSL = /* wgsl */ `${DRAW_COMMON}
struct Out { @builtin(position) clip: vec4f, @location(0) n: vec3f };
@vertex fn vs(@location(0) p: vec3f, @location(1) n: vec3f, @builtin(instance_index) i: u32) -> Out {
    var out: Out;
    out.clip = view.view_projection * vec4f(p * 0.01 + places[i].xyz, 1.0);
    out.n = n;
    return out;
}`;

// skins in the vertex shader from the palette (inverse world first, as the compute path's layout), `skins` times
const DRAW_VERTEX_SKINNING_WGSL = /* wgsl */ `${DRAW_COMMON}
@group(0) @binding(2) var<storage, read> palette: array<mat4x4f>;
override SKINS: u32 = 1u;
const STRIDE = 25u;
struct Out { @builtin(position) clip: vec4f, @location(0) n: vec3f };
@vertex fn vs(@location(0) p: vec3f, @location(1) n: vec3f, @location(2) joints: vec4f, @location(3) weights: vec4f, @builtin(instance_index) i: u32) -> Out {
    var position = vec3f(0.0);
    var normal = vec3f(0.0);
    for (var k = 0u; k < SKINS; k++) {
        let base = i * STRIDE;
        let j = base + 1u + min(vec4u(joints), vec4u(23u));
        let m = palette[base] * (palette[j.x] * weights.x + palette[j.y] * weights.y + palette[j.z] * weights.z + palette[j.w] * weights.w);
        position += (m * vec4f(p, 1.0)).xyz;
        normal += mat3x3f(m[0].xyz, m[1].xyz, m[2].xyz) * n;
    }
    var out: Out;
    out.clip = view.view_projection * vec4f(position / f32(SKINS) * 0.01 + places[i].xyz, 1.0);
    out.n = normal;
    return out;
}`;

function buffer(device: GPUDevice, label: string, data: ArrayBufferView<ArrayBuffer>, usage: number): GPUBuffer {
    const b = device.createBuffer({ label, size: Math.max(16, (data.byteLength + 3) & ~3), usage: usage | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(b, 0, data);
    return b;
}

function look_down(side: number): Float32Array<ArrayBuffer> {
    // orthographic-ish perspective over the grid: a simple projection * view, column-major
    const f = 1 / Math.tan(0.5);
    const aspect = width / height;
    const eye = [0, side * 0.9, side * 1.1];
    const z = normalize([eye[0], eye[1], eye[2]]);
    const x = normalize(cross([0, 1, 0], z));
    const y = cross(z, x);
    const view = [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
    const near = 0.5;
    const far = 500;
    const proj = [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, far / (near - far), -1, 0, 0, (near * far) / (near - far), 0];
    const out = new Float32Array(16);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s += proj[k * 4 + r] * view[c * 4 + k];
        out[c * 4 + r] = s;
    }
    return out;
}
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const normalize = (a: number[]) => {
    const l = Math.hypot(a[0], a[1], a[2]);
    return [a[0] / l, a[1] / l, a[2] / l];
};
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];

async function main(): Promise<void> {
    const adapter = await instance.requestAdapter({ powerPreference: "high-performance" });
    if (adapter === null) throw new Error("no adapter");
    const device = await adapter.requestDevice({ requiredFeatures: adapter.features.has("timestamp-query") ? ["timestamp-query"] : [] });
    const timed = device.features.has("timestamp-query");
    const model = await load_gltf(FOX, { device });
    const geometry = model.meshes[0].primitives[0].geometry;
    const vc = geometry.vertex_count;
    const a = geometry.attributes;
    const V = GPUBufferUsage.VERTEX;
    const S = GPUBufferUsage.STORAGE;
    const positions = buffer(device, "fox positions", a.position.array as Float32Array<ArrayBuffer>, V | S);
    const normals = buffer(device, "fox normals", a.normal!.array as Float32Array<ArrayBuffer>, V | S);
    const joints = buffer(device, "fox joints", a.joints!.array as Float32Array<ArrayBuffer>, V | S);
    const weights = buffer(device, "fox weights", a.weights!.array as Float32Array<ArrayBuffer>, V | S);
    const index = buffer(device, "fox indices", geometry.index as Uint16Array<ArrayBuffer>, GPUBufferUsage.INDEX);
    const index_format: GPUIndexFormat = geometry.index instanceof Uint32Array ? "uint32" : "uint16";
    const index_count = geometry.index.length;
    // palettes: identity inverse world, joints slightly turned per instance (the cost does not depend on the pose)
    const stride = 25;
    const palette_data = new Float32Array(COUNT * stride * 16);
    for (let i = 0; i < COUNT; i++) {
        for (let m = 0; m < stride; m++) {
            const o = (i * stride + m) * 16;
            const t = m === 0 ? 0 : 0.05 * Math.sin(i + m);
            palette_data.set([Math.cos(t), Math.sin(t), 0, 0, -Math.sin(t), Math.cos(t), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], o);
        }
    }
    const palette = buffer(device, "palettes", palette_data, S);
    const side = Math.ceil(Math.sqrt(COUNT));
    const places = new Float32Array(COUNT * 4);
    for (let i = 0; i < COUNT; i++) places.set([((i % side) - side / 2) * 1.5, 0, (Math.floor(i / side) - side / 2) * 1.5, 1], i * 4);
    const places_buffer = buffer(device, "places", places, S);
    const view_buffer = buffer(device, "view", look_down(side), GPUBufferUsage.UNIFORM);
    const skinned_positions = device.createBuffer({ label: "skinned positions", size: COUNT * vc * 12, usage: V | S });
    const skinned_normals = device.createBuffer({ label: "skinned normals", size: COUNT * vc * 12, usage: V | S });
    const params = buffer(device, "skin params", new Uint32Array([vc, 24, stride, 0]), GPUBufferUsage.UNIFORM);

    const compute_module = device.createShaderModule({ label: "skinning", code: SKINNING_WGSL });
    const compute = device.createComputePipeline({ label: "skinning", layout: "auto", compute: { module: compute_module, entryPoint: "cs_skin" } });
    const compute_group = device.createBindGroup({
        layout: compute.getBindGroupLayout(0),
        entries: [params, palette, positions, normals, joints, weights, skinned_positions, skinned_normals].map((b, binding) => ({ binding, resource: { buffer: b } })),
    });
    const targets: GPUColorTargetState[] = [{ format: "rgba8unorm" }];
    const depth_stencil: GPUDepthStencilState = { format: "depth32float", depthWriteEnabled: true, depthCompare: "less" };
    const f3 = (location: number): GPUVertexBufferLayout => ({ arrayStride: 12, attributes: [{ shaderLocation: location, offset: 0, format: "float32x3" }] });
    const f4 = (location: number): GPUVertexBufferLayout => ({ arrayStride: 16, attributes: [{ shaderLocation: location, offset: 0, format: "float32x4" }] });
    const skinned_module = device.createShaderModule({ label: "draw skinned", code: DRAW_SKINNED_WGSL });
    const draw_skinned = device.createRenderPipeline({
        label: "draw skinned", layout: "auto",
        vertex: { module: skinned_module, entryPoint: "vs", buffers: [f3(0), f3(1)] },
        fragment: { module: skinned_module, entryPoint: "fs", targets },
        depthStencil: depth_stencil, primitive: { cullMode: "back" },
    });
    const vertex_module = device.createShaderModule({ label: "draw vertex-skinned", code: DRAW_VERTEX_SKINNING_WGSL });
    const draw_vertex = [1, 2].map((skins) => device.createRenderPipeline({
        label: `draw vertex-skinned x${skins}`, layout: "auto",
        vertex: { module: vertex_module, entryPoint: "vs", buffers: [f3(0), f3(1), f4(2), f4(3)], constants: { SKINS: skins } },
        fragment: { module: vertex_module, entryPoint: "fs", targets },
        depthStencil: depth_stencil, primitive: { cullMode: "back" },
    }));
    const skinned_group = device.createBindGroup({ layout: draw_skinned.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: view_buffer } }, { binding: 1, resource: { buffer: places_buffer } }] });
    const vertex_groups = draw_vertex.map((p) => device.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: view_buffer } }, { binding: 1, resource: { buffer: places_buffer } }, { binding: 2, resource: { buffer: palette } }] }));
    const color = device.createTexture({ label: "colour", size: [width, height], format: "rgba8unorm", usage: GPUTextureUsage.RENDER_ATTACHMENT });
    const depth = device.createTexture({ label: "depth", size: [width, height], format: "depth32float", usage: GPUTextureUsage.RENDER_ATTACHMENT });
    const query = timed ? device.createQuerySet({ type: "timestamp", count: 2 }) : null;
    const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

    async function frame(path: "compute" | "vertex", passes: number): Promise<number> {
        const encoder = device.createCommandEncoder();
        let first = true;
        // the frame's first pass writes the start, its last the end; passes between write none
        const stamp = (last: boolean): GPURenderPassTimestampWrites | undefined =>
            query === null || (!first && !last) ? undefined : { querySet: query, beginningOfPassWriteIndex: first ? 0 : undefined, endOfPassWriteIndex: last ? 1 : undefined };
        if (path === "compute") {
            const pass = encoder.beginComputePass({ timestampWrites: stamp(false) });
            first = false;
            pass.setPipeline(compute);
            pass.setBindGroup(0, compute_group);
            pass.dispatchWorkgroups(Math.ceil(vc / 64), COUNT);
            pass.end();
        }
        for (let p = 0; p < passes; p++) {
            // the second pass stands for the velocity product: vertex skinning there skins twice (this and last frame)
            const skins = path === "vertex" && p === 1 ? 2 : 1;
            const pass = encoder.beginRenderPass({
                colorAttachments: [{ view: color.createView(), loadOp: "clear", storeOp: "store", clearValue: [0, 0, 0, 1] }],
                depthStencilAttachment: { view: depth.createView(), depthLoadOp: "clear", depthStoreOp: "store", depthClearValue: 1 },
                timestampWrites: stamp(p === passes - 1),
            });
            first = false;
            pass.setIndexBuffer(index, index_format);
            if (path === "compute") {
                pass.setPipeline(draw_skinned);
                pass.setBindGroup(0, skinned_group);
                for (let i = 0; i < COUNT; i++) {
                    pass.setVertexBuffer(0, skinned_positions, i * vc * 12);
                    pass.setVertexBuffer(1, skinned_normals, i * vc * 12);
                    pass.drawIndexed(index_count, 1, 0, 0, i);
                }
            } else {
                pass.setPipeline(draw_vertex[skins - 1]);
                pass.setBindGroup(0, vertex_groups[skins - 1]);
                pass.setVertexBuffer(0, positions);
                pass.setVertexBuffer(1, normals);
                pass.setVertexBuffer(2, joints);
                pass.setVertexBuffer(3, weights);
                for (let i = 0; i < COUNT; i++) pass.drawIndexed(index_count, 1, 0, 0, i);
            }
            pass.end();
        }
        if (query !== null) {
            encoder.resolveQuerySet(query, 0, 2, resolve, 0);
            encoder.copyBufferToBuffer(resolve, 0, read, 0, 16);
        }
        device.queue.submit([encoder.finish()]);
        if (query === null) {
            await device.queue.onSubmittedWorkDone();
            return Number.NaN;
        }
        await read.mapAsync(GPUMapMode.READ);
        const t = new BigUint64Array(read.getMappedRange());
        const ms = Number(t[1] - t[0]) / 1e6;
        read.unmap();
        return ms;
    }

    const info = adapter.info;
    console.log(`adapter: ${info.vendor} ${info.architecture} ${info.device}; ${width}x${height}; ${COUNT} Foxes (${vc} vertices, 24 joints); ${FRAMES} frames after 20; timestamps ${timed ? "not quantized" : "unavailable"}`);
    for (const passes of PASSES) {
        const results: Record<string, number> = {};
        for (const path of ["compute", "vertex"] as const) {
            for (let f = 0; f < 20; f++) await frame(path, passes);
            const times: number[] = [];
            for (let f = 0; f < FRAMES; f++) times.push(await frame(path, passes));
            results[path] = median(times);
        }
        console.log(`${passes} mesh pass(es): compute skinning + draws ${results.compute.toFixed(3)} ms, vertex skinning in every pass ${results.vertex.toFixed(3)} ms (vertex / compute ${(results.vertex / results.compute).toFixed(2)})`);
    }
    model.destroy();
    device.destroy();
}

main().then(
    () => process.exit(0),
    (error: unknown) => {
        console.error(error);
        process.exit(1);
    },
);
