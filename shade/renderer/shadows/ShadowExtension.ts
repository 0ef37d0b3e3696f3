import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { FramePhase } from "../extension/FramePhase.js";
import { RenderExtension } from "../extension/RenderExtension.js";
import { GPUGeometryCache, type GPUGeometry } from "../mesh/GPUGeometryCache.js";
import { MeshDrawList } from "../mesh/MeshDrawList.js";
import { OBJECT_WGSL } from "../mesh/mesh_wgsl.js";
import { ObjectBuffer } from "../mesh/ObjectBuffer.js";
import { MAX_SHADOW_CASCADES, SHADOW_CASCADES_FLOATS, ShadowCascades } from "./ShadowCascades.js";
import { ShadowMap } from "./ShadowMap.js";

/** Format of the shadow atlas. */
export const SHADOW_MAP_FORMAT: GPUTextureFormat = "depth32float";

export interface ShadowExtensionOptions {
    /** Cascades, 1 to 4. Default 3. */
    readonly cascades?: number;
    /** Texels along one side of a cascade. Default 1024. */
    readonly resolution?: number;
    /** View depth the cascades cover (capped by the camera's far plane); beyond it all is lit. Default 60. */
    readonly distance?: number;
    /** 0: uniform splits, 1: logarithmic. Default 0.6. */
    readonly split_lambda?: number;
    /** How far towards the sun, beyond a cascade's bounds, casters still cast into it. Default 40. */
    readonly caster_distance?: number;
    /** Subtracted from the receiver's light-space depth (clip units) before comparing. Default 0.0005. */
    readonly depth_bias?: number;
}

const CASTER_STRIDE = 256; // minUniformBufferOffsetAlignment's largest allowed value
const CASTER_WGSL = /* wgsl */ `
${OBJECT_WGSL}
@group(0) @binding(0) var<uniform> light_view_projection: mat4x4f;
@group(0) @binding(1) var<storage, read> objects: array<ObjectData>;

@vertex
fn vs_caster(@location(0) position: vec3f, @builtin(instance_index) object: u32) -> @builtin(position) vec4f {
    return light_view_projection * (objects[object].model * vec4f(position, 1.0));
}
`;

interface DeviceState {
    readonly pipeline: GPURenderPipeline;
    readonly layout: GPUBindGroupLayout;
    readonly texture: GPUTexture;
    readonly texture_descriptor: TextureResourceDescriptor;
    /** The `ShadowCascades` block the lighting reads. */
    readonly uniforms: GPUBuffer;
    /** One light view-projection per cascade, `CASTER_STRIDE` apart. */
    readonly casters: GPUBuffer;
    readonly geometries: GPUGeometryCache;
    readonly groups: GPUBindGroup[];
    groups_generation: number;
}

/**
 * Cascaded shadow map of the scene's sun (DriftEngine's `prepare` made real): at FrameStart it fits the
 * cascades to the camera (`ShadowCascades`), draws the opaque meshes' depth from the sun into a texture it
 * owns across frames (imported into each frame's graph, so the pass "shadows / cascades" is a side effect),
 * and publishes `ShadowMap`, which the deferred lighting samples with PCF. Not registered, it costs nothing:
 * no pass, no texture, the lighting's shadowless shader.
 */
export class ShadowExtension extends RenderExtension {
    override name = "shadows";
    override phase = FramePhase.FrameStart;

    readonly cascade_count: number;
    readonly resolution: number;
    distance: number;
    split_lambda: number;
    caster_distance: number;
    depth_bias: number;
    /** This frame's cascades (matrices, splits), for inspection and tests. */
    readonly cascades = new ShadowCascades();

    readonly #draw_list = new MeshDrawList();
    readonly #objects = new ObjectBuffer();
    readonly #uniform_data = new Float32Array(SHADOW_CASCADES_FLOATS);
    readonly #caster_data = new Float32Array((CASTER_STRIDE / 4) * MAX_SHADOW_CASCADES);
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    #last: DeviceState | null = null;
    #map: FrameGraphHandle = -1;
    readonly #descriptor: GPURenderPassDescriptor = { label: "shadow cascades", colorAttachments: [] };

    constructor(options: ShadowExtensionOptions = {}) {
        super();
        const cascades = options.cascades ?? 3;
        if (!(Number.isInteger(cascades) && cascades >= 1 && cascades <= MAX_SHADOW_CASCADES)) {
            throw new RangeError(`ShadowExtension: cascades must be an integer in [1, ${MAX_SHADOW_CASCADES}], got ${String(cascades)}`);
        }
        const resolution = options.resolution ?? 1024;
        if (!(Number.isInteger(resolution) && resolution >= 16)) {
            throw new RangeError(`ShadowExtension: resolution must be an integer of at least 16 texels, got ${String(resolution)}`);
        }
        this.cascade_count = cascades;
        this.resolution = resolution;
        this.distance = positive(options.distance ?? 60, "distance");
        this.split_lambda = options.split_lambda ?? 0.6;
        if (!(this.split_lambda >= 0 && this.split_lambda <= 1)) {
            throw new RangeError(`ShadowExtension: split_lambda must be in [0, 1], got ${String(options.split_lambda)}`);
        }
        this.caster_distance = positive(options.caster_distance ?? 40, "caster_distance");
        this.depth_bias = options.depth_bias ?? 0.0005;
    }

