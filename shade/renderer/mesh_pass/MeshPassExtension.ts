import { mat3 } from "gl-matrix";
import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { FramePhase } from "../extension/FramePhase.js";
import { frame_phase_name } from "../extension/frame_phase_name.js";
import { RenderExtension } from "../extension/RenderExtension.js";
import { SceneColor } from "../extension/SceneColor.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import { GPUGeometryCache } from "../mesh/GPUGeometryCache.js";
import { OBJECT_FLOATS } from "../mesh/mesh_wgsl.js";
import { ObjectBuffer } from "../mesh/ObjectBuffer.js";
import { write_object_data } from "../mesh/write_object_data.js";
import { PipelineCache } from "../pipeline/PipelineCache.js";
import { PipelineKey } from "../pipeline/PipelineKey.js";
import { UniformBlock } from "../pipeline/UniformBlock.js";
import type { Camera } from "../scene/Camera.js";
import type { Mesh } from "../scene/Mesh.js";
import { MESH_VERTEX_BUFFERS } from "../steps/GBufferStep.js";
import { MeshPassTargets } from "./MeshPassTargets.js";
import { mesh_pass_wgsl } from "./mesh_pass_wgsl.js";

/** How a mesh pass's colour combines with what its target holds. */
export type MeshPassBlend = "replace" | "alpha" | "additive";

/** A texture a mesh pass owns across frames and draws into from its own camera (pixi3d's `RenderTexture`). */
export interface MeshPassTargetOptions {
    readonly width: number;
    readonly height: number;
    /** Default "rgba8unorm". */
    readonly format?: GPUTextureFormat;
    /** What each frame starts from. Default transparent black. */
    readonly clear?: GPUColorDict;
    /** A depth buffer of this format (transient, cleared each frame, written and tested), for meshes that hide each other. Default none. */
    readonly depth?: GPUTextureFormat;
}

/** The owned target as the extension keeps it: `width` and `height` may change (the texture is made again next frame). */
export interface MeshPassTarget {
    width: number;
    height: number;
    readonly format: GPUTextureFormat;
    readonly clear: GPUColorDict;
    readonly depth: GPUTextureFormat | null;
}

/** Which meshes a pass draws: those that joined it, or every mesh of the frame's scene. */
export type MeshPassMeshes = "joined" | "scene";

export interface MeshPassExtensionOptions {
    /** Names the extension (unique within its phase), its pass, pipelines, shader and owned target. */
    readonly name: string;
    /**
     * WGSL with `vs_main` (taking `MeshPassVertex`) and `fs_main` (one `@location(0)` colour). `camera`,
     * `objects`, `values` and `mesh_pass_normal` are declared for it (see `mesh_pass_wgsl`). It is the
     * "default" variant; `variants` (or `define_variant`) add others.
     */
    readonly shader: string;
    /** More shaders by name, as `define_variant` adds them. */
    readonly variants?: Readonly<Record<string, string>>;
    /** Floats in the per-frame uniform block `values` (rounded up to vec4s). Default 8. */
    readonly values?: number;
    /** Default "replace". */
    readonly blend?: MeshPassBlend;
    /** Default "back"; an outline shell culls "front". */
    readonly cull?: GPUCullMode;
    /** Against the scene depth (read, never written) or the target's own depth. Default "less". */
    readonly depth_compare?: GPUCompareFunction;
    /**
     * Without a target: AfterLighting, AfterTransparency (the default) or, without an upscale, BeforePresent.
     * With a target: any phase, FrameStart by default.
     */
    readonly phase?: FramePhase;
    /**
     * Draw into a texture the extension owns (`texture`), cleared each frame, instead of over the scene colour;
     * its handle is published in `MeshPassTargets` under `name`.
     */
    readonly target?: MeshPassTargetOptions;
    /** Draw from this camera (pixi3d's `ForwardRenderPass` camera); only with a target. Default: the view's camera. */
    readonly camera?: Camera;
    /** Default "joined". */
    readonly meshes?: MeshPassMeshes;
    /** Which of those meshes are drawn, asked every frame per mesh (e.g. only opaque ones). Default all visible ones. */
    readonly filter?: (mesh: Mesh) => boolean;
    /** Shared by several mesh passes to share their pipelines. Default: one of its own. */
    readonly pipelines?: PipelineCache;
}

