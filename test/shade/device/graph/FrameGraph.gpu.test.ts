// The frame graph on a real WebGPU device (Dawn on SwiftShader): pixels read back and checked.
import { describe, expect, it } from "vitest";
import { FrameGraph } from "../../../../shade/device/graph/FrameGraph.js";
import { GPUTextureAllocator } from "../../../../shade/device/graph/GPUTextureAllocator.js";
import { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import { execute_frame_graph } from "../../../../shade/device/graph/execute_frame_graph.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { expect_pixel, read_texture, with_gpu_device } from "../../../harness/index.js";

const SIZE = 64;
const TOLERANCE = 2; // 8-bit units; the arithmetic is exact up to rounding

// left half white, right half black
const pattern = new FullscreenEffect({
    label: "test / pattern",
    inputs: 0,
    format: "rgba8unorm",
    fragment: `fn effect(uv: vec2f) -> vec4f { return select(vec4f(0.0, 0.0, 0.0, 1.0), vec4f(1.0), uv.x < 0.5); }`,
});
// 5-tap box blurs with exact texel loads
const blur = (axis: string) =>
    new FullscreenEffect({
        label: `test / blur ${axis}`,
        inputs: 1,
        format: "rgba8unorm",
        fragment: `fn effect(uv: vec2f) -> vec4f {
            let p = vec2i(frag_coord);
            let d = vec2i(${axis === "x" ? "1, 0" : "0, 1"});
            return (load_input_0(p - 2 * d) + load_input_0(p - d) + load_input_0(p) + load_input_0(p + d) + load_input_0(p + 2 * d)) / 5.0;
        }`,
    });
const blur_x = blur("x");
const blur_y = blur("y");
const composite = new FullscreenEffect({
    label: "test / composite",
    inputs: 1,
    format: "rgba8unorm",
    fragment: `fn effect(uv: vec2f) -> vec4f { return load_input_0(vec2i(frag_coord)) * vec4f(1.0, 0.5, 0.25, 1.0); }`,
});

// RENDER_ATTACHMENT | TEXTURE_BINDING (the GPUTextureUsage global exists only once Dawn is loaded)
const USAGE = 0x10 | 0x04;

function record(graph: FrameGraph, target: GPUTexture, with_composite: boolean, ran: string[]) {
    const scratch = TextureResourceDescriptor.from({ resolution: [SIZE, SIZE], format: "rgba8unorm", usage: USAGE });
    const clear = graph.add("clear", null, (_d, resources, execution) => {
        ran.push("clear");
        const pass = execution.encoder.beginRenderPass({
            label: "clear",
            colorAttachments: [resources.color_attachment(cleared, { r: 0.2, g: 0.2, b: 0.2, a: 1 })],
        });
        pass.end();
    });
    const cleared = clear.write(clear.create("scene", scratch));
    const scene = pattern.graph_draw(graph, cleared);
    const horizontal = blur_x.graph_draw(graph, graph.create("blur tmp", scratch), scene);
    const vertical = blur_y.graph_draw(graph, graph.create("blur out", scratch), horizontal);
    if (with_composite) {
        const imported = graph.import_texture("target", target);
        composite.graph_draw(graph, imported, vertical);
    }
}

describe("frame graph on Dawn", () => {
    it("clear, a two-step blur through transients and a composite into an imported texture give the expected pixels", async () => {
        await with_gpu_device(async (device, track) => {
            const target = track(
                device.createTexture({
                    label: "test target",
                    size: [SIZE, SIZE],
                    format: "rgba8unorm",
                    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC,
                }),
            );
            const graph = new FrameGraph(new GPUTextureAllocator(device));
            const ran: string[] = [];
            record(graph, target, true, ran);
            expect(execute_frame_graph(graph, device)).toBe(5);
            expect(ran).toEqual(["clear"]);
            graph.reset();

            const image = await read_texture(device, target);
            const name = "frame_graph_blur_composite";
            const tint = [255, 127.5, 63.75, 255];
            const scaled = (f: number) => tint.map((c, i) => (i === 3 ? 255 : c * f));
            expect_pixel(image, 4, 10, scaled(1), TOLERANCE, name);
            expect_pixel(image, 60, 10, [0, 0, 0, 255], TOLERANCE, name);
            expect_pixel(image, 29, 40, scaled(1), TOLERANCE, name); // 27..31: all white
            expect_pixel(image, 30, 40, scaled(0.8), TOLERANCE, name); // 28..32: 4 of 5 white
            expect_pixel(image, 31, 40, scaled(0.6), TOLERANCE, name); // 29..33 -> 3 of 5
            expect_pixel(image, 32, 40, scaled(0.4), TOLERANCE, name);
            expect_pixel(image, 33, 40, scaled(0.2), TOLERANCE, name);
            // scene, blur tmp and blur out share a shape; blur out takes scene's texture once blur x has run
            expect(graph.pool.created_count).toBe(2);
            graph.destroy();
        });
    });

    it("the same graph without the composite records no GPU work at all", async () => {
        await with_gpu_device(async (device, track) => {
            const target = track(
                device.createTexture({
                    label: "untouched target",
                    size: [SIZE, SIZE],
                    format: "rgba8unorm",
                    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | GPUTextureUsage.COPY_DST,
                }),
            );
            const fill = new Uint8Array(SIZE * SIZE * 4).fill(77);
            device.queue.writeTexture({ texture: target }, fill, { bytesPerRow: SIZE * 4 }, [SIZE, SIZE]);
            const graph = new FrameGraph(new GPUTextureAllocator(device));
            const ran: string[] = [];
            record(graph, target, false, ran);
            expect(execute_frame_graph(graph, device)).toBe(0);
            expect(ran).toEqual([]);
            expect(graph.pool.created_count).toBe(0); // not even a transient texture was made
            graph.reset();
            const image = await read_texture(device, target);
            expect_pixel(image, 32, 32, [77, 77, 77, 77], 0, "frame_graph_no_work");
        });
    });

    it("depth attachments of a stencil format get stencil ops when written and stencil read-only when read", async () => {
        await with_gpu_device(async (device, track) => {
            const target = track(device.createTexture({ size: [8, 8], format: "rgba8unorm", usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC }));
            const graph = new FrameGraph(new GPUTextureAllocator(device));
            const depth_shape = TextureResourceDescriptor.from({ resolution: [8, 8], format: "depth24plus-stencil8", usage: 0x10 });
            const p1 = graph.add("depth prepass", null, (_d, resources, execution) => {
                const pass = execution.encoder.beginRenderPass({ colorAttachments: [], depthStencilAttachment: resources.depth_attachment(d1) });
                pass.end();
            });
            const d1 = p1.write(p1.create("depth stencil", depth_shape));
            const color = graph.import_texture("target", target);
            const p2 = graph.add("depth tested", null, (_d, resources, execution) => {
                const pass = execution.encoder.beginRenderPass({
                    colorAttachments: [resources.color_attachment(c1)],
                    depthStencilAttachment: resources.depth_attachment(d1),
                });
                pass.end();
            });
            p2.read(d1);
            const c1 = p2.write(color);
            expect(execute_frame_graph(graph, device)).toBe(2);
            graph.destroy();
        });
    });

    it("an imported texture's view is made once per texture and labelled with the name it was imported under", async () => {
        await with_gpu_device(async (device, track) => {
            const allocator = new GPUTextureAllocator(device);
            const make = (label: string) => track(device.createTexture({ label, size: [4, 4], format: "rgba8unorm", usage: GPUTextureUsage.RENDER_ATTACHMENT }));
            const first = make("canvas texture 1");
            const second = make("canvas texture 2");
            const view = allocator.view(first, "present target");
            expect(view.label).toBe("present target");
            expect(allocator.view(first, "another name"), "the same texture keeps its view").toBe(view);
            // the next frame's canvas texture: a view of its own, under its own name
            const next = allocator.view(second, "present target 2");
            expect(next).not.toBe(view);
            expect(next.label).toBe("present target 2");
            expect(view.label, "the first view's label is its own").toBe("present target");
            expect(allocator.view(make("unnamed")).label).toBe("imported texture view");
        });
    });
});
