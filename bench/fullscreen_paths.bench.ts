// Full-screen passes: a fragment shader over a covering triangle against a compute shader over 8x8 tiles, the
// same arithmetic, at 1920x1080, timed by GPU timestamps (Dawn's timestamp quantization off). Three kinds of
// work: one texel in, one out (tonemap), nine taps (sharpen), and a long loop of ALU per pixel (lighting-like);
// outputs rgba16float (scene colour) and rgba8unorm (an LDR target); raster into a texture that also has
// STORAGE_BINDING usage, to see whether that usage alone slows the raster path.
//
//   npx esbuild bench/fullscreen_paths.bench.ts --bundle --platform=node --format=esm --external:webgpu \
//       --outfile=bench/output/fullscreen_paths.mjs && node bench/output/fullscreen_paths.mjs
//   knobs: BENCH_SIZE=1920x1080 BENCH_PASSES=64 BENCH_ROUNDS=7
import * as dawn from "webgpu";

Object.assign(globalThis, dawn.globals);

const [width, height] = (process.env.BENCH_SIZE ?? "1920x1080").split("x").map(Number);
const PASSES = Number(process.env.BENCH_PASSES ?? 64);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

interface Work {
    readonly name: string;
    /** WGSL body computing `color: vec4f` from `pixel: vec2i` (reads `src` with textureLoad). */
    readonly body: string;
}

const WORK: Work[] = [
    { name: "1 tap", body: `let c = textureLoad(src, pixel, 0); let color = vec4f(c.rgb / (c.rgb + vec3f(1.0)), 1.0);` },
    {
        name: "9 taps",
        body: `var s = vec4f(0.0);
        for (var y = -1; y <= 1; y++) { for (var x = -1; x <= 1; x++) {
            s += textureLoad(src, clamp(pixel + vec2i(x, y), vec2i(0), size - 1), 0);
        } }
        let color = textureLoad(src, pixel, 0) * 1.8 - s * (0.8 / 9.0);`,
    },
    {
        name: "ALU x64",
        body: `var c = textureLoad(src, pixel, 0).rgb;
        var acc = vec3f(0.0);
        for (var i = 0; i < 64; i++) {
            let l = normalize(vec3f(sin(f32(i)), 0.7, cos(f32(i))));
            let h = normalize(l + c);
            acc += pow(max(dot(c, h), 0.0), 8.0) * l;
        }
        let color = vec4f(acc, 1.0);`,
    },
];

function wgsl(work: Work, format: GPUTextureFormat, compute: boolean): string {
    const head = `@group(0) @binding(0) var src: texture_2d<f32>;\n`;
    if (compute) {
        return `${head}@group(0) @binding(1) var dst: texture_storage_2d<${format}, write>;
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {
    let size = vec2i(textureDimensions(dst));
    let pixel = vec2i(id.xy);
    if (pixel.x >= size.x || pixel.y >= size.y) { return; }
    ${work.body}
    textureStore(dst, pixel, color);
}`;
    }
    return `${head}
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let xy = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(xy * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
    let size = vec2i(textureDimensions(src));
    let pixel = vec2i(p.xy);
    ${work.body}
    return color;
}`;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];

const instance = dawn.create(["disable-dawn-features=timestamp_quantization"]);
const adapter = await instance.requestAdapter();
if (adapter === null) throw new Error("no WebGPU adapter");
if (!adapter.features.has("timestamp-query")) throw new Error("the adapter has no timestamp-query: no GPU times");
const device = await adapter.requestDevice({ requiredFeatures: ["timestamp-query"] });
const info = adapter.info;
console.log(`adapter: ${info.vendor} ${info.architecture} ${info.device} (${info.description}); ${width}x${height}, ${PASSES} passes per round, ${ROUNDS} rounds; timestamps not quantized`);

