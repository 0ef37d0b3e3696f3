import { mat3 } from "gl-matrix";
import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { FramePhase } from "../extension/FramePhase.js";
import { frame_phase_name } from "../extension/frame_phase_name.js";
import { RenderExtension } from "../extension/RenderExtension.js";
import { SceneColor } from "../extension/SceneColor.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import { GPUGeometryCache } from "../mesh/GPUGeometryCache.js";
import { OBJECT_FLOATS } from "../mesh/mesh_wgsl.js";
import { ObjectBuffer } from "../mesh/ObjectBuffer.js";
import { PipelineCache } from "../pipeline/PipelineCache.js";
import { PipelineKey } from "../pipeline/PipelineKey.js";
import { UniformBlock } from "../pipeline/UniformBlock.js";
import type { Mesh } from "../scene/Mesh.js";
import { MESH_VERTEX_BUFFERS } from "../steps/GBufferStep.js";
import { mesh_pass_wgsl } from "./mesh_pass_wgsl.js";

/** How a mesh pass's colour combines with the scene colour. */
export type MeshPassBlend = "replace" | "alpha" | "additive";

export interface MeshPassExtensionOptions {
    /** Names the extension (unique within its phase), its pass, pipelines and shader. */
    readonly name: string;
    /**
     * WGSL with `vs_main` (taking `MeshPassVertex`) and `fs_main` (one `@location(0)` colour). `camera`,
     * `objects`, `values` and `mesh_pass_normal` are declared for it (see `mesh_pass_wgsl`).
     */
    readonly shader: string;
    /** Floats in the per-frame uniform block `values` (rounded up to vec4s). Default 8. */
    readonly values?: number;
    /** Default "replace". */
    readonly blend?: MeshPassBlend;
    /** Default "back"; an outline shell culls "front". */
    readonly cull?: GPUCullMode;
    /** Against the scene depth, which the pass reads and never writes. Default "less". */
    readonly depth_compare?: GPUCompareFunction;
    /** AfterLighting, AfterTransparency (the default) or, without an upscale, BeforePresent. */
    readonly phase?: FramePhase;
    /** Shared by several mesh passes to share their pipelines. Default: one of its own. */
    readonly pipelines?: PipelineCache;
}

interface DeviceState {
    readonly layout: GPUBindGroupLayout;
    readonly pipeline_layout: GPUPipelineLayout;
    readonly module: GPUShaderModule;
    readonly geometries: GPUGeometryCache;
    group: GPUBindGroup | null;
    group_camera: GPUBuffer | null;
    group_generation: number;
}

// key parts
const KEY_SHADER = 0;
const KEY_BLEND = 1;
const KEY_CULL = 2;
const KEY_DEPTH_COMPARE = 3;
const KEY_COLOR_FORMAT = 4;
const KEY_DEPTH_FORMAT = 5;
const KEY_SAMPLES = 6;
const KEY_PARTS = 7;

let next_shader_id = 1;
const shader_ids = new Map<string, number>();

const BLENDS: Record<MeshPassBlend, GPUBlendState | undefined> = {
    replace: undefined,
    alpha: {
        color: { srcFactor: "src-alpha", dstFactor: "one-minus-src-alpha" },
        alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha" },
    },
    // the scene colour's alpha is left as it was
    additive: {
        color: { srcFactor: "one", dstFactor: "one" },
        alpha: { srcFactor: "zero", dstFactor: "one" },
    },
};

/**
 * Draws chosen meshes a second time with a shader of its own (pixi3d's `MeshPass`): an outline shell, a hover
 * rim. Meshes join with `add(mesh)` and leave with `remove(mesh)` at any time; a joined mesh is drawn while it is
 * visible and in a scene. One pass at the declared phase loads the scene colour, tests against the scene depth
 * (read-only) and publishes the scene colour; with no mesh to draw it records nothing.
 *
 * Per-frame values reach the shader through `values` (a preallocated block, written in place by the owner or
 * by an override of `frame_update`). Pipelines come from a `PipelineCache` under a key of shader, blend, cull,
 * depth test, target formats and sample count, so a pipeline is built again only when one of them changes.
 */
export class MeshPassExtension extends RenderExtension {
    override name: string;
    override phase: FramePhase;
    /** Changing it builds (or finds) the pipeline of the new mode on the next frame. */
    blend: MeshPassBlend;
    cull: GPUCullMode;
    depth_compare: GPUCompareFunction;
    readonly shader: string;
    /** The per-frame uniform block `values`; write `values.data` in place. */
    readonly values: UniformBlock;
    readonly pipelines: PipelineCache;
    /** The current pipeline key (for inspection and tests). */
    readonly key = new PipelineKey(KEY_PARTS);
    /** Draw calls issued so far (one per run of joined meshes sharing a geometry), for inspection and tests. */
    draw_count = 0;

