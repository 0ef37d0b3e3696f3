import type { FullscreenPath } from "./fullscreen/FullscreenPath.js";
import type { RenderView } from "./extension/RenderView.js";
import type { Scene } from "./scene/Scene.js";
import type { RenderTarget } from "./target/RenderTarget.js";
import type { UpscaleSlot } from "./upscale/Upscaler.js";

/** What `new Renderer(options)` takes. */
export interface RendererOptions {
    readonly device: GPUDevice;
    readonly target: RenderTarget;
    /** Temporal upscale between AfterTransparency and BeforePresent. Default true. Ignored when `upscale` is given. */
    readonly feature_taa_enabled?: boolean;
    /** The upscale slot: "taa" (the default), "none" or a user `Upscaler`. */
    readonly upscale?: UpscaleSlot;
    /** Internal resolution = output x scale (rounded to 1/64 steps), with TAA on. Default 0.75. */
    readonly resolution_scale?: number;
    readonly view?: RenderView;
    /** What is drawn; a renderer made without one draws an empty scene (the sky). */
    readonly scene?: Scene;
    /**
     * Fault isolation (see `RenderExtensionRegistry.on_failure`): when given, an extension that fails to record,
     * whose pass throws while executing, or whose pass fails GPU validation (found by `diagnose_gpu_errors`) is
     * reported here once as a `RenderExtensionError` and suspended, and the frame is drawn without it. GPU
     * validation failures of built-in passes come here as plain errors. Without it, record and execute failures
     * drop the frame and are thrown from `render_frame`.
     */
    readonly on_error?: (error: Error) => void;
    /**
     * Per-pass GPU time (`timer`, `extension_timings()`) when the device has `timestamp-query`. Default true.
     * It costs each frame a query resolve and a copy, and one `mapAsync` read-back per
     * `gpu_timing_frames_per_read` frames: a shipped game that shows no GPU timings can turn it off.
     */
    readonly gpu_timing?: boolean;
    /** Frames per GPU-timing read-back (`GPUPassTimerOptions.frames_per_read`); default `GPUPassTimer.FRAMES_PER_READ`. */
    readonly gpu_timing_frames_per_read?: number;
    /**
     * How the full-screen steps run on this device (TAA resolve and sharpen, tonemap, half-resolution colour,
     * and every `FullscreenEffect` that does not name its own path): "raster", "compute", or "auto" (default:
     * compute on GPUs, raster on CPU implementations, as measured in BENCHMARKS.md). See `FullscreenPath`.
     */
    readonly fullscreen_paths?: FullscreenPath;
    /**
     * Whether the G-buffer records its unskinned opaque draws once into a render bundle and replays it while they
     * stay the same (`gbuffer_bundles`). Default true.
     */
    readonly gbuffer_bundles?: boolean;
    /**
     * Whether the G-buffer culls its opaque meshes against the camera's frustum on the GPU and draws them
     * indirectly (`gbuffer_culling`; needs the device's `indirect-first-instance` feature). Default true.
     */
    readonly gbuffer_culling?: boolean;
}