    override record(frame: FrameContext): void {
        const scene = frame.scene;
        const camera = frame.view.camera;
        const size = frame.internal_resolution;
        this.cascades.fit(camera, size[0] / size[1], scene.sun.direction, this.cascade_count, this.distance, this.split_lambda, this.resolution, this.caster_distance);
        this.#draw_list.build(scene, this.#objects, camera.position);
        const state = this.#state(frame.device);
        const graph = frame.graph;
        const imported = graph.import_texture("shadow map", state.texture, state.texture_descriptor);
        const pass = graph.add("shadows / cascades", this, execute_shadows);
        this.#map = pass.write(imported);
        const record = frame.create(ShadowMap);
        record.map = this.#map;
        record.cascades = state.uniforms;
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        const queue = device.queue;
        const cascades = this.cascades;
        cascades.write_uniforms(this.#uniform_data, this.resolution * this.cascade_count, this.resolution, this.depth_bias);
        queue.writeBuffer(state.uniforms, 0, this.#uniform_data);
        const casters = this.#caster_data;
        for (let i = 0; i < this.cascade_count; i++) {
            for (let k = 0; k < 16; k++) casters[i * (CASTER_STRIDE / 4) + k] = cascades.matrices[i * 16 + k];
        }
        queue.writeBuffer(state.casters, 0, casters);
        const objects = this.#objects.upload(device);
        if (state.groups_generation !== this.#objects.generation || state.groups.length === 0) {
            state.groups.length = 0;
            for (let i = 0; i < MAX_SHADOW_CASCADES; i++) {
                state.groups.push(
                    device.createBindGroup({
                        label: `shadow cascade ${i} bind group`,
                        layout: state.layout,
                        entries: [
                            { binding: 0, resource: { buffer: state.casters, offset: i * CASTER_STRIDE, size: 64 } },
                            { binding: 1, resource: { buffer: objects } },
                        ],
                    }),
                );
            }
            state.groups_generation = this.#objects.generation;
        }

        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#map, 1);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        const list = this.#draw_list;
        if (list.opaque_run_count > 0) {
            pass.setPipeline(state.pipeline);
            const r = this.resolution;
            for (let c = 0; c < this.cascade_count; c++) {
                pass.setViewport(c * r, 0, r, r, 0, 1);
                pass.setBindGroup(0, state.groups[c]);
                let bound: GPUGeometry | null = null;
                for (let i = 0; i < list.opaque_run_count; i++) {
                    const run = list.opaque_runs[i];
                    const geometry = state.geometries.get(run.geometry);
                    if (geometry !== bound) {
                        pass.setVertexBuffer(0, geometry.position);
                        pass.setIndexBuffer(geometry.index, geometry.index_format);
                        bound = geometry;
                    }
                    pass.drawIndexed(geometry.index_count, run.count, 0, 0, run.first);
                }
            }
        }
        pass.end();
    }

    #state(device: GPUDevice): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_state(device, this.resolution * this.cascade_count, this.resolution);
            this.#per_device.set(device, state);
            this.#last = state;
        }
        return state;
    }

    override destroy(): void {
        const state = this.#last;
        if (state === null) return;
        state.texture.destroy();
        state.uniforms.destroy();
        state.casters.destroy();
        this.#last = null;
    }
}

function positive(value: number, name: string): number {
    if (!(typeof value === "number" && value > 0 && Number.isFinite(value))) {
        throw new RangeError(`ShadowExtension: ${name} must be a positive number, got ${String(value)}`);
    }
    return value;
}

function build_state(device: GPUDevice, width: number, height: number): DeviceState {
    const max = device.limits.maxTextureDimension2D;
    if (width > max) {
        throw new RangeError(`ShadowExtension: the shadow atlas would be ${width}x${height}, wider than this device's maxTextureDimension2D (${max}); use fewer cascades or a lower resolution`);
    }
    const layout = device.createBindGroupLayout({
        label: "shadow caster bind group layout",
        entries: [
            { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform" } },
            { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: "read-only-storage" } },
        ],
    });
    const module = device.createShaderModule({ label: "shadow caster shader", code: CASTER_WGSL });
    const pipeline = device.createRenderPipeline({
        label: "shadow caster pipeline",
        layout: device.createPipelineLayout({ label: "shadow caster pipeline layout", bindGroupLayouts: [layout] }),
        vertex: { module, entryPoint: "vs_caster", buffers: [{ arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: "float32x3" }] }] },
        primitive: { topology: "triangle-list", cullMode: "none" },
        depthStencil: { format: SHADOW_MAP_FORMAT, depthWriteEnabled: true, depthCompare: "less", depthBiasSlopeScale: 1.5 },
    });
    const usage = GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING;
    const texture = device.createTexture({ label: "shadow map", size: [width, height], format: SHADOW_MAP_FORMAT, usage });
    const texture_descriptor = TextureResourceDescriptor.of(width, height, SHADOW_MAP_FORMAT, usage);
    const uniforms = device.createBuffer({ label: "shadow cascades", size: SHADOW_CASCADES_FLOATS * 4, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const casters = device.createBuffer({
        label: "shadow caster matrices",
        size: CASTER_STRIDE * MAX_SHADOW_CASCADES,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    return { pipeline, layout, texture, texture_descriptor, uniforms, casters, geometries: GPUGeometryCache.of(device), groups: [], groups_generation: -1 };
}

function execute_shadows(extension: ShadowExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}
