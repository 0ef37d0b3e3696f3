/** A key naming everything a pipeline is built from (shader, blend, cull, target formats, sample count). */
export type PipelineCacheKey = string | number;

/** Builds the pipeline for a key on a device; `data` is what the caller passes to `get` (no closure per frame). */
export type PipelineBuilder<T> = (device: GPUDevice, data: T) => GPURenderPipeline;

/**
 * Render pipelines an extension builds, kept per device and by key (PlayCanvas's `buildKey`): `get` returns the
 * pipeline built for the key before on this device, and builds one only for a key it has not seen there. A key
 * that changes (a blend mode, a target format) builds once; changing back finds the first pipeline again. A new
 * device (a restart, a lost device) starts empty: the cache is a `WeakMap` keyed by device.
 */
export class PipelineCache {
    readonly #per_device = new WeakMap<GPUDevice, Map<PipelineCacheKey, GPURenderPipeline>>();
    #builds = 0;
    /** Most pipelines kept per device; past it the one built longest ago is dropped (a key that changes every frame would otherwise grow without end). */
    readonly max_per_device: number;

    constructor(max_per_device = 64) {
        if (!(Number.isInteger(max_per_device) && max_per_device >= 1)) {
            throw new RangeError(`PipelineCache: max_per_device must be a positive integer, got ${String(max_per_device)}`);
        }
        this.max_per_device = max_per_device;
    }

    /** Pipelines built so far, on every device (for inspection and tests). */
    get builds(): number {
        return this.#builds;
    }

    /** The pipeline for `key` on `device`, built by `build(device, data)` the first time the key is seen there. */
    get<T>(device: GPUDevice, key: PipelineCacheKey, build: PipelineBuilder<T>, data: T): GPURenderPipeline {
        let pipelines = this.#per_device.get(device);
        if (pipelines === undefined) {
            pipelines = new Map();
            this.#per_device.set(device, pipelines);
        }
        let pipeline = pipelines.get(key);
        if (pipeline === undefined) {
            pipeline = build(device, data);
            if (pipelines.size >= this.max_per_device) pipelines.delete(pipelines.keys().next().value!);
            pipelines.set(key, pipeline);
            this.#builds++;
        }
        return pipeline;
    }

    /** Whether `device` holds a pipeline for `key`. */
    has(device: GPUDevice, key: PipelineCacheKey): boolean {
        return this.#per_device.get(device)?.has(key) ?? false;
    }

    /** How many pipelines `device` holds. */
    size(device: GPUDevice): number {
        return this.#per_device.get(device)?.size ?? 0;
    }

    /** Forgets the pipelines of `device` (they are garbage collected with it; WebGPU pipelines have no destroy). */
    clear(device: GPUDevice): void {
        this.#per_device.delete(device);
    }
}
