import { report_error } from "./report_error.js";
import { GPUMemoryTracker, type GPUMemory } from "../shade/device/GPUMemoryTracker.js";
import type { FramePhase } from "../shade/renderer/extension/FramePhase.js";
import type { RenderExtension } from "../shade/renderer/extension/RenderExtension.js";
import { extension_label } from "../shade/renderer/extension/extension_label.js";
import { RenderExtensionRegistry, type RenderPipelineDescription } from "../shade/renderer/extension/RenderExtensionRegistry.js";
import { RenderView } from "../shade/renderer/extension/RenderView.js";
import { Renderer } from "../shade/renderer/Renderer.js";
import { Scene } from "../shade/renderer/scene/Scene.js";
import type { RenderTarget } from "../shade/renderer/target/RenderTarget.js";
import { check_upscale_slot, type UpscaleSlot } from "../shade/renderer/upscale/Upscaler.js";
import type { FullscreenPath } from "../shade/renderer/fullscreen/FullscreenPath.js";

export interface GraphicsEngineOptions {
    /** Where WebGPU comes from: `navigator.gpu` in a browser (the default), Dawn's `GPU` in Node. */
    readonly gpu?: GPU;
    /** Where frames are presented; may also be set later through `target`, before `start()`. */
    readonly target?: RenderTarget;
    readonly adapter_options?: GPURequestAdapterOptions;
    readonly device_descriptor?: GPUDeviceDescriptor;
    /**
     * Told about a lost device (before recovery starts), a recovery that failed, uncaptured GPU errors, and
     * each extension failure (a `RenderExtensionError`, once, as the extension is suspended and the rest of
     * the frame drawn). A callback that throws is logged and never stops recovery. Without it, errors are
     * logged with console.error.
     */
    readonly on_error?: (error: Error) => void;
    /**
     * Per-pass GPU timing (`renderer.extension_timings()`), asking for `timestamp-query` where the adapter has
     * it. Default true; false leaves the feature unrequested and the renderer untimed (see `RendererOptions`).
     */
    readonly gpu_timing?: boolean;
    /** How full-screen steps run (`RendererOptions.fullscreen_paths`): "raster", "compute" or "auto" (default). */
    readonly fullscreen_paths?: FullscreenPath;
    /**
     * GPU frustum culling of the G-buffer's meshes (`RendererOptions.gbuffer_culling`), on every renderer this engine
     * makes. Default true; it needs `indirect-first-instance`, asked for where the adapter has it.
     */
    readonly gbuffer_culling?: boolean;
}

/** Where the engine is in its life. */
export type GraphicsEngineState = "stopped" | "starting" | "running" | "recovering";

/**
 * Holds the render extensions, the scene and the renderer. Extensions can be added before any device exists;
 * they are applied to the renderer when one is built, and again after `stop()` -> `start()` and after a lost
 * device, from which the engine recovers by itself (a new device, a new renderer, the same extensions and
 * the same scene).
 */
export class GraphicsEngine {
    readonly view = new RenderView();
    #upscale: UpscaleSlot = "taa";
    /** Told about lost devices, failed recoveries and uncaptured GPU errors (see the option). */
    on_error: ((error: Error) => void) | null;

    readonly #options: GraphicsEngineOptions;
    readonly #registry = new RenderExtensionRegistry();
    #target: RenderTarget | null;
    #scene = new Scene();
    #resolution_scale = 0.75;
    #renderer: Renderer | null = null;
    #device: GPUDevice | null = null;
    #memory: GPUMemoryTracker | null = null;
    #state: GraphicsEngineState = "stopped";
    /** What the last start()/stop() call asked for; the last call wins. */
    #wanted: "running" | "stopped" = "stopped";
    #ready: Promise<void> = Promise.resolve();
    #restarts = 0;

    constructor(options: GraphicsEngineOptions = {}) {
        this.#options = options;
        this.#target = options.target ?? null;
        this.on_error = options.on_error ?? null;
    }

    get state(): GraphicsEngineState {
        return this.#state;
    }

    /** The live renderer, or null while stopped, starting or recovering. */
    get renderer(): Renderer | null {
        return this.#renderer;
    }

    /** The live device, or null. */
    get device(): GPUDevice | null {
        return this.#device;
    }

    /**
     * GPU bytes the engine's live device holds, per category: the frame graph's transient textures, every
     * buffer, every other texture (extensions' own included: the device's createBuffer/createTexture are
     * tracked). All 0 while there is no device. Written into `into` when given (no allocation).
     */
    gpu_memory(into: GPUMemory = { transients: 0, buffers: 0, textures: 0, total: 0 }): GPUMemory {
        const memory = this.#memory;
        const transients = this.#renderer?.graph.pool.live_bytes ?? 0;
        const buffers = memory?.buffer_bytes ?? 0;
        // the pool's textures are made through the tracked device too: counted once, as transients
        const textures = memory === null ? 0 : memory.texture_bytes - transients;
        into.transients = transients;
        into.buffers = buffers;
        into.textures = textures;
        into.total = transients + buffers + textures;
        return into;
    }

