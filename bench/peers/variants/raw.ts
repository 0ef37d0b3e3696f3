// The peers benchmark's floor (issue 14): the workload in hand-written WebGPU. Everything is built once in
// create(): buffers, pipelines, bind group, the render pass descriptor. Per frame: one writeBuffer of every
// ribbon vertex (update), then one pass with two draws (render): 1,000 instanced boxes plus the ground as one
// more instance of the box (a flat slab), and all 2,000 ribbons as one indexed triangle list, alpha-blended,
// depth-tested without depth writes.
import { mat4 } from "gl-matrix";
import {
    BOX_COUNT,
    CAMERA,
    CLEAR_COLOR,
    GROUND_COLOR,
    GROUND_SIZE,
    HEIGHT,
    LIGHT_DIRECTION,
    RIBBON_COUNT,
    RIBBON_HALF_WIDTH,
    RIBBON_POINTS,
    RIBBON_SEGMENTS,
    WIDTH,
    ribbon_centres,
    type PeerVariant,
    type Workload,
} from "../workload.js";

const SHADER = /* wgsl */ `
struct Uniforms { view_projection: mat4x4f, light: vec4f };
@group(0) @binding(0) var<uniform> u: Uniforms;

struct BoxOut { @builtin(position) position: vec4f, @location(0) color: vec3f };

@vertex fn box_vs(@location(0) corner: vec3f, @location(1) normal: vec3f,
                  @location(2) centre: vec3f, @location(3) size: vec3f, @location(4) color: vec3f) -> BoxOut {
    var out: BoxOut;
    out.position = u.view_projection * vec4f(centre + corner * size, 1.0);
    out.color = color * (max(dot(normal, u.light.xyz), 0.0) * 0.8 + 0.2);
    return out;
}
@fragment fn box_fs(in: BoxOut) -> @location(0) vec4f { return vec4f(in.color, 1.0); }

struct RibbonOut { @builtin(position) position: vec4f, @location(0) color: vec4f };

@vertex fn ribbon_vs(@location(0) position: vec3f, @location(1) color: vec4f) -> RibbonOut {
    var out: RibbonOut;
    out.position = u.view_projection * vec4f(position, 1.0);
    out.color = color;
    return out;
}
@fragment fn ribbon_fs(in: RibbonOut) -> @location(0) vec4f { return vec4f(in.color.rgb * in.color.a, in.color.a); }
`;