interface DeviceState {
    readonly layout: GPUBindGroupLayout;
    readonly pipeline_layout: GPUPipelineLayout;
    readonly geometries: GPUGeometryCache;
    group: GPUBindGroup | null;
    group_camera: GPUBuffer | null;
    group_generation: number;
    texture: GPUTexture | null;
}

/** One shader of the pass and the meshes drawn with it this frame (`start`..`end` of the drawn list). */
interface Variant {
    readonly name: string;
    readonly code: string;
    readonly key: PipelineKey;
    readonly modules: WeakMap<GPUDevice, GPUShaderModule>;
    start: number;
    end: number;
}

// key parts
const KEY_SHADER = 0;
const KEY_BLEND = 1;
const KEY_CULL = 2;
const KEY_DEPTH_COMPARE = 3;
const KEY_COLOR_FORMAT = 4;
const KEY_DEPTH_FORMAT = 5;
const KEY_SAMPLES = 6;
const KEY_DEPTH_WRITE = 7;
const KEY_PARTS = 8;

const NO_DEPTH = "no depth";
// numbers, not GPUTextureUsage: this module loads before a process installs the WebGPU globals
const TARGET_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;
const DEPTH_USAGE = 0x10; /* RENDER_ATTACHMENT */

let next_shader_id = 1;
const shader_ids = new Map<string, number>();

