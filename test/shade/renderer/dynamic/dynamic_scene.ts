// A tiny stand-in for the renderer's frame around GPUDynamicMeshRenderer: a scene colour and a scene depth
// (imported textures, filled before the graph runs), a Camera, and a frame graph built by hand.
import { vec3 } from "gl-matrix";
import { FrameGraph } from "../../../../shade/device/graph/FrameGraph.js";
import type { FrameGraphHandle } from "../../../../shade/device/graph/FrameGraphHandle.js";
import { GPUTextureAllocator } from "../../../../shade/device/graph/GPUTextureAllocator.js";
import { execute_frame_graph } from "../../../../shade/device/graph/execute_frame_graph.js";
import type { GPUDynamicMeshRenderer } from "../../../../shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import { Camera } from "../../../../shade/renderer/scene/Camera.js";
import type { DynamicMeshBatch } from "../../../../shade/renderer/scene/DynamicMeshBatch.js";
import type { TrackFn } from "../../../harness/index.js";

export interface DynamicSceneOptions {
    readonly width: number;
    readonly height: number;
    readonly format: GPUTextureFormat;
    /** The scene colour every frame starts from. */
    readonly scene_color: GPUColorDict;
    /** Depth everywhere, except under the near quad. */
    readonly clear_depth: number;
    /** Depth of a quad over the left half of the screen; omitted: no quad. */
    readonly near_depth?: number;
}

export interface FrameHandles {
    readonly color: FrameGraphHandle;
    readonly depth: FrameGraphHandle;
}

/** Scene colour + depth + camera + graph on one device; `frame` runs one frame of the graph. */
export class DynamicScene {
    readonly device: GPUDevice;
    readonly options: DynamicSceneOptions;
    readonly color: GPUTexture;
    readonly depth: GPUTexture;
    readonly camera = new Camera();
    readonly graph: FrameGraph;
    readonly #depth_pipeline: GPURenderPipeline;
    readonly #fill_color: GPURenderPassDescriptor;
    readonly #fill_depth: GPURenderPassDescriptor;
    readonly #near_buffer: GPUBuffer;

    constructor(device: GPUDevice, track: TrackFn, options: DynamicSceneOptions) {
        this.device = device;
        this.options = options;
        const size = [options.width, options.height];
        this.color = track(
            device.createTexture({
                label: "test scene colour",
                size,
                format: options.format,
                usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING,
            }),
        );
        this.depth = track(
            device.createTexture({
                label: "test scene depth",
                size,
                format: "depth32float",
                usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING,
            }),
        );
        vec3.set(this.camera.position, 0, 0, 3);
        vec3.set(this.camera.target, 0, 0, 0);
        this.camera.update(options.width, options.height);
        this.camera.bind(device);
        this.graph = new FrameGraph(new GPUTextureAllocator(device));

        const module = device.createShaderModule({
            label: "test near quad",
            code: /* wgsl */ `
@group(0) @binding(0) var<uniform> near_depth: vec4f;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    // left half of the screen: x in [-1, 0]
    var corners = array<vec2f, 6>(vec2f(-1, -1), vec2f(0, -1), vec2f(0, 1), vec2f(-1, -1), vec2f(0, 1), vec2f(-1, 1));
    return vec4f(corners[i], near_depth.x, 1.0);
}`,
        });
        this.#depth_pipeline = device.createRenderPipeline({
            label: "test near quad pipeline",
            layout: "auto",
            vertex: { module, entryPoint: "vs_main" },
            depthStencil: { format: "depth32float", depthWriteEnabled: true, depthCompare: "always" },
            primitive: { topology: "triangle-list" },
        });
        this.#near_buffer = track(device.createBuffer({ label: "test near depth", size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }));
        device.queue.writeBuffer(this.#near_buffer, 0, new Float32Array([options.near_depth ?? 0, 0, 0, 0]));
        this.#fill_color = {
            label: "test fill colour",
            colorAttachments: [{ view: this.color.createView(), loadOp: "clear", storeOp: "store", clearValue: options.scene_color }],
        };
        this.#fill_depth = {
            label: "test fill depth",
            colorAttachments: [],
            depthStencilAttachment: {
                view: this.depth.createView(),
                depthLoadOp: "clear",
                depthStoreOp: "store",
                depthClearValue: options.clear_depth,
            },
        };
    }

    /** Resets the scene colour and depth to the options' picture. */
    fill(): void {
        const device = this.device;
        const encoder = device.createCommandEncoder({ label: "test fill scene" });
        encoder.beginRenderPass(this.#fill_color).end();
        const pass = encoder.beginRenderPass(this.#fill_depth);
        if (this.options.near_depth !== undefined) {
            pass.setPipeline(this.#depth_pipeline);
            pass.setBindGroup(
                0,
                device.createBindGroup({ layout: this.#depth_pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: this.#near_buffer } }] }),
            );
            pass.draw(6);
        }
        pass.end();
        device.queue.submit([encoder.finish()]);
    }

    /** Starts a frame: imports the scene colour and depth. */
    begin(): FrameHandles {
        return {
            color: this.graph.import_texture("scene colour", this.color),
            depth: this.graph.import_texture("scene depth", this.depth),
        };
    }

    /** Runs and resets the graph; returns the number of passes run. */
    end(): number {
        const ran = execute_frame_graph(this.graph, this.device);
        this.graph.reset();
        return ran;
    }

    /** Executes a graph the test already compiled, and resets it. */
    execute_compiled(): number {
        const encoder = this.device.createCommandEncoder({ label: "test frame" });
        const ran = this.graph.execute({ graphics: this.device, encoder });
        this.device.queue.submit([encoder.finish()]);
        this.graph.reset();
        return ran;
    }

    /** fill + one frame of `renderer.graph_draw(batch)`; returns the passes run. */
    draw(renderer: GPUDynamicMeshRenderer, batch: DynamicMeshBatch): number {
        this.fill();
        const frame = this.begin();
        renderer.graph_draw({ graph: this.graph, batch, color: frame.color, depth: frame.depth, camera: this.camera.buffer });
        return this.end();
    }

    destroy(): void {
        this.graph.destroy();
        this.camera.unbind();
    }
}