const src = device.createTexture({ label: "bench source", size: [width, height], format: "rgba16float", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
{
    // a smooth non-constant HDR picture (half floats written as float16 bits)
    const row = new Uint16Array(width * 4);
    const f16 = (x: number) => {
        const f = new Float32Array([x]);
        const u = new Uint32Array(f.buffer)[0];
        return ((u >> 16) & 0x8000) | ((((u >> 23) & 0xff) - 112) << 10) | ((u >> 13) & 0x3ff);
    };
    for (let x = 0; x < width; x++) {
        row[x * 4] = f16(0.1 + (x / width) * 4);
        row[x * 4 + 1] = f16(0.5);
        row[x * 4 + 2] = f16(0.25 + (x % 7) * 0.1);
        row[x * 4 + 3] = f16(1);
    }
    for (let y = 0; y < height; y++) device.queue.writeTexture({ texture: src, origin: [0, y] }, row, { bytesPerRow: width * 8 }, [width, 1]);
}
const query = device.createQuerySet({ label: "bench timestamps", type: "timestamp", count: PASSES * 2 });
const resolve = device.createBuffer({ label: "bench resolve", size: PASSES * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
const read = device.createBuffer({ label: "bench read", size: PASSES * 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

type Variant = "raster" | "raster (+storage usage)" | "compute";

async function time_variant(work: Work, format: GPUTextureFormat, variant: Variant): Promise<number> {
    const compute = variant === "compute";
    const usage = GPUTextureUsage.TEXTURE_BINDING | (compute ? GPUTextureUsage.STORAGE_BINDING : GPUTextureUsage.RENDER_ATTACHMENT) |
        (variant === "raster (+storage usage)" ? GPUTextureUsage.STORAGE_BINDING : 0);
    const dst = device.createTexture({ label: `bench ${variant} target`, size: [width, height], format, usage });
    const module = device.createShaderModule({ label: `bench ${work.name} ${variant}`, code: wgsl(work, format, compute) });
    const group_entries = [{ binding: 0, resource: src.createView() }, ...(compute ? [{ binding: 1, resource: dst.createView() }] : [])];
    let run: (encoder: GPUCommandEncoder, i: number) => void;
    if (compute) {
        const pipeline = device.createComputePipeline({ label: "bench compute", layout: "auto", compute: { module, entryPoint: "main" } });
        const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: group_entries });
        run = (encoder, i) => {
            const pass = encoder.beginComputePass({ timestampWrites: { querySet: query, beginningOfPassWriteIndex: i * 2, endOfPassWriteIndex: i * 2 + 1 } });
            pass.setPipeline(pipeline);
            pass.setBindGroup(0, group);
            pass.dispatchWorkgroups(Math.ceil(width / 8), Math.ceil(height / 8));
            pass.end();
        };
    } else {
        const pipeline = device.createRenderPipeline({
            label: "bench raster",
            layout: "auto",
            vertex: { module, entryPoint: "vs" },
            fragment: { module, entryPoint: "fs", targets: [{ format }] },
            primitive: { topology: "triangle-list" },
        });
        const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: group_entries });
        const view = dst.createView();
        run = (encoder, i) => {
            const pass = encoder.beginRenderPass({
                colorAttachments: [{ view, loadOp: "clear", storeOp: "store", clearValue: [0, 0, 0, 0] }],
                timestampWrites: { querySet: query, beginningOfPassWriteIndex: i * 2, endOfPassWriteIndex: i * 2 + 1 },
            });
            pass.setPipeline(pipeline);
            pass.setBindGroup(0, group);
            pass.draw(3);
            pass.end();
        };
    }
    const per_round: number[] = [];
    for (let r = 0; r < ROUNDS + 1; r++) {
        const encoder = device.createCommandEncoder();
        for (let i = 0; i < PASSES; i++) run(encoder, i);
        encoder.resolveQuerySet(query, 0, PASSES * 2, resolve, 0);
        encoder.copyBufferToBuffer(resolve, 0, read, 0, PASSES * 16);
        device.queue.submit([encoder.finish()]);
        await read.mapAsync(GPUMapMode.READ);
        const t = new BigUint64Array(read.getMappedRange().slice(0));
        read.unmap();
        const ms: number[] = [];
        for (let i = 0; i < PASSES; i++) ms.push(Number(t[i * 2 + 1] - t[i * 2]) / 1e6);
        if (r > 0) per_round.push(median(ms)); // round 0 warms up
    }
    dst.destroy();
    return median(per_round);
}

for (const format of ["rgba16float", "rgba8unorm"] as GPUTextureFormat[]) {
    for (const work of WORK) {
        const raster = await time_variant(work, format, "raster");
        const raster_storage = await time_variant(work, format, "raster (+storage usage)");
        const compute = await time_variant(work, format, "compute");
        console.log(
            `${format.padEnd(12)} ${work.name.padEnd(8)} | raster ${raster.toFixed(4)} ms | raster, target with storage usage ${raster_storage.toFixed(4)} ms | compute ${compute.toFixed(4)} ms | compute/raster ${(compute / raster).toFixed(2)}`,
        );
    }
}
device.destroy();
void instance;
