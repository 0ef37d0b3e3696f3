import { BindGroupCache } from "../../shade/device/BindGroupCache.js";
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
import { TerrainExtension } from "../terrain/TerrainExtension.js";
import type { DecalAtlas } from "./DecalAtlas.js";
import { DECAL_INSTANCE_BYTES, type DecalInstances } from "./DecalInstances.js";
import { DECAL_PARAMS_BYTES, DECAL_WGSL } from "./decal.wgsl.js";

/** What the extension draws: the system's instance records and atlas; the owner named in errors. */
export interface DecalSource extends RenderExtensionOwner {
    readonly instances: DecalInstances;
    readonly atlas: DecalAtlas;
}

export interface DecalFadeOptions {
    /** Angle (degrees) between the surface normal and the projection axis up to which a decal is at full strength. Default 45. */
    readonly fade_start_degrees?: number;
    /** Angle (degrees) from which it is gone: steeper surfaces get nothing (no stretched smears). Default 75. */
    readonly fade_end_degrees?: number;
    /** Fraction of the half depth of the box from which the mark fades toward its top and bottom, 0..1. Default 0.7. */
    readonly depth_fade?: number;
}

interface DrawData {
    camera: GPUBuffer | null;
    depth: FrameGraphHandle;
    material: FrameGraphHandle;
    normal: FrameGraphHandle;
    albedo: FrameGraphHandle;
}

interface DeviceState {
    readonly device: GPUDevice;
    readonly layout: GPUBindGroupLayout;
    readonly pipeline: GPURenderPipeline;
    readonly sampler: GPUSampler;
    readonly atlas: GPUTexture;
    readonly atlas_view: GPUTextureView;
    readonly params: GPUBuffer;
    instances: GPUBuffer;
    generation: number;
    readonly groups: BindGroupCache;
}

/** Albedo blended over, its alpha (coverage) kept. */
const DECAL_BLEND: GPUBlendState = {
    color: { srcFactor: "src-alpha", dstFactor: "one-minus-src-alpha", operation: "add" },
    alpha: { srcFactor: "zero", dstFactor: "one", operation: "add" },
};

/**
 * Draws the decals of a `DecalSystem` into the G-buffer's albedo at AfterGBuffer, after the terrain (so the
 * marks lie on the textured ground, not under it). One pass, "decals / draw": it reads depth, the normal
 * target (sampled) and the material target's flags (decals land only on receivers: `GBufferFlags.receives_decals`,
 * set by the terrain and by meshes with `receive_decals`), writes a new version of the albedo target (loading it and blending over) and publishes
 * it; the normal, the integer targets (material, object id) and depth are left exactly as they were.
 *
 * All decals are one instanced draw from a storage buffer (one record per decal); the records that changed
 * since the last frame are uploaded, nothing when none did.
 */
export class DecalExtension extends RenderExtension {
    name = "decals";
    phase = FramePhase.AfterGBuffer;
    override after = [TerrainExtension];

    readonly #source: DecalSource;
    readonly #fade = new Float32Array(4);
    #state: DeviceState | null = null;
    #destroyed = false;
    #uploaded = 0;
    readonly #data: DrawData = { camera: null, depth: -1, normal: -1, material: -1, albedo: -1 };
    readonly #keys: unknown[] = [null, null, null, null, null];
    readonly #execute: (data: DrawData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "decals / draw", colorAttachments: this.#colors };

    constructor(source: DecalSource, options: DecalFadeOptions = {}) {
        super(source);
        this.#source = source;
        const start = options.fade_start_degrees ?? 45;
        const end = options.fade_end_degrees ?? 75;
        const depth_fade = options.depth_fade ?? 0.7;
        if (!(start >= 0 && end > start && end <= 180)) throw new RangeError(`DecalExtension: need 0 <= fade_start_degrees < fade_end_degrees <= 180, got ${start} and ${end}`);
        if (!(depth_fade >= 0 && depth_fade < 1)) throw new RangeError(`DecalExtension: depth_fade must be in 0..1 (exclusive of 1), got ${depth_fade}`);
        this.#fade[0] = Math.cos((start * Math.PI) / 180);
        this.#fade[1] = Math.cos((end * Math.PI) / 180);
        this.#fade[2] = depth_fade;
        this.#execute = (data, resources, execution) => this.#encode(data, resources, execution);
    }

    /** Instance records uploaded by the last frame (0 when nothing changed). For tests and diagnostics. */
    get last_upload_count(): number {
        return this.#uploaded;
    }

