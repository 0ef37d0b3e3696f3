import { internal_extent_of_steps, resolution_steps } from "./upscale/internal_extent.js";
import { FrameGraph } from "../device/graph/FrameGraph.js";
import { GPUTextureAllocator } from "../device/graph/GPUTextureAllocator.js";
import { GPUPassTimer, type ScopeTiming } from "../device/graph/GPUPassTimer.js";
import { FrameContext } from "./extension/FrameContext.js";
import { FramePhase } from "./extension/FramePhase.js";
import type { RenderExtension } from "./extension/RenderExtension.js";
import { RenderExtensionError } from "./extension/RenderExtensionError.js";
import { extension_label } from "./extension/extension_label.js";
import { RenderExtensionRegistry, type RenderPipelineDescription } from "./extension/RenderExtensionRegistry.js";
import { FramePassError } from "../device/graph/FramePassError.js";
import { RenderView } from "./extension/RenderView.js";
import { Scene } from "./scene/Scene.js";
import { check_fullscreen_path, set_fullscreen_path } from "./fullscreen/FullscreenPath.js";
import type { RenderTarget } from "./target/RenderTarget.js";
import { check_upscale_slot, type UpscaleSlot } from "./upscale/Upscaler.js";
import { FrameSteps } from "./FrameSteps.js";
import { execute_diagnosed, type GPUErrorDiagnosis } from "./diagnose_gpu_errors.js";
import type { MeshDrawList } from "./mesh/MeshDrawList.js";
import type { FrustumCulling } from "./mesh/FrustumCulling.js";
import type { RendererOptions } from "./RendererOptions.js";

export type { RendererOptions } from "./RendererOptions.js";

const encoder_descriptor: GPUCommandEncoderDescriptor = { label: "frame" };

/**
 * Runs the closed frame on one device: FrameStart, G-buffer, AfterGBuffer, lighting, AfterLighting,
 * transparency, AfterTransparency, upscale, BeforePresent, tonemap + present, Overlay (plus the frame products
 * extensions require, such as a depth prepass before FrameStart for `PrepassDepth`). Extensions registered
 * here directly are lost with the renderer; register through `GraphicsEngine` to keep them across restarts.
 */
export class Renderer {
    readonly device: GPUDevice;
    readonly target: RenderTarget;
    readonly view: RenderView;
    readonly graph: FrameGraph;
    readonly frame: FrameContext;
    readonly registry = new RenderExtensionRegistry();
    /** Meshes and lights, drawn by the G-buffer, lighting and transparency steps. */
    scene: Scene;

    #upscale_slot: UpscaleSlot = "taa";
    #resolution_scale = 0.75;
    /** The scale in 64ths (`resolution_steps`), kept as an integer: the frame reads it without boxing a double. */
    #resolution_steps = 48;
    /** When true, each frame leaves its graph as DOT text in `last_frame_dot`. */
    capture_graph_dump = false;
    last_frame_dot = "";
    /** When true, each frame leaves its passes (name, scope, culled) in `last_frame_passes`, for inspectors. */
    capture_pass_list = false;
    last_frame_passes: { name: string; scope: string | null; culled: boolean }[] = [];
    /**
     * Whether the built-in TAA asks for the `Velocity` product, in frames where some mesh moved (camera motion
     * alone reprojects through depth). Default true. TAA reprojects with velocity whenever the frame has it;
     * false only stops TAA from asking (no velocity pass unless an extension declares it).
     */
    taa_uses_velocity = true;
    /**
     * Whether adjacent full-screen steps with nothing registered between them run as one pass: with the built-in
     * TAA and no BeforePresent extension, its sharpen is done by the tonemap as it reads ("tonemap + taa sharpen").
     * Default true; false keeps them two passes (the same picture).
     */
    fuse_fullscreen_steps = true;

