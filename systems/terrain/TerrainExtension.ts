import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension, type RenderExtensionOwner } from "../../shade/renderer/extension/RenderExtension.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";
import { CAMERA_BYTES } from "../../shade/renderer/scene/Camera.js";
import { GBUFFER_FORMATS } from "../../shade/renderer/steps/GBufferStep.js";
import type { TerrainDraw, TerrainGPU } from "./TerrainDraw.js";
import { TERRAIN_VERTEX_FLOATS } from "./TerrainGrid.js";
import { terrain_noise_texels, TERRAIN_NOISE_SIZE } from "./terrain_noise.js";
import { TERRAIN_WGSL } from "./terrain.wgsl.js";

/** What the extension draws: the system's terrains; the owner named in errors. */
export interface TerrainSource extends RenderExtensionOwner {
    readonly draws: readonly TerrainDraw[];
}

interface DrawData {
    camera: GPUBuffer | null;
    albedo: FrameGraphHandle;
    normal: FrameGraphHandle;
    material: FrameGraphHandle;
    object_id: FrameGraphHandle;
    depth: FrameGraphHandle;
}

interface DeviceState {
    readonly device: GPUDevice;
    readonly layout: GPUBindGroupLayout;
    readonly pipeline: GPURenderPipeline;
    /** The noise lattice every terrain's shading fetches (terrain_noise.ts), and its repeating sampler. */
    readonly noise: GPUTexture;
    readonly sampler: GPUSampler;
}

/**
 * Draws the terrains of a `TerrainSystem` into the G-buffer at AfterGBuffer: one pass, "terrain / draw", that
 * writes new versions of the four G-buffer targets and depth, loading what the G-buffer step left (so meshes
 * in front of the ground keep their pixels: the terrain is depth-tested against them) and publishes them.
 * The pixels it covers are encoded exactly as the mesh G-buffer encodes a lit mesh, so the deferred lighting
 * shades the ground like any other surface.
 */
export class TerrainExtension extends RenderExtension {
    name = "terrain";
    phase = FramePhase.AfterGBuffer;

    readonly #source: TerrainSource;
    #state: DeviceState | null = null;
    #destroyed = false;
    readonly #data: DrawData = { camera: null, albedo: -1, normal: -1, material: -1, object_id: -1, depth: -1 };
    readonly #execute: (data: DrawData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "terrain / draw", colorAttachments: this.#colors };

    constructor(source: TerrainSource) {
        super(source);
        this.#source = source;
        this.#execute = (data, resources, execution) => this.#encode(data, resources, execution);
    }

