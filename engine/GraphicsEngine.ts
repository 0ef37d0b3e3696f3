import type { FramePhase } from "../shade/renderer/extension/FramePhase.js";
import type { RenderExtension } from "../shade/renderer/extension/RenderExtension.js";
import { RenderExtensionRegistry, type RenderPipelineDescription } from "../shade/renderer/extension/RenderExtensionRegistry.js";
import { RenderView } from "../shade/renderer/extension/RenderView.js";
import { Renderer } from "../shade/renderer/Renderer.js";
import type { RenderTarget } from "../shade/renderer/target/RenderTarget.js";

export interface GraphicsEngineOptions {
    /** Where WebGPU comes from: `navigator.gpu` in a browser (the default), Dawn's `GPU` in Node. */
    readonly gpu?: GPU;
    /** Where frames are presented. */
    readonly target: RenderTarget;
    readonly adapter_options?: GPURequestAdapterOptions;
    readonly device_descriptor?: GPUDeviceDescriptor;
    /** Told about a lost device (before recovery starts) and about uncaptured GPU errors. */
    readonly on_error?: (error: Error) => void;
}

/** Where the engine is in its life. */
export type GraphicsEngineState = "stopped" | "starting" | "running" | "recovering";

/**
 * Holds the render extensions and the renderer. Extensions can be added before any device exists; they are
 * applied to the renderer when one is built, and again after `stop()` -> `start()` and after a lost device,
 * from which the engine recovers by itself (a new device, a new renderer, the same extensions).
 */
export class GraphicsEngine {
    readonly view = new RenderView();
    /** Kept across restarts and applied to every renderer. */
    feature_taa_enabled = true;
    resolution_scale = 0.75;

    readonly #options: GraphicsEngineOptions;
    readonly #registry = new RenderExtensionRegistry();
    #renderer: Renderer | null = null;
    #device: GPUDevice | null = null;
    #state: GraphicsEngineState = "stopped";
    #ready: Promise<void> = Promise.resolve();
    #restarts = 0;

    constructor(options: GraphicsEngineOptions) {
        this.#options = options;
    }

    get state(): GraphicsEngineState {
        return this.#state;
    }

    /** The live renderer, or null while stopped or recovering. */
    get renderer(): Renderer | null {
        return this.#renderer;
    }

    /** The live device, or null. */
    get device(): GPUDevice | null {
        return this.#device;
    }

    /** How many renderers have been built over the engine's life. */
    get renderer_generation(): number {
        return this.#restarts;
    }

    /** Registers `extension` (with or without a device) and returns it. Ordering errors throw here. */
    add_extension<E extends RenderExtension>(extension: E): E {
        this.#registry.add(extension);
        if (this.#renderer !== null) this.#renderer.add_extension(extension);
        return extension;
    }

    /** Unregisters `extension`; returns whether it was registered. */
    remove_extension(extension: RenderExtension): boolean {
        const removed = this.#registry.remove(extension);
        if (removed && this.#renderer !== null) this.#renderer.remove_extension(extension);
        return removed;
    }

    extension_count(phase: FramePhase): number {
        return this.#registry.extension_count(phase);
    }

    describe(): RenderPipelineDescription {
        return this.#registry.describe();
    }

    /** Resolves when the engine is running (after `start` or a recovery). */
    ready(): Promise<void> {
        return this.#ready;
    }

    /** Requests a device and builds the renderer with every registered extension. */
    async start(): Promise<void> {
        if (this.#state === "running" || this.#state === "starting") return this.#ready;
        this.#state = "starting";
        this.#ready = this.#build();
        return this.#ready;
    }

    /** Destroys the renderer and its device. Extensions stay registered for the next `start`. */
    async stop(): Promise<void> {
        await this.#ready.catch(() => {});
        this.#state = "stopped";
        const device = this.#device;
        this.#teardown();
        device?.destroy();
    }

    /** Renders one frame; returns false (and draws nothing) while stopped or recovering. */
    render(): boolean {
        const renderer = this.#renderer;
        if (renderer === null || this.#state !== "running") return false;
        renderer.feature_taa_enabled = this.feature_taa_enabled;
        renderer.resolution_scale = this.resolution_scale;
        renderer.render_frame();
        return true;
    }

    async #build(): Promise<void> {
        const gpu = this.#options.gpu ?? (typeof navigator !== "undefined" ? navigator.gpu : undefined);
        if (gpu === undefined) {
            throw new Error("GraphicsEngine.start: WebGPU is not available (no navigator.gpu and no gpu option)");
        }
        const adapter = await gpu.requestAdapter(this.#options.adapter_options);
        if (adapter === null) throw new Error("GraphicsEngine.start: no WebGPU adapter is available");
        // GPU timing per pass when the adapter can: asked for on top of what the caller requires
        const descriptor = this.#options.device_descriptor ?? {};
        const features = [...(descriptor.requiredFeatures ?? [])];
        if (adapter.features.has("timestamp-query") && !features.includes("timestamp-query")) features.push("timestamp-query");
        const device = await adapter.requestDevice({ ...descriptor, requiredFeatures: features });
        if (this.#state === "stopped") {
            device.destroy();
            return;
        }
        device.addEventListener("uncapturederror", (event) => {
            const error = (event as GPUUncapturedErrorEvent).error;
            this.#options.on_error?.(new Error(`GPU error: ${error.message}`));
        });
        void device.lost.then((info) => this.#on_lost(device, info));
        this.#device = device;
        const renderer = new Renderer({
            device,
            target: this.#options.target,
            view: this.view,
            feature_taa_enabled: this.feature_taa_enabled,
            resolution_scale: this.resolution_scale,
        });
        for (const extension of this.#registry.all()) renderer.add_extension(extension);
        this.#renderer = renderer;
        this.#restarts++;
        this.#state = "running";
    }

    #on_lost(device: GPUDevice, info: GPUDeviceLostInfo): void {
        if (device !== this.#device || this.#state === "stopped") return; // our own stop, or an old device
        this.#options.on_error?.(new Error(`GPU device lost (${info.reason}): ${info.message}; recovering`));
        this.#teardown();
        this.#state = "recovering";
        this.#ready = this.#build().catch((error: unknown) => {
            this.#state = "stopped";
            throw new Error("GraphicsEngine could not recover from a lost device", { cause: error });
        });
    }

    #teardown(): void {
        this.#renderer?.destroy();
        this.#renderer = null;
        this.#device = null;
    }
}