    override record(frame: FrameContext): void {
        if (this.#destroyed) throw new Error(`DecalExtension '${this.name}' used after destroy(); build a new one (a new DecalSystem startup)`);
        if (this.#source.instances.count === 0) return; // no decals: the albedo stays exactly as it was
        const g = frame.get(GBufferTextures);
        const data = this.#data;
        data.camera = frame.view.camera.buffer;
        const pass = frame.graph.add("decals / draw", data, this.#execute);
        data.depth = pass.read(frame.get(ViewTextures).depth);
        data.normal = pass.read(g.normal);
        data.material = pass.read(g.material);
        data.albedo = pass.write(g.albedo, "load");
        g.albedo = data.albedo;
    }

    /**
     * Brings `device`'s instance buffer up to date (the dirty range, or everything after a new device or a
     * growth). What the draw pass does first; on its own for timing the upload path.
     */
    upload(device: GPUDevice): void {
        const state = this.#device_state(device);
        const instances = this.#source.instances;
        if (state.generation !== instances.generation) {
            state.instances.destroy();
            state.instances = make_instance_buffer(device, instances.capacity);
            state.generation = instances.generation;
            state.groups.clear();
            instances.mark_all();
        }
        const from = instances.dirty_from;
        const to = Math.min(instances.dirty_to, instances.count);
        this.#uploaded = 0;
        if (to > from) {
            device.queue.writeBuffer(state.instances, from * DECAL_INSTANCE_BYTES, instances.data.buffer, instances.data.byteOffset + from * DECAL_INSTANCE_BYTES, (to - from) * DECAL_INSTANCE_BYTES);
            this.#uploaded = to - from;
        }
        instances.clear_dirty();
    }

    override destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        this.#release();
        this.#data.camera = null;
        this.#colors.length = 0;
    }

    #encode(data: DrawData, resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        this.upload(device);
        const state = this.#state!;
        const keys = this.#keys;
        keys[0] = data.camera;
        keys[1] = state.instances;
        keys[2] = resources.view(data.depth);
        keys[3] = resources.view(data.normal);
        keys[4] = resources.view(data.material);
        let group = state.groups.find(keys);
        if (group === null) {
            group = state.groups.add(
                keys,
                device.createBindGroup({
                    label: "decals bind group",
                    layout: state.layout,
                    entries: [
                        { binding: 0, resource: { buffer: data.camera!, size: CAMERA_BYTES } },
                        { binding: 1, resource: { buffer: state.params } },
                        { binding: 2, resource: { buffer: state.instances } },
                        { binding: 3, resource: state.atlas_view },
                        { binding: 4, resource: state.sampler },
                        { binding: 5, resource: keys[2] as GPUTextureView },
                        { binding: 6, resource: keys[3] as GPUTextureView },
                        { binding: 7, resource: keys[4] as GPUTextureView },
                    ],
                }),
            );
        }
        this.#colors[0] = resources.color_attachment(data.albedo);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setPipeline(state.pipeline);
        pass.setBindGroup(0, group);
        pass.draw(36, this.#source.instances.count);
        pass.end();
    }

    #device_state(device: GPUDevice): DeviceState {
        const current = this.#state;
        if (current !== null && current.device === device) return current;
        this.#release();
        const F = GPUShaderStage.FRAGMENT;
        const V = GPUShaderStage.VERTEX;
        const layout = device.createBindGroupLayout({
            label: "decals bind group layout",
            entries: [
                { binding: 0, visibility: V | F, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
                { binding: 1, visibility: F, buffer: { type: "uniform" } },
                { binding: 2, visibility: V | F, buffer: { type: "read-only-storage" } },
                { binding: 3, visibility: F, texture: { sampleType: "float" } },
                { binding: 4, visibility: F, sampler: { type: "filtering" } },
                { binding: 5, visibility: F, texture: { sampleType: "depth" } },
                { binding: 6, visibility: F, texture: { sampleType: "unfilterable-float" } },
                { binding: 7, visibility: F, texture: { sampleType: "uint" } },
            ],
        });
        const module = device.createShaderModule({ label: "decals shader", code: DECAL_WGSL });
        const pipeline = device.createRenderPipeline({
            label: "decals pipeline",
            layout: device.createPipelineLayout({ label: "decals pipeline layout", bindGroupLayouts: [layout] }),
            vertex: { module, entryPoint: "vs_decal" },
            fragment: { module, entryPoint: "fs_decal", targets: [{ format: GBUFFER_FORMATS.albedo, blend: DECAL_BLEND }] },
            // back faces only: covers the box's pixels once, also with the camera inside it
            primitive: { topology: "triangle-list", cullMode: "front", frontFace: "ccw" },
        });
        const source = this.#source.atlas;
        const atlas = device.createTexture({
            label: "decals atlas",
            size: [source.width, source.height],
            format: "rgba8unorm",
            usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
        });
        device.queue.writeTexture({ texture: atlas }, source.pixels, { bytesPerRow: source.width * 4 }, [source.width, source.height]);
        const params = device.createBuffer({ label: "decals params", size: DECAL_PARAMS_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        device.queue.writeBuffer(params, 0, this.#fade);
        const instances = this.#source.instances;
        const state: DeviceState = {
            device,
            layout,
            pipeline,
            sampler: device.createSampler({ label: "decals atlas sampler", magFilter: "linear", minFilter: "linear" }),
            atlas,
            atlas_view: atlas.createView({ label: "decals atlas view" }),
            params,
            instances: make_instance_buffer(device, instances.capacity),
            generation: instances.generation,
            groups: new BindGroupCache(),
        };
        instances.mark_all();
        this.#state = state;
        return state;
    }

    #release(): void {
        const state = this.#state;
        this.#state = null;
        if (state === null) return;
        state.atlas.destroy();
        state.params.destroy();
        state.instances.destroy();
        state.groups.clear();
    }
}

function make_instance_buffer(device: GPUDevice, capacity: number): GPUBuffer {
    return device.createBuffer({
        label: "decals instances",
        size: capacity * DECAL_INSTANCE_BYTES,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
}