    override record(frame: FrameContext): void {
        if (this.#destroyed) throw new Error("TerrainExtension 'terrain' used after destroy(); build a new one (a new TerrainSystem startup)");
        if (this.#source.draws.length === 0) return; // no terrain: the G-buffer stays exactly as it was
        const g = frame.get(GBufferTextures);
        const view = frame.get(ViewTextures);
        const data = this.#data;
        data.camera = frame.view.camera.buffer;
        const pass = frame.graph.add("terrain / draw", data, this.#execute);
        data.albedo = pass.write(g.albedo, "load");
        data.normal = pass.write(g.normal, "load");
        data.material = pass.write(g.material, "load");
        data.object_id = pass.write(g.object_id, "load");
        data.depth = pass.write(view.depth, "load");
        g.albedo = data.albedo;
        g.normal = data.normal;
        g.material = data.material;
        g.object_id = data.object_id;
        view.depth = data.depth;
    }

    override destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        this.#state?.noise.destroy();
        this.#state = null;
        this.#data.camera = null;
        this.#colors.length = 0;
    }

    #encode(data: DrawData, resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#device_state(device);
        const colors = this.#colors;
        colors[0] = resources.color_attachment(data.albedo);
        colors[1] = resources.color_attachment(data.normal);
        colors[2] = resources.color_attachment(data.material);
        colors[3] = resources.color_attachment(data.object_id);
        this.#descriptor.depthStencilAttachment = resources.depth_attachment(data.depth);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const draws = this.#source.draws;
        // uploads before the pass begins (queue writes are ordered before this frame's submit)
        for (let i = 0; i < draws.length; i++) this.#gpu(state, draws[i], data.camera!);
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setPipeline(state.pipeline);
        for (let i = 0; i < draws.length; i++) {
            const gpu = draws[i].gpu!;
            pass.setBindGroup(0, gpu.group!);
            pass.setVertexBuffer(0, gpu.vertices);
            pass.setIndexBuffer(gpu.indices, "uint32");
            pass.drawIndexed(gpu.index_count);
        }
        pass.end();
    }

    #gpu(state: DeviceState, draw: TerrainDraw, camera: GPUBuffer): TerrainGPU {
        let gpu = draw.gpu;
        if (gpu === null || gpu.device !== state.device || gpu.generation !== draw.generation) {
            draw.release();
            const device = state.device;
            const grid = draw.grid;
            const vertices = device.createBuffer({
                label: `terrain ${draw.eid} vertices`,
                size: grid.vertices.byteLength,
                usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
            });
            const indices = device.createBuffer({
                label: `terrain ${draw.eid} indices`,
                size: grid.indices.byteLength,
                usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST,
            });
            const uniform = device.createBuffer({
                label: `terrain ${draw.eid} uniforms`,
                size: draw.uniform.byteLength,
                usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
            });
            device.queue.writeBuffer(vertices, 0, grid.vertices);
            device.queue.writeBuffer(indices, 0, grid.indices);
            device.queue.writeBuffer(uniform, 0, draw.uniform);
            gpu = { device, generation: draw.generation, vertices, indices, uniform, index_count: grid.indices.length, group: null, group_camera: null };
            draw.gpu = gpu;
        }
        if (gpu.group_camera !== camera) {
            gpu.group = state.device.createBindGroup({
                label: `terrain ${draw.eid} bind group`,
                layout: state.layout,
                entries: [
                    { binding: 0, resource: { buffer: camera, size: CAMERA_BYTES } },
                    { binding: 1, resource: { buffer: gpu.uniform } },
                    { binding: 2, resource: state.noise.createView({ label: "terrain noise lattice view" }) },
                    { binding: 3, resource: state.sampler },
                ],
            });
            gpu.group_camera = camera;
        }
        return gpu;
    }

    #device_state(device: GPUDevice): DeviceState {
        const current = this.#state;
        if (current !== null && current.device === device) return current;
        const layout = device.createBindGroupLayout({
            label: "terrain bind group layout",
            entries: [
                { binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
                { binding: 1, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } },
                { binding: 2, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "float" } },
                { binding: 3, visibility: GPUShaderStage.FRAGMENT, sampler: { type: "filtering" } },
            ],
        });
        const size = TERRAIN_NOISE_SIZE;
        const noise = device.createTexture({
            label: "terrain noise lattice",
            size: [size, size],
            format: "r8unorm",
            usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
        });
        device.queue.writeTexture({ texture: noise }, terrain_noise_texels(size), { bytesPerRow: size }, [size, size]);
        const sampler = device.createSampler({
            label: "terrain noise sampler",
            addressModeU: "repeat",
            addressModeV: "repeat",
            magFilter: "linear",
            minFilter: "linear",
        });
        const module = device.createShaderModule({ label: "terrain shader", code: TERRAIN_WGSL });
        const pipeline = device.createRenderPipeline({
            label: "terrain pipeline",
            layout: device.createPipelineLayout({ label: "terrain pipeline layout", bindGroupLayouts: [layout] }),
            vertex: {
                module,
                entryPoint: "vs_terrain",
                buffers: [
                    {
                        arrayStride: TERRAIN_VERTEX_FLOATS * 4,
                        attributes: [
                            { shaderLocation: 0, offset: 0, format: "float32x3" },
                            { shaderLocation: 1, offset: 12, format: "float32x3" },
                        ],
                    },
                ],
            },
            fragment: {
                module,
                entryPoint: "fs_terrain",
                targets: [
                    { format: GBUFFER_FORMATS.albedo },
                    { format: GBUFFER_FORMATS.normal },
                    { format: GBUFFER_FORMATS.material },
                    { format: GBUFFER_FORMATS.object_id },
                ],
            },
            primitive: { topology: "triangle-list", cullMode: "back", frontFace: "ccw" },
            depthStencil: { format: GBUFFER_FORMATS.depth, depthWriteEnabled: true, depthCompare: "less" },
        });
        this.#state?.noise.destroy();
        const state: DeviceState = { device, layout, pipeline, noise, sampler };
        this.#state = state;
        return state;
    }
}