    readonly #steps = new FrameSteps(this.registry);
    readonly #command_buffers: GPUCommandBuffer[] = [];
    // reused every frame: only the encoder changes
    readonly #target: { graphics: GPUDevice; encoder: GPUCommandEncoder };
    /** GPU time per pass (built-in steps and extensions' passes) when the device has `timestamp-query`. */
    readonly timer: GPUPassTimer | null;
    #destroyed = false;
    #rendering = false;
    #failed_frame_index = -1;
    #diagnose_frames = 0;
    readonly #diagnosis: GPUErrorDiagnosis;
    readonly #on_error: ((error: Error) => void) | null;
    #frames = 0;

    constructor(options: RendererOptions) {
        this.device = options.device;
        this.target = options.target;
        this.view = options.view ?? new RenderView();
        this.scene = options.scene ?? new Scene();
        this.upscale = options.upscale ?? ((options.feature_taa_enabled ?? true) ? "taa" : "none");
        this.resolution_scale = options.resolution_scale ?? 0.75;
        this.graph = new FrameGraph(new GPUTextureAllocator(this.device));
        this.frame = new FrameContext(this.graph, this.view, this.device);
        this.#target = { graphics: this.device, encoder: null as unknown as GPUCommandEncoder };
        this.timer =
            (options.gpu_timing ?? true) && this.device.features.has("timestamp-query")
                ? new GPUPassTimer(this.device, { frames_per_read: options.gpu_timing_frames_per_read })
                : null;
        this.graph.timer = this.timer;
        this.#on_error = options.on_error ?? null;
        this.#steps.gbuffer.bundles = options.gbuffer_bundles ?? true;
        this.#steps.gbuffer.culling.enabled = options.gbuffer_culling ?? true;
        this.registry.on_failure = this.#on_error;
        this.#diagnosis = {
            device: this.device,
            graph: this.graph,
            registry: this.registry,
            timer: this.timer,
            target: this.#target,
            on_error: this.#on_error,
            destroyed: () => this.#destroyed,
            diagnose_more: () => this.diagnose_gpu_errors(),
        };
        if (options.fullscreen_paths !== undefined) set_fullscreen_path(this.device, check_fullscreen_path(options.fullscreen_paths, "Renderer fullscreen_paths"));
        this.target.configure(this.device);
    }

    /**
     * Dynamic resolution: internal size = output size x this (with TAA on), in (0, 4]; checked here. The scale is
     * rounded to steps of `RESOLUTION_SCALE_STEP` (1/64) so that a scale changing every frame reuses a small set
     * of texture sizes instead of making new ones every frame.
     */
    get resolution_scale(): number {
        return this.#resolution_scale;
    }

    set resolution_scale(scale: number) {
        if (!(typeof scale === "number" && scale > 0 && scale <= 4)) {
            throw new RangeError(`Renderer.resolution_scale must be a number in (0, 4], got ${String(scale)}`);
        }
        this.#resolution_scale = scale;
        this.#resolution_steps = resolution_steps(scale);
    }

    /**
     * The upscale slot between AfterTransparency and BeforePresent: the built-in TAA ("taa"), "none" (one
     * resolution on both sides of the boundary), or a user `Upscaler` that writes the output-size scene colour.
     * Checked on assignment.
     */
    get upscale(): UpscaleSlot {
        return this.#upscale_slot;
    }

    set upscale(slot: UpscaleSlot) {
        this.#upscale_slot = check_upscale_slot(slot, "Renderer.upscale");
    }

    /**
     * Temporal upscale on/off: whether the slot holds the built-in TAA. Setting true puts TAA in the slot;
     * setting false empties it if it held TAA (a user upscaler stays).
     */
    get feature_taa_enabled(): boolean {
        return this.#upscale_slot === "taa";
    }

    set feature_taa_enabled(enabled: boolean) {
        if (enabled) this.#upscale_slot = "taa";
        else if (this.#upscale_slot === "taa") this.#upscale_slot = "none";
    }

    /**
     * Whether the G-buffer replays a render bundle of its unskinned opaque draws, recorded again only when the
     * runs, their buffers, materials' bind groups or pipelines change (not when meshes move or their colours
     * change: that is object data). False draws every run directly each frame.
     */
    get gbuffer_bundles(): boolean {
        return this.#steps.gbuffer.bundles;
    }

    set gbuffer_bundles(on: boolean) {
        this.#steps.gbuffer.bundles = on;
    }

    /** How many times the G-buffer's render bundle was recorded so far (a static scene: once). */
    get gbuffer_bundle_records(): number {
        return this.#steps.gbuffer.bundle_records;
    }

    /**
     * The G-buffer's draw list as last built: its instanced runs (`opaque_run_count`), meshes that moved
     * (`moved_count`) and how many times frozen meshes were read again (`frozen_writes`). For inspectors and
     * tests; read it, do not change it.
     */
    get gbuffer_draw_list(): MeshDrawList {
        return this.#steps.gbuffer.draw_list;
    }

    /**
     * Whether the skinned meshes sharing a geometry (one skinning group) are drawn as one instanced draw in each
     * mesh pass, their vertices pulled from the group's buffers; false draws each skinned mesh on its own.
     * Default true.
     */
    get skinned_instancing(): boolean {
        return this.#steps.skinning.instanced;
    }

    set skinned_instancing(value: boolean) {
        this.#steps.skinning.instanced = value;
    }

    /**
     * The G-buffer's GPU frustum culling (`FrustumCulling`): `enabled` turns it off and on, `culls(device)` says
     * whether this device culls, `read_instance_counts` reads back what the last frame drew of each run.
     */
    get gbuffer_culling(): FrustumCulling {
        return this.#steps.gbuffer.culling;
    }

    /** Frames rendered so far. */
    get frame_count(): number {
        return this.#frames;
    }

    add_extension<E extends RenderExtension>(extension: E): E {
        return this.registry.add(extension);
    }

    remove_extension(extension: RenderExtension): boolean {
        return this.registry.remove(extension);
    }

    extension_count(phase: FramePhase): number {
        return this.registry.extension_count(phase);
    }

    /** The resolved pipeline as data. */
    describe(): RenderPipelineDescription {
        return this.registry.describe();
    }

    /**
     * GPU time per extension in the latest timed frame: the sum of the timestamps of the passes recorded in its
     * scope (an extension's `record`, a user upscaler's), in the order they ran; built-in steps are not in it
     * (see `timer.timings`). Empty without `timestamp-query`. For inspectors: it copies the list.
     */
    extension_timings(): ScopeTiming[] {
        const timer = this.timer;
        if (timer === null) return [];
        const out: ScopeTiming[] = [];
        for (let i = 0; i < timer.scope_timing_count; i++) out.push({ ...timer.scope_timings[i] });
        return out;
    }

    /** GPU milliseconds of one extension (by instance or name) in the latest timed frame; 0 if it ran no timed pass. */
    extension_ms(extension: RenderExtension | string): number {
        return this.timer?.scope_ms(typeof extension === "string" ? extension : extension.name) ?? 0;
    }

    /** Whether the renderer was destroyed (its device lost, or stopped). */
    get destroyed(): boolean {
        return this.#destroyed;
    }

    /** True while a frame records, compiles or submits (`render_frame` is not re-entrant). */
    get rendering(): boolean {
        return this.#rendering;
    }

    /**
     * Records, compiles and submits one frame; returns false, drawing nothing, while the target has no size
     * (a collapsed canvas). If recording throws (an extension, a misuse), the frame is dropped cleanly and the
     * error rethrown: the next frame starts fresh.
     */
    render_frame(): boolean {
        if (this.#destroyed) throw new Error("Renderer.render_frame: the renderer was destroyed");
        if (this.#rendering) {
            const recording = this.registry.recording;
            throw new Error(
                "Renderer.render_frame: render() called re-entrantly" +
                    (recording !== null ? ` from inside render extension ${extension_label(recording)}, in its record` : "") +
                    "; a frame cannot start while another is recording",
            );
        }
        if (!this.target.is_drawable()) return false;
        this.#rendering = true;
        try {
            // a pass that throws while executing leaves its encoder unusable: the frame is recorded again without
            // the extension that owns the pass (suspended), at most once per registered extension
            for (let attempt = 0; ; attempt++) {
                try {
                    this.#render_frame();
                    break;
                } catch (error) {
                    if (!this.#isolate_execute_failure(error, attempt)) throw error;
                }
            }
        } finally {
            this.#rendering = false;
        }
        return true;
    }

    // True when `error` was an extension's pass failing to execute and the extension is now suspended.
    #isolate_execute_failure(error: unknown, attempt: number): boolean {
        if (!(error instanceof FramePassError)) return false;
        const owner = this.registry.scope_owner(this.#failed_frame_index, error.scope);
        if (owner === null) return false;
        const failure = new RenderExtensionError(owner.extension, owner.phase, "execute", error.pass, error.cause);
        const report = this.registry.on_failure;
        if (report === null || attempt >= this.registry.all().length) throw failure;
        this.registry.suspend(owner.extension);
        report(failure);
        return true;
    }

    #render_frame(): void {
        const texture = this.target.acquire();
        const output_w = texture.width;
        const output_h = texture.height;
        const slot = this.#upscale_slot;
        const upscaler = typeof slot === "object" ? slot : null;
        const steps = slot === "none" ? 64 : upscaler !== null && upscaler.resolution_scale !== undefined ? resolution_steps(upscaler.resolution_scale) : this.#resolution_steps;
        const internal_w = internal_extent_of_steps(output_w, steps);
        const internal_h = internal_extent_of_steps(output_h, steps);

        const frame = this.frame;
        const graph = this.graph;
        if (slot === "taa" || upscaler?.jitter === true) this.#steps.upscale.jitter_camera(this.view.camera, this.#frames, internal_w, internal_h);
        else this.view.camera.update(internal_w, internal_h);
        this.view.camera.bind(this.device);
        this.#steps.products.begin_frame(this.view.camera);
        frame.bind_scene(this.scene);
        frame.begin(internal_w, internal_h, output_w, output_h);
        try {
            this.#steps.record(frame, graph, texture, slot, upscaler, this);
            frame.close();

            if (graph.compile() > 0 && this.#diagnose_frames > 0) {
                this.#diagnose_frames--;
                execute_diagnosed(this.#diagnosis);
            } else if (graph.executed_pass_count > 0) {
                const encoder = this.device.createCommandEncoder(encoder_descriptor);
                this.#target.encoder = encoder;
                graph.execute(this.#target);
                const timing = this.timer?.end_frame(encoder) ?? null;
                this.#command_buffers[0] = encoder.finish();
                this.device.queue.submit(this.#command_buffers);
                this.timer?.read(timing);
            }
            if (this.capture_graph_dump) this.last_frame_dot = graph.dump();
            if (this.capture_pass_list) this.last_frame_passes = graph.describe_passes();
        } finally {
            this.#failed_frame_index = graph.frame_index;
            if (!frame.closed) frame.close();
            graph.reset();
            this.view.camera.unbind();
            this.#frames++;
        }
    }

    /**
     * Finds which pass causes GPU validation errors: for the next `frames` frames every pass records on a
     * command buffer of its own, inside its own error scope, submitted alone - so an invalid pass loses only
     * itself, and an extension's is reported once (`RenderExtensionError`, failure "validation") and suspended.
     * Call it when an uncaptured GPU error arrives (GraphicsEngine does); frames are slower while it lasts.
     */
    diagnose_gpu_errors(frames = 4): void {
        this.#diagnose_frames = Math.max(this.#diagnose_frames, frames);
    }

    /** Releases the renderer's GPU objects. Registered extensions are not destroyed (their owners do that). */
    destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        this.graph.destroy();
        this.timer?.destroy();
        this.target.release();
    }
}
