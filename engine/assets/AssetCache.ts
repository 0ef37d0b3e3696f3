import type { AssetProgressListener } from "./AssetProgress.js";
import type { AssetReader } from "./AssetReader.js";
import type { ImageDecoder } from "./ImageDecoder.js";
import { load_gltf } from "./load_gltf.js";
import type { Model } from "./Model.js";
import type { DetailLevelTarget } from "../../shade/renderer/geometry/simplify_detail_levels.js";

/** What a cache loads with: the device its models' GPU objects live on, and optionally where bytes come from. */
export interface AssetCacheOptions {
    readonly device: GPUDevice;
    readonly reader?: AssetReader;
    readonly decoder?: ImageDecoder;
    /** Coarser levels of detail made for every model's mesh primitives (`LoadGLTFOptions.detail_levels`); default none. */
    readonly detail_levels?: readonly DetailLevelTarget[];
}

interface Entry {
    readonly promise: Promise<Model>;
    references: number;
    model: Model | null;
}

/**
 * Models on one device, cached by URL and counted by reference. Each `load` takes a reference (a load of a URL
 * already loaded or loading shares it: one read, one set of GPU objects); each `release` gives one back, and the
 * last frees the model's GPU buffers and textures and forgets it. A load that fails takes its references along: the
 * next `load` of that URL tries again.
 */
export class AssetCache {
    readonly device: GPUDevice;
    readonly #reader: AssetReader | undefined;
    readonly #decoder: ImageDecoder | undefined;
    readonly #detail_levels: readonly DetailLevelTarget[] | undefined;
    readonly #entries = new Map<string, Entry>();

    constructor(options: AssetCacheOptions) {
        this.device = options.device;
        this.#reader = options.reader;
        this.#decoder = options.decoder;
        this.#detail_levels = options.detail_levels;
    }

    /**
     * The model at `url`, loaded once. `on_progress` sees the progress of a load this call starts; a call that
     * joins a load in flight or finds the model cached gets one final report.
     */
    load(url: string, on_progress?: AssetProgressListener): Promise<Model> {
        const cached = this.#entries.get(url);
        if (cached !== undefined) {
            cached.references++;
            return on_progress === undefined ? cached.promise : cached.promise.then((model) => (report_done(url, on_progress), model));
        }
        const entry: Entry = {
            references: 1,
            model: null,
            promise: load_gltf(url, { device: this.device, reader: this.#reader, decoder: this.#decoder, on_progress, detail_levels: this.#detail_levels }).then(
                (model) => {
                    // every reference was released while it loaded: nobody holds it, so it goes at once
                    if (entry.references === 0) model.destroy();
                    else entry.model = model;
                    return model;
                },
                (error: unknown) => {
                    if (this.#entries.get(url) === entry) this.#entries.delete(url);
                    throw error;
                },
            ),
        };
        this.#entries.set(url, entry);
        return entry.promise;
    }

    /** Gives back one reference to `url`; the last one frees the model's GPU objects. Throws for a URL with none. */
    release(url: string): void {
        const entry = this.#entries.get(url);
        if (entry === undefined || entry.references === 0) throw new Error(`AssetCache.release: '${url}' is not loaded (no references to give back)`);
        entry.references--;
        if (entry.references > 0) return;
        this.#entries.delete(url);
        entry.model?.destroy();
    }

    /** References held on `url` (0 when it is not cached). */
    references(url: string): number {
        return this.#entries.get(url)?.references ?? 0;
    }

    /** URLs cached or loading. */
    get size(): number {
        return this.#entries.size;
    }

    /** Frees every model now, whatever its references (the device is going away). */
    clear(): void {
        for (const entry of this.#entries.values()) {
            entry.references = 0;
            entry.model?.destroy();
        }
        this.#entries.clear();
    }
}

function report_done(url: string, listener: AssetProgressListener): void {
    listener({ url, bytes_loaded: 0, bytes_total: 0, items_loaded: 1, items_total: 1 });
}