    // joined meshes, in join order; removal swaps with the last (order does not matter to the draw)
    readonly #meshes: Mesh[] = [];
    #mesh_count = 0;
    // this frame's drawn meshes (visible, in a scene), object index = position here
    readonly #drawn: Mesh[] = [];
    #drawn_count = 0;
    readonly #objects = new ObjectBuffer();
    readonly #normal = mat3.create();
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #pass_name: string;
    readonly #code: string;
    #color: FrameGraphHandle = -1;
    #depth: FrameGraphHandle = -1;
    #camera: GPUBuffer | null = null;
    #color_format: GPUTextureFormat = "rgba16float";
    #depth_format: GPUTextureFormat = "depth32float";
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor;
    readonly #targets: GPUColorTargetState[] = [{ format: "rgba16float" }];

    constructor(options: MeshPassExtensionOptions) {
        super();
        if (typeof options.name !== "string" || options.name.length === 0) throw new TypeError("MeshPassExtension: options.name must be a non-empty string");
        if (typeof options.shader !== "string") throw new TypeError(`MeshPassExtension '${options.name}': options.shader must be WGSL with vs_main and fs_main`);
        const phase = options.phase ?? FramePhase.AfterTransparency;
        if (phase !== FramePhase.AfterLighting && phase !== FramePhase.AfterTransparency && phase !== FramePhase.BeforePresent) {
            throw new RangeError(
                `MeshPassExtension '${options.name}': phase ${frame_phase_name(phase)} carries no scene colour and depth; use AfterLighting, AfterTransparency or BeforePresent`,
            );
        }
        this.name = options.name;
        this.phase = phase;
        this.blend = options.blend ?? "replace";
        this.cull = options.cull ?? "back";
        this.depth_compare = options.depth_compare ?? "less";
        this.shader = options.shader;
        this.values = new UniformBlock(`${options.name} values`, options.values ?? 8);
        this.pipelines = options.pipelines ?? new PipelineCache();
        this.#code = mesh_pass_wgsl(this.values.vec4_count) + options.shader;
        let id = shader_ids.get(this.#code);
        if (id === undefined) shader_ids.set(this.#code, (id = next_shader_id++));
        this.key.set(KEY_SHADER, id);
        this.#pass_name = `${options.name} / draw`;
        this.#descriptor = { label: this.#pass_name, colorAttachments: this.#colors };
    }

    /** Joins `mesh` to the pass (from the next frame); false if it had joined already. */
    add(mesh: Mesh): boolean {
        if (this.has(mesh)) return false;
        this.#meshes[this.#mesh_count++] = mesh;
        return true;
    }

    /** Takes `mesh` out of the pass; false if it had not joined. */
    remove(mesh: Mesh): boolean {
        const meshes = this.#meshes;
        for (let i = 0; i < this.#mesh_count; i++) {
            if (meshes[i] !== mesh) continue;
            const last = --this.#mesh_count;
            meshes[i] = meshes[last];
            meshes[last] = undefined as unknown as Mesh; // drop the reference; the slot is reused
            return true;
        }
        return false;
    }

    /** Whether `mesh` has joined the pass. */
    has(mesh: Mesh): boolean {
        const meshes = this.#meshes;
        for (let i = 0; i < this.#mesh_count; i++) if (meshes[i] === mesh) return true;
        return false;
    }

    /** How many meshes have joined. */
    get mesh_count(): number {
        return this.#mesh_count;
    }

    /**
     * Called every frame the pass draws, before its values are uploaded (PlayCanvas's `frameUpdate`): override it
     * to write per-frame values (time, resolution) into `values`, in place.
     */
    frame_update(frame: FrameContext, values: Float32Array): void {
        void frame;
        void values;
    }

    override record(frame: FrameContext): void {
        if (!this.#collect()) return;
        const scene_color = frame.get(SceneColor);
        const depth = frame.get(ViewTextures).depth;
        const color_info = frame.describe(scene_color.color);
        const depth_info = frame.describe(depth);
        if (color_info.width !== depth_info.width || color_info.height !== depth_info.height) {
            throw new Error(
                `MeshPassExtension '${this.name}': at ${frame_phase_name(frame.phase)} the scene colour is ${color_info.width}x${color_info.height} ` +
                    `but the depth is ${depth_info.width}x${depth_info.height} (an upscale ran); record at AfterTransparency instead`,
            );
        }
        this.#color_format = color_info.format;
        this.#depth_format = depth_info.format;
        const key = this.key;
        key.set(KEY_BLEND, this.blend);
        key.set(KEY_CULL, this.cull);
        key.set(KEY_DEPTH_COMPARE, this.depth_compare);
        key.set(KEY_COLOR_FORMAT, color_info.format);
        key.set(KEY_DEPTH_FORMAT, depth_info.format);
        key.set(KEY_SAMPLES, 1); // graph textures are single-sampled
        this.frame_update(frame, this.values.data);
        this.#camera = frame.view.camera.buffer;

        const pass = frame.graph.add(this.#pass_name, this, execute_mesh_pass);
        this.#depth = pass.read(depth);
        this.#color = pass.write(scene_color.color, "load");
        scene_color.color = this.#color;
    }

    // Writes the joined meshes that are drawn this frame into the object buffer; false when there are none.
    #collect(): boolean {
        const objects = this.#objects;
        objects.clear();
        this.#drawn_count = 0;
        const meshes = this.#meshes;
        for (let i = 0; i < this.#mesh_count; i++) {
            const mesh = meshes[i];
            if (!mesh.visible || mesh.object_id === 0) continue;
            this.#drawn[this.#drawn_count++] = mesh;
            this.#write(mesh);
        }
        return this.#drawn_count > 0;
    }

    #write(mesh: Mesh): void {
        mesh.update_matrix();
        const objects = this.#objects;
        const o = objects.push();
        const f = objects.floats;
        const u = objects.uints;
        const m = mesh.world_matrix;
        for (let k = 0; k < 16; k++) f[o + k] = m[k];
        const n = mat3.normalFromMat4(this.#normal, m) ?? mat3.identity(this.#normal);
        f[o + 16] = n[0];
        f[o + 17] = n[1];
        f[o + 18] = n[2];
        f[o + 20] = n[3];
        f[o + 21] = n[4];
        f[o + 22] = n[5];
        f[o + 24] = n[6];
        f[o + 25] = n[7];
        f[o + 26] = n[8];
        const material = mesh.material;
        const c = material.base_color;
        f[o + 28] = c[0];
        f[o + 29] = c[1];
        f[o + 30] = c[2];
        f[o + 31] = c[3];
        f[o + 32] = material.roughness;
        f[o + 33] = material.metalness;
        u[o + 36] = mesh.object_id;
        u[o + 37] = material.id;
        // previous_model, where the layout has it: a mesh pass draws no motion, so last frame's is this frame's
        for (let k = 0; k < 16 && 40 + k < OBJECT_FLOATS; k++) f[o + 40 + k] = m[k];
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        const pipeline = this.pipelines.get(device, this.key.value, build_pipeline, this);
        const objects = this.#objects.upload(device);
        const values = this.values.upload(device);
        const camera = this.#camera!;
        if (state.group === null || state.group_camera !== camera || state.group_generation !== this.#objects.generation) {
            state.group = device.createBindGroup({
                label: `${this.name} bind group`,
                layout: state.layout,
                entries: [
                    { binding: 0, resource: { buffer: camera } },
                    { binding: 1, resource: { buffer: objects } },
                    { binding: 2, resource: { buffer: values } },
                ],
            });
            state.group_camera = camera;
            state.group_generation = this.#objects.generation;
        }
        this.#colors[0] = resources.color_attachment(this.#color);
        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#depth);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, state.group);
        // object i is the i-th drawn mesh: a run of meshes sharing a geometry is one instanced draw
        const drawn = this.#drawn;
        for (let i = 0; i < this.#drawn_count; ) {
            const source = drawn[i].geometry;
            let end = i + 1;
            while (end < this.#drawn_count && drawn[end].geometry === source) end++;
            const geometry = state.geometries.get(source);
            pass.setVertexBuffer(0, geometry.position);
            pass.setVertexBuffer(1, geometry.normal);
            pass.setVertexBuffer(2, geometry.uv);
            pass.setIndexBuffer(geometry.index, geometry.index_format);
            pass.drawIndexed(geometry.index_count, end - i, 0, 0, i);
            this.draw_count++;
            i = end;
        }
        pass.end();
    }

    /** @internal builds the pipeline of the current key (called by the cache only for a key it lacks) */
    build_pipeline(device: GPUDevice): GPURenderPipeline {
        const state = this.#state(device);
        const target = this.#targets[0];
        target.format = this.#color_format;
        target.blend = BLENDS[this.blend];
        return device.createRenderPipeline({
            label: `${this.name} pipeline (${this.key.value})`,
            layout: state.pipeline_layout,
            vertex: { module: state.module, entryPoint: "vs_main", buffers: MESH_VERTEX_BUFFERS },
            fragment: { module: state.module, entryPoint: "fs_main", targets: this.#targets },
            primitive: { topology: "triangle-list", cullMode: this.cull, frontFace: "ccw" },
            depthStencil: { format: this.#depth_format, depthWriteEnabled: false, depthCompare: this.depth_compare },
        });
    }

    #state(device: GPUDevice): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            const visibility = GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT;
            const layout = device.createBindGroupLayout({
                label: `${this.name} bind group layout`,
                entries: [
                    { binding: 0, visibility, buffer: { type: "uniform" } },
                    { binding: 1, visibility, buffer: { type: "read-only-storage" } },
                    { binding: 2, visibility, buffer: { type: "uniform" } },
                ],
            });
            state = {
                layout,
                pipeline_layout: device.createPipelineLayout({ label: `${this.name} pipeline layout`, bindGroupLayouts: [layout] }),
                module: device.createShaderModule({ label: `${this.name} shader`, code: this.#code }),
                geometries: GPUGeometryCache.of(device),
                group: null,
                group_camera: null,
                group_generation: -1,
            };
            this.#per_device.set(device, state);
        }
        return state;
    }

    override destroy(): void {
        this.values.destroy();
        this.#mesh_count = 0;
        this.#meshes.length = 0;
        this.#drawn.length = 0;
    }
}

function build_pipeline(device: GPUDevice, extension: MeshPassExtension): GPURenderPipeline {
    return extension.build_pipeline(device);
}

function execute_mesh_pass(extension: MeshPassExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}
