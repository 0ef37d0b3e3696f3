// Real-GPU test harness: Dawn (the `webgpu` package) in Node. Never a mock of GPUDevice.
import { create, globals } from 'webgpu';

const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/** Something a test creates on the device and wants destroyed when the test ends. */
export type Destroyable = { destroy(): void };

/** Registers `o` to be destroyed after the test body; returns `o` unchanged. */
export type TrackFn = <O extends Destroyable>(o: O) => O;

export interface GpuDeviceOptions {
  /** Features to enable (with `indirect-first-instance` always). Only those the adapter offers are requested; check `device.features`. */
  features?: GPUFeatureName[];
}

export interface GpuAdapterDiagnostics {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  features: string[];
}

let cached_gpu: GPU | undefined;

/**
 * The process-wide Dawn `GPU` object (created once, cached). Installs the WebGPU globals
 * (`GPUBufferUsage`, `GPUTextureUsage`, ...) on first call. Use it to create devices by hand,
 * e.g. for device-loss tests; prefer `with_gpu_device` for everything else.
 */
export function get_gpu(): GPU {
  if (cached_gpu) return cached_gpu;
  // The Vulkan loader reads this when Dawn creates its instance, so it must be set before create().
  if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) {
    process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  }
  Object.assign(globalThis, globals);
  cached_gpu = create([]);
  return cached_gpu;
}

async function request_adapter(): Promise<GPUAdapter> {
  const adapter = await get_gpu().requestAdapter();
  if (!adapter) {
    throw new Error(
      `WebGPU (Dawn) returned no adapter. VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES ?? '(unset)'}; ` +
        'is libvulkan1 installed and chromium providing vk_swiftshader_icd.json? Run `node scripts/ensure-system.mjs`.',
    );
  }
  return adapter;
}

/** Vendor/architecture of the adapter the tests run on, for diagnostics in logs and reports. */
export async function gpu_adapter_info(): Promise<GpuAdapterDiagnostics> {
  const adapter = await request_adapter();
  const info = adapter.info;
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
    features: [...adapter.features].map(String).sort(),
  };
}

function describe_error(kind: string, error: GPUError): string {
  return `[${kind}] ${error.message}`;
}

/**
 * Runs `fn` with a fresh Dawn device inside `validation` and `internal` error scopes, then pops the scopes,
 * waits for submitted work, destroys every tracked object and the device. Rejects with an Error whose
 * message lists every GPU error (scoped, uncaptured, or an unexpected device loss) that occurred. If `fn`
 * throws, that error is rethrown (or attached as `cause` when GPU errors also occurred).
 */
export async function with_gpu_device<T>(
  fn: (device: GPUDevice, track: TrackFn) => Promise<T> | T,
  options?: GpuDeviceOptions,
): Promise<T> {
  const adapter = await request_adapter();
  // as GraphicsEngine does: the G-buffer's GPU culling draws indirectly from a run's first instance
  const wanted: GPUFeatureName[] = [...(options?.features ?? []), 'indirect-first-instance'];
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f));
  const device = await adapter.requestDevice({ requiredFeatures });

  const gpu_errors: string[] = [];
  let destroying = false;
  const on_uncaptured = (event: GPUUncapturedErrorEvent): void => {
    gpu_errors.push(describe_error('uncaptured', event.error));
  };
  device.addEventListener('uncapturederror', on_uncaptured);
  void device.lost.then((info) => {
    if (!destroying) gpu_errors.push(`[device lost: ${info.reason}] ${info.message}`);
  });

  const tracked: Destroyable[] = [];
  const track: TrackFn = (o) => {
    tracked.push(o);
    return o;
  };

  device.pushErrorScope('validation');
  device.pushErrorScope('internal');

  let result: T | undefined;
  let fn_failed = false;
  let fn_error: unknown;
  try {
    result = await fn(device, track);
  } catch (e) {
    fn_failed = true;
    fn_error = e;
  }

  // Scopes pop in reverse push order.
  for (const kind of ['internal', 'validation']) {
    try {
      const error = await device.popErrorScope();
      if (error) gpu_errors.push(describe_error(kind, error));
    } catch (e) {
      gpu_errors.push(`[${kind}] popErrorScope failed (did the test leave an error scope pushed or pop one too many?): ${String(e)}`);
    }
  }

  try {
    await device.queue.onSubmittedWorkDone();
  } catch (e) {
    gpu_errors.push(`[queue] onSubmittedWorkDone failed: ${String(e)}`);
  }

  for (const o of tracked.reverse()) {
    try {
      o.destroy();
    } catch (e) {
      gpu_errors.push(`[destroy] ${String(e)}`);
    }
  }
  destroying = true;
  device.destroy();
  device.removeEventListener('uncapturederror', on_uncaptured);

  if (gpu_errors.length > 0) {
    const lines = gpu_errors.map((m) => `  - ${m}`).join('\n');
    const head = fn_failed ? `test body threw (${String(fn_error)}) and GPU errors occurred` : 'GPU errors occurred';
    throw new Error(`with_gpu_device: ${head}:\n${lines}`, fn_failed ? { cause: fn_error } : undefined);
  }
  if (fn_failed) throw fn_error;
  return result as T;
}
