import type { Document, ILogger, JSONDocument } from "@gltf-transform/core";
import { AssetError } from "./AssetError.js";
import type { AssetProgressListener } from "./AssetProgress.js";
import type { AssetReader } from "./AssetReader.js";
import { build_model, images_to_decode } from "./build_model.js";
import { default_asset_reader } from "./default_asset_reader.js";
import { default_image_decoder } from "./default_image_decoder.js";
import type { ImageDecoder } from "./ImageDecoder.js";
import { load_gltf_decoders } from "./load_gltf_decoders.js";
import type { Model } from "./Model.js";
import { simplify_detail_levels, type DetailLevelTarget } from "../../shade/renderer/geometry/simplify_detail_levels.js";
import { parse_gltf_container } from "./parse_gltf_container.js";
import { resolve_asset_uri } from "./resolve_asset_uri.js";
import { validate_gltf_json } from "./validate_gltf_json.js";

/** What a load needs besides the URL. */
export interface LoadGLTFOptions {
    readonly device: GPUDevice;
    /** Default: fetch, and the file system in Node. */
    readonly reader?: AssetReader;
    /** Default: createImageBitmap in browsers, worker threads with pngjs and jpeg-js in Node. */
    readonly decoder?: ImageDecoder;
    readonly on_progress?: AssetProgressListener;
    /**
     * Coarser levels of detail to make for every mesh primitive (`simplify_detail_levels`: meshes small on screen
     * draw fewer triangles); default none. Primitives under 64 triangles get none.
     */
    readonly detail_levels?: readonly DetailLevelTarget[];
}

// glTF-Transform is loaded with the first model, not with the engine: importing engine/ stays small (the
// import-memory test), and a game without models never loads it
let gltf_transform: Promise<[typeof import("@gltf-transform/core"), typeof import("@gltf-transform/extensions")]> | null = null;
function load_gltf_transform(): Promise<[typeof import("@gltf-transform/core"), typeof import("@gltf-transform/extensions")]> {
    gltf_transform ??= Promise.all([import("@gltf-transform/core"), import("@gltf-transform/extensions")]);
    return gltf_transform;
}
const GLB_BUFFER = "@glb.bin"; // glTF-Transform's resource name for a GLB's binary chunk

/**
 * Loads a .glb or .gltf (external files relative to it, data: URIs inline) into a Model on `device`. Every fault of
 * the file rejects with an AssetError naming the file and the glTF JSON path; no GPU object of a failed load
 * survives it. Not cached: `AssetCache.load` shares loads by URL.
 */
export async function load_gltf(url: string, options: LoadGLTFOptions): Promise<Model> {
    const reader = options.reader ?? default_asset_reader;
    const decoder = options.decoder ?? default_image_decoder();
    const progress = new ProgressCounter(url, options.on_progress);
    const read = async (target: string, path: string): Promise<Uint8Array<ArrayBuffer>> => {
        const item = progress.start_file();
        try {
            const bytes = await reader.read(target, (loaded, total) => progress.file_bytes(item, loaded, total));
            progress.end_item();
            return bytes;
        } catch (error) {
            const what = path === "" ? "could not be read" : `'${target}' could not be read`;
            throw new AssetError(url, path, `${what} (${(error as Error).message})`, { cause: error });
        }
    };

    progress.add_items(1);
    const container = parse_gltf_container(url, await read(url, ""));
    const checked = validate_gltf_json(url, container.json);
    const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
    const pending: Promise<void>[] = [];
    const fetch_resource = (uri: string, path: string): void => {
        if (uri in resources) return;
        if (uri.startsWith("data:")) {
            resources[uri] = decode_data_uri(url, path, uri);
            return;
        }
        resources[uri] = new Uint8Array(0); // claimed, so that a second reference shares the read
        progress.add_items(1);
        pending.push(read(resolve_asset_uri(url, uri), path).then((bytes) => void (resources[uri] = bytes)));
    };
    checked.buffers.forEach((buffer, i) => {
        if (typeof buffer.uri === "string") fetch_resource(buffer.uri, `buffers[${i}].uri`);
        else if (i === 0 && container.bin !== null) resources[GLB_BUFFER] = container.bin;
        else if (!checked.fallback_buffers.has(i)) throw new AssetError(url, `buffers[${i}]`, container.glb ? "has no uri and is not the GLB's binary chunk" : "has no uri");
    });
    checked.images.forEach((image, i) => {
        if (typeof image.uri === "string") fetch_resource(image.uri, `images[${i}].uri`);
    });
    await settle_all(pending);
    checked.buffers.forEach((buffer, i) => {
        const data = typeof buffer.uri === "string" ? resources[buffer.uri] : i === 0 ? resources[GLB_BUFFER] : undefined;
        if (data !== undefined && data.byteLength < checked.buffer_lengths[i]) {
            throw new AssetError(url, `buffers[${i}]`, `declares ${checked.buffer_lengths[i]} bytes, but its data has ${data.byteLength}`);
        }
    });

    const warnings: string[] = [];
    const document = await read_document(url, { json: container.json as JSONDocument["json"], resources }, checked.extensions_used, warnings);
    progress.add_items(images_to_decode(document));
    const model = await build_model(url, document, { device: options.device, decoder, on_image: () => progress.end_item() }, warnings);
    const targets = options.detail_levels ?? [];
    if (targets.length > 0) {
        try {
            for (const mesh of model.meshes) for (const primitive of mesh.primitives) await simplify_detail_levels(primitive.geometry, targets);
        } catch (error) {
            model.destroy();
            throw error;
        }
    }
    progress.finish();
    return model;
}