function shader_id(code: string): number {
    let id = shader_ids.get(code);
    if (id === undefined) shader_ids.set(code, (id = next_shader_id++));
    return id;
}

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
 * Draws meshes a second time with a shader of its own (pixi3d's `MeshPass`): an outline shell, a hover rim.
 * Meshes join with `add(mesh, variant?)` and leave with `remove(mesh)` at any time; a joined mesh is drawn while
 * it is visible and in a scene, with the shader of its variant (pixi3d's per-material pass entry): one pipeline
 * per variant, the meshes of a variant drawn together. With no mesh to draw the pass records nothing.
 *
 * By default one pass at the declared phase loads the scene colour, tests against the scene depth (read-only)
 * from the view's camera and publishes the scene colour. With `target` (pixi3d's `ForwardRenderPass` into a
 * `RenderTexture`) it draws instead into a texture it owns across frames (`texture`), cleared each frame, from
 * `camera` (updated to the target's aspect and uploaded in place each frame), optionally with a depth buffer
 * of its own; the texture is imported into the frame's graph, so the pass is a side effect, and its handle is
 * published in `MeshPassTargets` for later extensions to sample. `meshes: "scene"` draws every mesh of the
 * frame's scene (a joined one with its variant).
 *
 * Per-frame values reach the shader through `values` (a preallocated block, written in place by the owner or
 * by an override of `frame_update`). Pipelines come from a `PipelineCache` under a key of shader, blend, cull,
 * depth test and write, target formats and sample count, so a pipeline is built again only when one of them
 * changes.
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
    /** The owned target, or null when the pass draws over the scene colour. */
    readonly target: MeshPassTarget | null;
    /** The camera it draws from, or null for the view's camera. */
    readonly camera: Camera | null;
    readonly meshes: MeshPassMeshes;
    /** The "default" variant's pipeline key (for inspection and tests). */
    readonly key: PipelineKey;
    /** Draw calls issued so far (one per run of drawn meshes sharing a variant and a geometry), for inspection and tests. */
    draw_count = 0;

    // joined meshes, in join order, and their variant indices; removal swaps with the last
    readonly #meshes: Mesh[] = [];
    readonly #mesh_variants: number[] = [];
    #mesh_count = 0;
    // mesh -> variant index, for "scene" mode's lookup of a scene mesh's variant
    readonly #joined = new Map<Mesh, number>();
    readonly #variants: Variant[] = [];
    // per candidate of this frame: its variant index, or -1 when it is not drawn
    #candidate_variants = new Int32Array(16);
    // this frame's drawn meshes (visible, in a scene), grouped by variant; object index = position here
    readonly #drawn: Mesh[] = [];
    #drawn_count = 0;
    readonly #filter: ((mesh: Mesh) => boolean) | null;
    readonly #objects = new ObjectBuffer();
    readonly #normal = mat3.create();
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    #last_state: DeviceState | null = null;
    readonly #pass_name: string;
    readonly #depth_name: string;
    readonly #prelude: string;
    #color: FrameGraphHandle = -1;
    #depth: FrameGraphHandle = -1;
    #camera_buffer: GPUBuffer | null = null;
    #color_format: GPUTextureFormat = "rgba16float";
    #depth_format: GPUTextureFormat | null = "depth32float";
    #building: Variant | null = null;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor;
    readonly #targets: GPUColorTargetState[] = [{ format: "rgba16float" }];

    constructor(options: MeshPassExtensionOptions) {
        super();
        if (typeof options.name !== "string" || options.name.length === 0) throw new TypeError("MeshPassExtension: options.name must be a non-empty string");
        if (typeof options.shader !== "string") throw new TypeError(`MeshPassExtension '${options.name}': options.shader must be WGSL with vs_main and fs_main`);
        const target = options.target;
        if (options.camera !== undefined && target === undefined) {
            throw new TypeError(
                `MeshPassExtension '${options.name}': options.camera needs options.target (another camera's picture cannot be tested against the view's depth); give it a target to draw into`,
            );
        }
        const phase = options.phase ?? (target !== undefined ? FramePhase.FrameStart : FramePhase.AfterTransparency);
        if (target === undefined && phase !== FramePhase.AfterLighting && phase !== FramePhase.AfterTransparency && phase !== FramePhase.BeforePresent) {
            throw new RangeError(
                `MeshPassExtension '${options.name}': phase ${frame_phase_name(phase)} carries no scene colour and depth; use AfterLighting, AfterTransparency or BeforePresent (or give it a target)`,
            );
        }
        if (target !== undefined) {
            const { width, height } = target;
            if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1)) {
                throw new RangeError(`MeshPassExtension '${options.name}': target must be whole pixels, at least 1x1, got ${String(width)}x${String(height)}`);
            }
        }
        const meshes = options.meshes ?? "joined";
        if (meshes !== "joined" && meshes !== "scene") throw new TypeError(`MeshPassExtension '${options.name}': options.meshes must be "joined" or "scene", got ${String(meshes)}`);
        this.name = options.name;
        this.phase = phase;
        this.blend = options.blend ?? "replace";
        this.cull = options.cull ?? "back";
        this.depth_compare = options.depth_compare ?? "less";
        this.shader = options.shader;
        this.values = new UniformBlock(`${options.name} values`, options.values ?? 8);
        this.pipelines = options.pipelines ?? new PipelineCache();
        this.target =
            target === undefined
                ? null
                : { width: target.width, height: target.height, format: target.format ?? "rgba8unorm", clear: target.clear ?? { r: 0, g: 0, b: 0, a: 0 }, depth: target.depth ?? null };
        this.camera = options.camera ?? null;
        this.meshes = meshes;
        this.#filter = options.filter ?? null;
        this.#prelude = mesh_pass_wgsl(this.values.vec4_count);
        this.key = this.define_variant("default", options.shader).key;
        if (options.variants !== undefined) for (const name of Object.keys(options.variants)) this.define_variant(name, options.variants[name]);
        this.#pass_name = `${options.name} / draw`;
        this.#depth_name = `${options.name} depth`;
        this.#descriptor = { label: this.#pass_name, colorAttachments: this.#colors };
    }

    /**
     * Adds a shader named `name` (WGSL with `vs_main` and `fs_main`, given what `shader` is given) that joined
     * meshes can be drawn with: `add(mesh, name)`. Its pipeline is built the first frame a mesh of it is drawn.
     * Returns the variant's name and pipeline key.
     */
    define_variant(name: string, shader: string): { readonly name: string; readonly key: PipelineKey } {
        if (typeof name !== "string" || name.length === 0) throw new TypeError(`MeshPassExtension '${this.name}': a variant's name must be a non-empty string`);
        if (typeof shader !== "string") throw new TypeError(`MeshPassExtension '${this.name}': variant '${name}' must be WGSL with vs_main and fs_main`);
        if (this.#variant_index(name) >= 0) throw new Error(`MeshPassExtension '${this.name}': variant '${name}' is defined already (a variant's shader does not change; define another name)`);
        const code = this.#prelude + shader;
        const key = new PipelineKey(KEY_PARTS);
        key.set(KEY_SHADER, shader_id(code));
        const variant: Variant = { name, code, key, modules: new WeakMap(), start: 0, end: 0 };
        this.#variants.push(variant);
        return variant;
    }

    /** The names of the variants, "default" first. */
    get variant_names(): string[] {
        return this.#variants.map((v) => v.name);
    }

    /**
     * Joins `mesh` to the pass (from the next frame), drawn with `variant` (default "default"); joining again
     * with another variant moves it there. False if it had joined with that variant already.
     */
    add(mesh: Mesh, variant = "default"): boolean {
        const index = this.#variant_index(variant);
        if (index < 0) {
            throw new RangeError(`MeshPassExtension '${this.name}': no variant '${variant}' (defined: ${this.variant_names.join(", ")}); define it with define_variant first`);
        }
        const at = this.#joined.get(mesh);
        if (at === index) return false;
        this.#joined.set(mesh, index);
        if (at !== undefined) {
            const meshes = this.#meshes;
            for (let i = 0; i < this.#mesh_count; i++) if (meshes[i] === mesh) this.#mesh_variants[i] = index;
            return true;
        }
        this.#meshes[this.#mesh_count] = mesh;
        this.#mesh_variants[this.#mesh_count++] = index;
        return true;
    }

    /** Takes `mesh` out of the pass; false if it had not joined. */
    remove(mesh: Mesh): boolean {
        if (!this.#joined.delete(mesh)) return false;
        const meshes = this.#meshes;
        for (let i = 0; i < this.#mesh_count; i++) {
            if (meshes[i] !== mesh) continue;
            const last = --this.#mesh_count;
            meshes[i] = meshes[last];
            this.#mesh_variants[i] = this.#mesh_variants[last];
            meshes[last] = undefined as unknown as Mesh; // drop the reference; the slot is reused
            return true;
        }
        return false;
    }

    /** Whether `mesh` has joined the pass. */
    has(mesh: Mesh): boolean {
        return this.#joined.has(mesh);
    }

    /** The variant `mesh` joined with, or null if it has not joined. */
    variant_of(mesh: Mesh): string | null {
        const index = this.#joined.get(mesh);
        return index === undefined ? null : this.#variants[index].name;
    }

    /** How many meshes have joined. */
    get mesh_count(): number {
        return this.#mesh_count;
    }

    /** The owned target's texture on the device last recorded with; null without a target or before the first draw. */
    get texture(): GPUTexture | null {
        return this.#last_state?.texture ?? null;
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
        if (!this.#collect(frame)) return;
        if (this.target === null) this.#record_over_scene(frame);
        else this.#record_into_target(frame, this.target);
        const variants = this.#variants;
        for (let v = 0; v < variants.length; v++) {
            const key = variants[v].key;
            key.set(KEY_BLEND, this.blend);
            key.set(KEY_CULL, this.cull);
            key.set(KEY_DEPTH_COMPARE, this.depth_compare);
            key.set(KEY_COLOR_FORMAT, this.#color_format);
            key.set(KEY_DEPTH_FORMAT, this.#depth_format ?? NO_DEPTH);
            key.set(KEY_DEPTH_WRITE, this.target === null ? 0 : 1);
            key.set(KEY_SAMPLES, 1); // graph textures are single-sampled
        }
        this.frame_update(frame, this.values.data);
    }

    #record_over_scene(frame: FrameContext): void {
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
        this.#camera_buffer = frame.view.camera.buffer;
        const pass = frame.graph.add(this.#pass_name, this, execute_mesh_pass);
        this.#depth = pass.read(depth);
        this.#color = pass.write(scene_color.color, "load");
        scene_color.color = this.#color;
    }

    #record_into_target(frame: FrameContext, target: MeshPassTarget): void {
        const device = frame.device;
        const state = this.#state(device);
        let texture = state.texture;
        if (texture === null || texture.width !== target.width || texture.height !== target.height || texture.format !== target.format) {
            texture?.destroy();
            texture = state.texture = device.createTexture({ label: this.name, size: { width: target.width, height: target.height }, format: target.format, usage: TARGET_USAGE });
        }
        this.#color_format = target.format;
        this.#depth_format = target.depth;
        const camera = this.camera;
        if (camera !== null) {
            camera.update(target.width, target.height);
            this.#camera_buffer = camera.bind(device);
        } else {
            this.#camera_buffer = frame.view.camera.buffer;
        }
        const graph = frame.graph;
        const pass = graph.add(this.#pass_name, this, execute_mesh_pass);
        this.#color = pass.write(graph.import_texture(this.name, texture), "clear");
        this.#depth = target.depth === null ? -1 : pass.write(pass.create(this.#depth_name, TextureResourceDescriptor.of(target.width, target.height, target.depth, DEPTH_USAGE)), "clear");
        (frame.has(MeshPassTargets) ? frame.get(MeshPassTargets) : frame.create(MeshPassTargets)).set(this.name, this.#color);
    }

    // Writes the meshes drawn this frame into the object buffer, grouped by variant; false when there are none.
    #collect(frame: FrameContext): boolean {
        const scene_mode = this.meshes === "scene";
        const candidates = scene_mode ? frame.scene.meshes : this.#meshes;
        const count = scene_mode ? candidates.length : this.#mesh_count;
        if (this.#candidate_variants.length < count) this.#candidate_variants = new Int32Array(Math.max(count, this.#candidate_variants.length * 2));
        const chosen = this.#candidate_variants;
        const filter = this.#filter;
        let any = false;
        for (let i = 0; i < count; i++) {
            const mesh = candidates[i];
            if (!mesh.visible || mesh.object_id === 0 || (filter !== null && !filter(mesh))) {
                chosen[i] = -1;
                continue;
            }
            chosen[i] = scene_mode ? (this.#joined.get(mesh) ?? 0) : this.#mesh_variants[i];
            any = true;
        }
        const objects = this.#objects;
        objects.clear();
        this.#drawn_count = 0;
        const variants = this.#variants;
        for (let v = 0; v < variants.length; v++) {
            const variant = variants[v];
            variant.start = this.#drawn_count;
            if (any) {
                for (let i = 0; i < count; i++) {
                    if (chosen[i] !== v) continue;
                    const mesh = candidates[i];
                    this.#drawn[this.#drawn_count++] = mesh;
                    this.#write(mesh);
                }
            }
            variant.end = this.#drawn_count;
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
        write_object_data(f, u, o, mesh, this.#normal);
        // previous_model, where the layout has it: a mesh pass draws no motion, so last frame's is this frame's
        for (let k = 0; k < 16 && 40 + k < OBJECT_FLOATS; k++) f[o + 40 + k] = m[k];
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        const objects = this.#objects.upload(device);
        const values = this.values.upload(device);
        const camera = this.#camera_buffer!;
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
        const target = this.target;
        this.#colors[0] = target === null ? resources.color_attachment(this.#color) : resources.color_attachment(this.#color, target.clear);
        this.#descriptor.depthStencilAttachment = this.#depth === -1 ? undefined : resources.depth_attachment(this.#depth);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setBindGroup(0, state.group);
        const drawn = this.#drawn;
        const variants = this.#variants;
        for (let v = 0; v < variants.length; v++) {
            const variant = variants[v];
            if (variant.start === variant.end) continue;
            this.#building = variant;
            pass.setPipeline(this.pipelines.get(device, variant.key.value, build_pipeline, this));
            // object i is the i-th drawn mesh: a run of meshes sharing a geometry is one instanced draw
            for (let i = variant.start; i < variant.end; ) {
                const source = drawn[i].geometry;
                const skin = drawn[i].skin;
                let end = i + 1;
                // a skinned mesh draws alone, with its skin's vertices
                while (skin === null && end < variant.end && drawn[end].geometry === source && drawn[end].skin === null) end++;
                const geometry = state.geometries.get(source, skin);
                pass.setVertexBuffer(0, geometry.position, geometry.position_offset);
                pass.setVertexBuffer(1, geometry.normal, geometry.normal_offset);
                pass.setVertexBuffer(2, geometry.uv);
                pass.setIndexBuffer(geometry.index, geometry.index_format);
                pass.drawIndexed(geometry.index_count, end - i, 0, 0, i);
                this.draw_count++;
                i = end;
            }
        }
        this.#building = null;
        pass.end();
    }

    /** @internal builds the pipeline of the variant being drawn (called by the cache only for a key it lacks) */
    build_pipeline(device: GPUDevice): GPURenderPipeline {
        const variant = this.#building!;
        let module = variant.modules.get(device);
        if (module === undefined) {
            module = device.createShaderModule({ label: `${this.name} shader (${variant.name})`, code: variant.code });
            variant.modules.set(device, module);
        }
        const target = this.#targets[0];
        target.format = this.#color_format;
        target.blend = BLENDS[this.blend];
        const depth_format = this.#depth_format;
        return device.createRenderPipeline({
            label: `${this.name} pipeline ${variant.name} (${variant.key.value})`,
            layout: this.#state(device).pipeline_layout,
            vertex: { module, entryPoint: "vs_main", buffers: MESH_VERTEX_BUFFERS },
            fragment: { module, entryPoint: "fs_main", targets: this.#targets },
            primitive: { topology: "triangle-list", cullMode: this.cull, frontFace: "ccw" },
            depthStencil: depth_format === null ? undefined : { format: depth_format, depthWriteEnabled: this.target !== null, depthCompare: this.depth_compare },
        });
    }

    #variant_index(name: string): number {
        const variants = this.#variants;
        for (let i = 0; i < variants.length; i++) if (variants[i].name === name) return i;
        return -1;
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
                geometries: GPUGeometryCache.of(device),
                group: null,
                group_camera: null,
                group_generation: -1,
                texture: null,
            };
            this.#per_device.set(device, state);
        }
        this.#last_state = state;
        return state;
    }

    override destroy(): void {
        this.values.destroy();
        this.#last_state?.texture?.destroy();
        if (this.#last_state !== null) this.#last_state.texture = null;
        this.#last_state = null;
        this.#mesh_count = 0;
        this.#meshes.length = 0;
        this.#mesh_variants.length = 0;
        this.#joined.clear();
        this.#drawn.length = 0;
    }
}

function build_pipeline(device: GPUDevice, extension: MeshPassExtension): GPURenderPipeline {
    return extension.build_pipeline(device);
}

function execute_mesh_pass(extension: MeshPassExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}