    /** How many renderers have been built over the engine's life. */
    get renderer_generation(): number {
        return this.#restarts;
    }

    /** Where frames are presented. Set it before `start()`; changing it while started throws. */
    get target(): RenderTarget | null {
        return this.#target;
    }

    set target(target: RenderTarget | null) {
        if (this.#state !== "stopped") {
            throw new Error(`GraphicsEngine.target cannot change while the engine is ${this.#state}; stop() first`);
        }
        this.#target = target;
    }

    /** What every renderer the engine builds draws; kept across restarts and lost devices. */
    get scene(): Scene {
        return this.#scene;
    }

    set scene(scene: Scene) {
        if (!(scene instanceof Scene)) throw new TypeError(`GraphicsEngine.scene must be a Scene, got ${String(scene)}`);
        this.#scene = scene;
        if (this.#renderer !== null) this.#renderer.scene = scene;
    }

    /** Dynamic resolution: internal size = output size x this (with TAA on), in (0, 4]. Checked here. */
    /**
     * The renderer's upscale slot (see `Renderer.upscale`): "taa", "none" or a user `Upscaler`; kept across
     * restarts and applied to every renderer. Checked on assignment.
     */
    get upscale(): UpscaleSlot {
        return this.#upscale;
    }

    set upscale(slot: UpscaleSlot) {
        this.#upscale = check_upscale_slot(slot, "GraphicsEngine.upscale");
    }

    /** Whether the upscale slot holds TAA; false empties it if it held TAA. Kept across restarts. */
    get feature_taa_enabled(): boolean {
        return this.#upscale === "taa";
    }

    set feature_taa_enabled(enabled: boolean) {
        if (enabled) this.#upscale = "taa";
        else if (this.#upscale === "taa") this.#upscale = "none";
    }

    get resolution_scale(): number {
        return this.#resolution_scale;
    }

    set resolution_scale(scale: number) {
        if (!(typeof scale === "number" && scale > 0 && scale <= 4)) {
            throw new RangeError(`GraphicsEngine.resolution_scale must be a number in (0, 4], got ${String(scale)}`);
        }
        this.#resolution_scale = scale;
    }

    /**
     * Registers `extension` (with or without a device) and returns it. Refused, with nothing changed in the
     * engine or its renderer: a second registration, a cycle, a duplicate name on the phase, and any call
     * from inside an extension's `record`.
     */
    add_extension<E extends RenderExtension>(extension: E): E {
        const renderer = this.#renderer;
        renderer?.registry.expect_not_recording("add_extension", extension);
        if (renderer !== null && renderer.registry.has(extension) && !this.#registry.has(extension)) {
            throw new Error(
                `add_extension: render extension ${extension_label(extension)} is already registered on the renderer directly; ` +
                    `remove it there first (what is registered on a renderer is lost with it - register through the GraphicsEngine)`,
            );
        }
        this.#registry.add(extension);
        if (renderer !== null) {
            try {
                renderer.add_extension(extension);
            } catch (error) {
                // the renderer may carry extensions registered on it directly: keep engine and renderer agreeing
                this.#registry.remove(extension);
                throw error;
            }
        }
        return extension;
    }

    /** Unregisters `extension`; returns whether it was registered. Refused from inside `record`. */
    remove_extension(extension: RenderExtension): boolean {
        this.#renderer?.registry.expect_not_recording("remove_extension", extension);
        const removed = this.#registry.remove(extension);
        if (removed && this.#renderer !== null) this.#renderer.remove_extension(extension);
        return removed;
    }

    /**
     * Extensions suspended after a failure (a throwing `record`, a pass that threw while executing) record
     * again from the next frame. Suspension also ends with any registration change and with a new renderer.
     */
    retry_extensions(): void {
        this.#renderer?.registry.retry_suspended();
    }

    /** Whether `extension` is registered through this engine. */
    has_extension(extension: RenderExtension): boolean {
        return this.#registry.has(extension);
    }

    extension_count(phase: FramePhase): number {
        return this.#registry.extension_count(phase);
    }

    describe(): RenderPipelineDescription {
        return this.#registry.describe();
    }

    /** Resolves when the engine is running (after `start` or a recovery); rejects when that failed. */
    ready(): Promise<void> {
        return this.#ready;
    }

    /**
     * Requests a device and builds the renderer with every registered extension. A failure (no WebGPU, no
     * adapter, the device request rejected) rejects with a clear error and leaves the engine "stopped"; a
     * later `start()` tries again. With calls overlapping, the last of `start()`/`stop()` wins.
     */
    start(): Promise<void> {
        this.#wanted = "running";
        if (this.#state === "running" || this.#state === "starting" || this.#state === "recovering") return this.#ready;
        this.#state = "starting";
        this.#ready = this.#build("start");
        this.#ready.catch(() => {}); // the caller of start() gets the rejection; ready() keeps it too
        return this.#ready;
    }

    /** Destroys the renderer and its device. Extensions and the scene stay for the next `start`. */
    async stop(): Promise<void> {
        this.#wanted = "stopped";
        await this.#ready.catch(() => {});
        if (this.#wanted !== "stopped") return; // a start() after this stop() won
        const device = this.#device;
        this.#teardown();
        this.#state = "stopped";
        device?.destroy();
    }

    /**
     * Renders one frame; returns false (and draws nothing) while stopped, starting, recovering, or while the
     * target has no size. Errors of the frame (an extension's, a misuse) are thrown; the next frame is fresh.
     */
    render(): boolean {
        const renderer = this.#renderer;
        if (renderer === null || this.#state !== "running") return false;
        renderer.upscale = this.#upscale;
        renderer.resolution_scale = this.#resolution_scale;
        renderer.scene = this.#scene;
        return renderer.render_frame();
    }

    async #build(why: "start" | "recover"): Promise<void> {
        const verb = why === "start" ? "GraphicsEngine.start" : "GraphicsEngine recovery";
        let device: GPUDevice | null = null;
        try {
            const target = this.#target;
            if (target === null) {
                throw new Error(`${verb}: no render target; pass { target } to new GraphicsEngine() or set graphics.target before start()`);
            }
            const gpu = this.#options.gpu ?? (typeof navigator !== "undefined" ? navigator.gpu : undefined);
            if (gpu === undefined) {
                throw new Error(`${verb}: WebGPU is not available (no navigator.gpu and no gpu option); use a browser with WebGPU enabled`);
            }
            const adapter = await gpu.requestAdapter(this.#options.adapter_options);
            if (adapter === null) throw new Error(`${verb}: no WebGPU adapter is available`);
            // GPU timing per pass when the adapter can: asked for on top of what the caller requires
            const descriptor = this.#options.device_descriptor ?? {};
            const features = [...(descriptor.requiredFeatures ?? [])];
            const timing = this.#options.gpu_timing ?? true;
            if (timing && adapter.features.has("timestamp-query") && !features.includes("timestamp-query")) features.push("timestamp-query");
            // a bgra8unorm canvas can then be written from compute (the tonemap's compute path)
            if (adapter.features.has("bgra8unorm-storage") && !features.includes("bgra8unorm-storage")) features.push("bgra8unorm-storage");
            // indirect draws that start past instance 0: the G-buffer's GPU frustum culling (FrustumCulling)
            if (adapter.features.has("indirect-first-instance") && !features.includes("indirect-first-instance")) features.push("indirect-first-instance");
            try {
                device = await adapter.requestDevice({ ...descriptor, requiredFeatures: features });
            } catch (error) {
                throw new Error(`${verb}: the device request was rejected: ${(error as Error).message}`, { cause: error });
            }
            if (this.#wanted === "stopped") {
                device.destroy();
                this.#state = "stopped";
                return;
            }
            const live = device;
            const memory = GPUMemoryTracker.install(live);
            live.addEventListener("uncapturederror", (event) => {
                const error = (event as GPUUncapturedErrorEvent).error;
                this.#report(new Error(`GPU error: ${error.message}`));
                // find the pass behind it over the next frames, and suspend it if an extension owns it
                if (this.#device === live) this.#renderer?.diagnose_gpu_errors();
            });
            void live.lost.then((info) => this.#on_lost(live, info));
            const renderer = new Renderer({
                device: live,
                target,
                view: this.view,
                scene: this.#scene,
                upscale: this.#upscale,
                resolution_scale: this.#resolution_scale,
                gpu_timing: timing,
                fullscreen_paths: this.#options.fullscreen_paths,
                gbuffer_culling: this.#options.gbuffer_culling,
                // one bad extension never takes the frame down: reported once, suspended, the rest drawn
                on_error: (error) => this.#report(error),
            });
            for (const extension of this.#registry.all()) renderer.add_extension(extension);
            this.#device = live;
            this.#memory = memory;
            this.#renderer = renderer;
            this.#restarts++;
            this.#state = "running";
        } catch (error) {
            if (device !== null) GPUMemoryTracker.of(device)?.close();
            device?.destroy();
            this.#device = null;
            this.#renderer = null;
            this.#state = "stopped";
            throw error;
        }
    }

    #on_lost(device: GPUDevice, info: GPUDeviceLostInfo): void {
        if (device !== this.#device || this.#state !== "running") return; // our own stop, or an old device
        // tear down first: nothing a user callback does may leave the engine on a dead device
        this.#teardown();
        this.#state = "recovering";
        this.#report(new Error(`GPU device lost (${info.reason}): ${info.message}; recovering`));
        this.#ready = this.#build("recover").catch((error: unknown) => {
            const failure = new Error(`GraphicsEngine could not recover from a lost device; call start() to try again`, { cause: error });
            this.#report(failure);
            throw failure;
        });
        this.#ready.catch(() => {}); // reported through on_error; ready() still rejects for whoever awaits it
    }

    #report(error: Error): void {
        report_error(this.on_error, error, "GraphicsEngine");
    }

    #teardown(): void {
        const renderer = this.#renderer;
        this.#renderer = null;
        this.#device = null;
        // the device is destroyed (stop) or lost: everything it held is gone with it
        this.#memory?.close();
        this.#memory = null;
        try {
            renderer?.destroy();
        } catch (error) {
            console.error("GraphicsEngine: destroying the renderer failed", error);
        }
    }
}