/** Waits for every read, then rethrows the first failure (so no read is still running when the load rejects). */
async function settle_all(pending: readonly Promise<void>[]): Promise<void> {
    const results = await Promise.allSettled(pending);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
}

async function read_document(url: string, json: JSONDocument, extensions_used: readonly string[], warnings: string[]): Promise<Document> {
    const [core, extensions] = await load_gltf_transform();
    const io = new core.WebIO()
        .registerExtensions([extensions.KHRMeshQuantization, extensions.KHRTextureTransform, extensions.KHRMaterialsEmissiveStrength, extensions.EXTMeshoptCompression, extensions.KHRDracoMeshCompression])
        .setLogger(collecting_logger(warnings));
    try {
        io.registerDependencies(await load_gltf_decoders(extensions_used));
        return await io.readJSON(json);
    } catch (error) {
        if (error instanceof AssetError) throw error;
        // the JSON was checked; what is left is the data itself (a compressed stream that does not decode)
        throw new AssetError(url, "", `could not be read by glTF-Transform (${(error as Error).message})`, { cause: error });
    }
}

function decode_data_uri(file: string, path: string, uri: string): Uint8Array<ArrayBuffer> {
    const comma = uri.indexOf(",");
    if (comma < 0) throw new AssetError(file, path, "is a data: URI without a comma");
    const header = uri.slice(5, comma);
    const body = uri.slice(comma + 1);
    try {
        if (header.endsWith(";base64")) {
            const text = atob(body);
            const out = new Uint8Array(text.length);
            for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
            return out;
        }
        return new TextEncoder().encode(decodeURIComponent(body));
    } catch (error) {
        throw new AssetError(file, path, `is a data: URI that does not decode (${(error as Error).message})`, { cause: error });
    }
}

/** glTF-Transform's warnings (an extension it ignores, ...) become the model's warnings instead of console lines. */
function collecting_logger(out: string[]): ILogger {
    const ignore = (): void => {};
    return { debug: ignore, info: ignore, warn: (text) => out.push(text), error: (text) => out.push(text) };
}

/** Bytes and items of one load, reported on every change. */
class ProgressCounter {
    readonly #url: string;
    readonly #listener: AssetProgressListener | undefined;
    readonly #loaded: number[] = [];
    readonly #totals: number[] = [];
    #items_total = 0;
    #items_loaded = 0;

    constructor(url: string, listener: AssetProgressListener | undefined) {
        this.#url = url;
        this.#listener = listener;
    }

    add_items(n: number): void {
        this.#items_total += n;
    }

    start_file(): number {
        this.#loaded.push(0);
        this.#totals.push(0);
        return this.#loaded.length - 1;
    }

    file_bytes(file: number, loaded: number, total: number): void {
        this.#loaded[file] = loaded;
        this.#totals[file] = Math.max(total, loaded);
        this.#report();
    }

    end_item(): void {
        this.#items_loaded++;
        this.#report();
    }

    finish(): void {
        this.#items_loaded = this.#items_total;
        this.#report();
    }

    #report(): void {
        if (this.#listener === undefined) return;
        let bytes_loaded = 0;
        let bytes_total = 0;
        for (let i = 0; i < this.#loaded.length; i++) {
            bytes_loaded += this.#loaded[i];
            bytes_total += this.#totals[i];
        }
        this.#listener({ url: this.#url, bytes_loaded, bytes_total, items_loaded: this.#items_loaded, items_total: this.#items_total });
    }
}
