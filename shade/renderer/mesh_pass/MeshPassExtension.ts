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
import { PipelineCache } from "../pipeline/PipelineCache.js";
import { PipelineKey } from "../pipeline/PipelineKey.js";
import { UniformBlock } from "../pipeline/UniformBlock.js";
import type { Camera } from "../scene/Camera.js";
import type { Mesh } from "../scene/Mesh.js";
import { MeshPassDeviceState } from "./MeshPassDeviceState.js";
import { MeshPassDrawList } from "./MeshPassDrawList.js";
import { KEY_PARTS, KEY_SHADER, make_mesh_pass_pipeline, set_mesh_pass_key, shader_id, type MeshPassPipelineState, type MeshPassVariant } from "./mesh_pass_pipelines.js";
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

// a number, not GPUTextureUsage: this module loads before a process installs the WebGPU globals
const DEPTH_USAGE = 0x10; /* RENDER_ATTACHMENT */

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

    readonly #list = new MeshPassDrawList();
    readonly #variants: MeshPassVariant[] = [];
    readonly #filter: ((mesh: Mesh) => boolean) | null;
    readonly #per_device = new WeakMap<GPUDevice, MeshPassDeviceState>();
    #last_state: MeshPassDeviceState | null = null;
    readonly #pass_name: string;
    readonly #depth_name: string;
    readonly #prelude: string;
    #color: FrameGraphHandle = -1;
    #depth: FrameGraphHandle = -1;
    #camera_buffer: GPUBuffer | null = null;
    #building: MeshPassVariant | null = null;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor;
    readonly #targets: GPUColorTargetState[] = [{ format: "rgba16float" }];
    // what the pipelines are keyed on: the formats set as the pass records, the rest read from the settings at each use
    readonly #pipeline: MeshPassPipelineState = { blend: "replace", cull: "back", depth_compare: "less", color_format: "rgba16float", depth_format: "depth32float", depth_write: false };

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
        const variant: MeshPassVariant = { name, code, key, modules: new WeakMap(), start: 0, end: 0 };
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
        return this.#list.join(mesh, index);
    }

    /** Takes `mesh` out of the pass; false if it had not joined. */
    remove(mesh: Mesh): boolean {
        return this.#list.leave(mesh);
    }

    /** Whether `mesh` has joined the pass. */
    has(mesh: Mesh): boolean {
        return this.#list.has(mesh);
    }

    /** The variant `mesh` joined with, or null if it has not joined. */
    variant_of(mesh: Mesh): string | null {
        const index = this.#list.variant_index(mesh);
        return index === undefined ? null : this.#variants[index].name;
    }

    /** How many meshes have joined. */
    get mesh_count(): number {
        return this.#list.joined_count;
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
        if (!this.#list.collect(this.meshes === "scene" ? frame.scene.meshes : null, this.#filter, this.#variants)) return;
        if (this.target === null) this.#record_over_scene(frame);
        else this.#record_into_target(frame, this.target);
        const variants = this.#variants;
        const pipeline = this.#pipeline_state();
        for (let v = 0; v < variants.length; v++) set_mesh_pass_key(variants[v].key, pipeline);
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
        this.#pipeline.color_format = color_info.format;
        this.#pipeline.depth_format = depth_info.format;
        this.#camera_buffer = frame.view.camera.buffer;
        const pass = frame.graph.add(this.#pass_name, this, execute_mesh_pass);
        this.#depth = pass.read(depth);
        this.#color = pass.write(scene_color.color, "load");
        scene_color.color = this.#color;
    }

    #record_into_target(frame: FrameContext, target: MeshPassTarget): void {
        const device = frame.device;
        const texture = this.#state(device).target_texture(device, this.name, target);
        this.#pipeline.color_format = target.format;
        this.#pipeline.depth_format = target.depth;
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

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        const list = this.#list;
        const objects = list.objects.upload(device);
        const values = this.values.upload(device);
        const group = state.bind_group(device, this.name, this.#camera_buffer!, objects, values, list.objects.generation);
        const target = this.target;
        this.#colors[0] = target === null ? resources.color_attachment(this.#color) : resources.color_attachment(this.#color, target.clear);
        this.#descriptor.depthStencilAttachment = this.#depth === -1 ? undefined : resources.depth_attachment(this.#depth);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setBindGroup(0, group);
        const variants = this.#variants;
        for (let v = 0; v < variants.length; v++) {
            const variant = variants[v];
            if (variant.start === variant.end) continue;
            this.#building = variant;
            pass.setPipeline(this.pipelines.get(device, variant.key.value, build_pipeline, this));
            list.draw(pass, variant, state.geometries, this);
        }
        this.#building = null;
        pass.end();
    }

    /** @internal builds the pipeline of the variant being drawn (called by the cache only for a key it lacks) */
    build_pipeline(device: GPUDevice): GPURenderPipeline {
        return make_mesh_pass_pipeline(device, this.name, this.#building!, this.#state(device).pipeline_layout, this.#targets, this.#pipeline_state());
    }

    #pipeline_state(): MeshPassPipelineState {
        const state = this.#pipeline;
        state.blend = this.blend;
        state.cull = this.cull;
        state.depth_compare = this.depth_compare;
        state.depth_write = this.target !== null;
        return state;
    }

    #variant_index(name: string): number {
        const variants = this.#variants;
        for (let i = 0; i < variants.length; i++) if (variants[i].name === name) return i;
        return -1;
    }

    #state(device: GPUDevice): MeshPassDeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = new MeshPassDeviceState(device, this.name);
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
        this.#list.clear();
    }
}

function build_pipeline(device: GPUDevice, extension: MeshPassExtension): GPURenderPipeline {
    return extension.build_pipeline(device);
}

function execute_mesh_pass(extension: MeshPassExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}
