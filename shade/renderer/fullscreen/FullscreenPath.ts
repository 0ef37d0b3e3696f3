/**
 * How a full-screen step runs: a fragment shader over a covering triangle ("raster") or a compute shader over
 * 8x8 tiles writing a storage texture ("compute"). "auto" takes the faster on the device's class, by the rule
 * measured in BENCHMARKS.md ("Full-screen passes: raster or compute"): compute on GPUs, raster on CPU
 * implementations (SwiftShader), where the two are within noise of each other and raster is the tested path.
 */
export type FullscreenPath = "auto" | "raster" | "compute";

const FULLSCREEN_PATHS: ReadonlySet<string> = new Set(["auto", "raster", "compute"]);
const chosen = new WeakMap<GPUDevice, FullscreenPath>();

/** Throws a TypeError naming `owner` unless `path` is a FullscreenPath. */
export function check_fullscreen_path(path: unknown, owner: string): FullscreenPath {
    if (typeof path !== "string" || !FULLSCREEN_PATHS.has(path)) {
        throw new TypeError(`${owner}: fullscreen path is 'auto', 'raster' or 'compute', got ${typeof path === "string" ? `'${path}'` : String(path)}`);
    }
    return path as FullscreenPath;
}

/** Sets the path every full-screen step on `device` takes unless it names its own (the Renderer's `fullscreen_paths`). */
export function set_fullscreen_path(device: GPUDevice, path: FullscreenPath): void {
    chosen.set(device, check_fullscreen_path(path, "set_fullscreen_path"));
}

/** The path set for `device` ("auto" when none was set). */
export function fullscreen_path_of(device: GPUDevice): FullscreenPath {
    return chosen.get(device) ?? "auto";
}

/**
 * True when the device is a GPU (not a CPU implementation such as SwiftShader) by its adapter information: the
 * class where compute is the faster full-screen path. False when the device says nothing of its adapter (an
 * older browser): raster, the path every device runs well.
 */
export function is_gpu_device(device: GPUDevice): boolean {
    // asked every frame by each full-screen step: the answer is kept per device (working it out builds strings)
    let gpu = device_class.get(device);
    if (gpu === undefined) {
        gpu = classify(device);
        device_class.set(device, gpu);
    }
    return gpu;
}

const device_class = new WeakMap<GPUDevice, boolean>();

function classify(device: GPUDevice): boolean {
    const info = device.adapterInfo as GPUAdapterInfo | undefined;
    if (info === undefined) return false;
    if (info.isFallbackAdapter === true) return false;
    const names = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`.toLowerCase();
    return !(names.includes("swiftshader") || names.includes("llvmpipe") || names.includes("lavapipe"));
}

/**
 * Resolves a step's own path against the device's: an explicit "raster" or "compute" wins, then the device's
 * setting, then the measured rule.
 */
export function use_compute(device: GPUDevice, own: FullscreenPath): boolean {
    const path = own !== "auto" ? own : fullscreen_path_of(device);
    if (path !== "auto") return path === "compute";
    return is_gpu_device(device);
}

// Formats every device can bind as a write-only storage texture (WebGPU core), and bgra8unorm with its feature.
const STORAGE_FORMATS: ReadonlySet<string> = new Set([
    "r32float", "r32uint", "r32sint", "rg32float", "rg32uint", "rg32sint",
    "rgba8unorm", "rgba8snorm", "rgba8uint", "rgba8sint",
    "rgba16float", "rgba16uint", "rgba16sint", "rgba32float", "rgba32uint", "rgba32sint",
]);

/** Whether `format` can be written as a storage texture on `device`. */
export function is_storage_format(device: GPUDevice, format: GPUTextureFormat): boolean {
    if (STORAGE_FORMATS.has(format)) return true;
    return format === "bgra8unorm" && device.features.has("bgra8unorm-storage");
}