/** Unit cube corners (+/- 0.5) with face normals, 36 vertices, counter-clockwise from outside. */
function cube_vertices(): Float32Array {
    const faces: [number[], number[], number[]][] = [
        // normal, u axis, v axis (u x v = normal)
        [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
        [[-1, 0, 0], [0, 0, 1], [0, 1, 0]],
        [[0, 1, 0], [1, 0, 0], [0, 0, -1]],
        [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
        [[0, 0, 1], [1, 0, 0], [0, 1, 0]],
        [[0, 0, -1], [-1, 0, 0], [0, 1, 0]],
    ];
    const out = new Float32Array(36 * 6);
    let w = 0;
    for (const [n, a, b] of faces) {
        const corner = (su: number, sv: number) => {
            for (let k = 0; k < 3; k++) out[w++] = n[k] * 0.5 + a[k] * su * 0.5 + b[k] * sv * 0.5;
            for (let k = 0; k < 3; k++) out[w++] = n[k];
        };
        corner(-1, -1); corner(1, -1); corner(1, 1);
        corner(-1, -1); corner(1, 1); corner(-1, 1);
    }
    return out;
}

const RIBBON_VERTICES = RIBBON_COUNT * RIBBON_POINTS * 2;
const RIBBON_FLOATS = 7; // xyz, rgba

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    const adapter = await navigator.gpu.requestAdapter();
    if (adapter === null) throw new Error("raw: no WebGPU adapter");
    const device = await adapter.requestDevice({ label: "raw device" });
    canvas.width = WIDTH;
    canvas.height = HEIGHT;
    const context = canvas.getContext("webgpu");
    if (context === null) throw new Error("raw: no webgpu canvas context");
    const format = navigator.gpu.getPreferredCanvasFormat();
    context.configure({ device, format, alphaMode: "opaque" });

    // uniforms: the camera never moves, so they are written once
    const view = mat4.lookAt(mat4.create(), CAMERA.eye, CAMERA.target, [0, 1, 0]);
    const projection = mat4.perspectiveZO(mat4.create(), (CAMERA.fov_y_deg * Math.PI) / 180, WIDTH / HEIGHT, CAMERA.near, CAMERA.far);
    const uniforms = new Float32Array(20);
    mat4.multiply(uniforms.subarray(0, 16), projection, view);
    const l = Math.hypot(...LIGHT_DIRECTION);
    uniforms.set([LIGHT_DIRECTION[0] / l, LIGHT_DIRECTION[1] / l, LIGHT_DIRECTION[2] / l, 0], 16);
    const uniform_buffer = device.createBuffer({ label: "raw uniforms", size: uniforms.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(uniform_buffer, 0, uniforms);

    const cube = cube_vertices();
    const cube_buffer = device.createBuffer({ label: "raw cube", size: cube.byteLength, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(cube_buffer, 0, cube);

    // boxes, then the ground as one more (flat) instance
    const instances = new Float32Array((BOX_COUNT + 1) * 9);
    instances.set(workload.boxes);
    instances.set([0, -0.005, 0, GROUND_SIZE, 0.01, GROUND_SIZE, GROUND_COLOR[0], GROUND_COLOR[1], GROUND_COLOR[2]], BOX_COUNT * 9);
    const instance_buffer = device.createBuffer({ label: "raw box instances", size: instances.byteLength, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(instance_buffer, 0, instances);

    // ribbons: two vertices per point, a triangle list of two triangles per segment, the index built once
    const ribbon_vertices = new Float32Array(RIBBON_VERTICES * RIBBON_FLOATS);
    const ribbon_buffer = device.createBuffer({ label: "raw ribbon vertices", size: ribbon_vertices.byteLength, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
    const index = new Uint32Array(RIBBON_COUNT * RIBBON_SEGMENTS * 6);
    let k = 0;
    for (let r = 0; r < RIBBON_COUNT; r++) {
        for (let s = 0; s < RIBBON_SEGMENTS; s++) {
            const a = (r * RIBBON_POINTS + s) * 2;
            index[k++] = a; index[k++] = a + 1; index[k++] = a + 2;
            index[k++] = a + 1; index[k++] = a + 3; index[k++] = a + 2;
        }
    }
    const index_buffer = device.createBuffer({ label: "raw ribbon index", size: index.byteLength, usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(index_buffer, 0, index);
    // colours are constant per ribbon and alpha per point: written once here, only positions change per frame
    const ribbons = workload.ribbons;
    for (let r = 0; r < RIBBON_COUNT; r++) {
        for (let p = 0; p < RIBBON_POINTS; p++) {
            const alpha = ribbons[r * 8 + 7] * (1 - p / RIBBON_SEGMENTS);
            for (let side = 0; side < 2; side++) {
                const o = ((r * RIBBON_POINTS + p) * 2 + side) * RIBBON_FLOATS;
                ribbon_vertices[o + 3] = ribbons[r * 8 + 4];
                ribbon_vertices[o + 4] = ribbons[r * 8 + 5];
                ribbon_vertices[o + 5] = ribbons[r * 8 + 6];
                ribbon_vertices[o + 6] = alpha;
            }
        }
    }

    const module = device.createShaderModule({ label: "raw shader", code: SHADER });
    const bind_group_layout = device.createBindGroupLayout({
        label: "raw bind group layout",
        entries: [{ binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform" } }],
    });
    const layout = device.createPipelineLayout({ label: "raw pipeline layout", bindGroupLayouts: [bind_group_layout] });
    const bind_group = device.createBindGroup({ label: "raw bind group", layout: bind_group_layout, entries: [{ binding: 0, resource: { buffer: uniform_buffer } }] });
    const box_pipeline = device.createRenderPipeline({
        label: "raw box pipeline",
        layout,
        vertex: {
            module,
            entryPoint: "box_vs",
            buffers: [
                { arrayStride: 24, attributes: [{ shaderLocation: 0, offset: 0, format: "float32x3" }, { shaderLocation: 1, offset: 12, format: "float32x3" }] },
                {
                    arrayStride: 36,
                    stepMode: "instance",
                    attributes: [
                        { shaderLocation: 2, offset: 0, format: "float32x3" },
                        { shaderLocation: 3, offset: 12, format: "float32x3" },
                        { shaderLocation: 4, offset: 24, format: "float32x3" },
                    ],
                },
            ],
        },
        fragment: { module, entryPoint: "box_fs", targets: [{ format }] },
        primitive: { topology: "triangle-list", cullMode: "back" },
        depthStencil: { format: "depth24plus", depthWriteEnabled: true, depthCompare: "less" },
    });
    const ribbon_pipeline = device.createRenderPipeline({
        label: "raw ribbon pipeline",
        layout,
        vertex: {
            module,
            entryPoint: "ribbon_vs",
            buffers: [
                {
                    arrayStride: RIBBON_FLOATS * 4,
                    attributes: [{ shaderLocation: 0, offset: 0, format: "float32x3" }, { shaderLocation: 1, offset: 12, format: "float32x4" }],
                },
            ],
        },
        fragment: {
            module,
            entryPoint: "ribbon_fs",
            targets: [
                {
                    format,
                    blend: {
                        color: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
                        alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
                    },
                },
            ],
        },
        primitive: { topology: "triangle-list", cullMode: "none" },
        depthStencil: { format: "depth24plus", depthWriteEnabled: false, depthCompare: "less" },
    });

    const depth = device.createTexture({ label: "raw depth", size: [WIDTH, HEIGHT], format: "depth24plus", usage: GPUTextureUsage.RENDER_ATTACHMENT });
    const color_attachment: GPURenderPassColorAttachment = {
        view: context.getCurrentTexture().createView(),
        clearValue: { r: CLEAR_COLOR[0], g: CLEAR_COLOR[1], b: CLEAR_COLOR[2], a: 1 },
        loadOp: "clear",
        storeOp: "store",
    };
    const pass_descriptor: GPURenderPassDescriptor = {
        label: "raw / frame",
        colorAttachments: [color_attachment],
        depthStencilAttachment: { view: depth.createView({ label: "raw depth view" }), depthClearValue: 1, depthLoadOp: "clear", depthStoreOp: "discard" },
    };
    const encoder_descriptor: GPUCommandEncoderDescriptor = { label: "raw frame" };
    const command_buffers: GPUCommandBuffer[] = [];
    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    const half = RIBBON_HALF_WIDTH;

    return {
        device,
        update(t: number): void {
            ribbon_centres(ribbons, t, centres);
            const v = ribbon_vertices;
            const n = RIBBON_COUNT * RIBBON_POINTS;
            for (let i = 0; i < n; i++) {
                const c = i * 3;
                const o = i * 2 * RIBBON_FLOATS;
                const x = centres[c];
                const y = centres[c + 1];
                const z = centres[c + 2];
                v[o] = x - half;
                v[o + 1] = y;
                v[o + 2] = z;
                v[o + RIBBON_FLOATS] = x + half;
                v[o + RIBBON_FLOATS + 1] = y;
                v[o + RIBBON_FLOATS + 2] = z;
            }
            // (ArrayBuffer, offset, size): given the Float32Array itself, Chrome leaves ~50 KB of garbage per call
            device.queue.writeBuffer(ribbon_buffer, 0, v.buffer, 0, v.byteLength);
        },
        render(): void {
            color_attachment.view = context.getCurrentTexture().createView();
            const encoder = device.createCommandEncoder(encoder_descriptor);
            const pass = encoder.beginRenderPass(pass_descriptor);
            pass.setBindGroup(0, bind_group);
            pass.setPipeline(box_pipeline);
            pass.setVertexBuffer(0, cube_buffer);
            pass.setVertexBuffer(1, instance_buffer);
            pass.draw(36, BOX_COUNT + 1);
            pass.setPipeline(ribbon_pipeline);
            pass.setVertexBuffer(0, ribbon_buffer);
            pass.setIndexBuffer(index_buffer, "uint32");
            pass.drawIndexed(index.length);
            pass.end();
            command_buffers[0] = encoder.finish();
            device.queue.submit(command_buffers);
        },
    };
}
