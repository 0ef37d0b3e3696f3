// Test helpers for the asset loader: the sample models' paths, a GLB taken apart and put back together by hand
// (independently of the loader's own parser), and an in-memory reader for files the tests make.
import { readFileSync } from "node:fs";
import type { AssetReader } from "../../../engine/assets/AssetReader.js";

export const BOX = "samples/assets/BoxTextured/BoxTextured.gltf";
export const FOX = "samples/assets/Fox/Fox.glb";
export const HELMET = "samples/assets/DamagedHelmet/DamagedHelmet.glb";

/** A GLB's JSON (parsed) and binary chunk. */
export interface GlbParts {
    json: Record<string, any>;
    bin: Uint8Array;
}

export function read_glb(path: string): GlbParts {
    const bytes = readFileSync(path);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const json_length = view.getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + json_length)));
    const bin_at = 20 + json_length;
    const bin_length = view.getUint32(bin_at, true);
    return { json, bin: new Uint8Array(bytes.subarray(bin_at + 8, bin_at + 8 + bin_length)) };
}

export function write_glb(json: unknown, bin: Uint8Array | null): Uint8Array<ArrayBuffer> {
    let text = new TextEncoder().encode(JSON.stringify(json));
    const json_padded = (text.length + 3) & ~3;
    const bin_padded = bin === null ? 0 : (bin.length + 3) & ~3;
    const total = 12 + 8 + json_padded + (bin === null ? 0 : 8 + bin_padded);
    const out = new Uint8Array(total);
    const view = new DataView(out.buffer);
    view.setUint32(0, 0x46546c67, true);
    view.setUint32(4, 2, true);
    view.setUint32(8, total, true);
    view.setUint32(12, json_padded, true);
    view.setUint32(16, 0x4e4f534a, true);
    out.fill(0x20, 20, 20 + json_padded);
    out.set(text, 20);
    if (bin !== null) {
        const at = 20 + json_padded;
        view.setUint32(at, bin_padded, true);
        view.setUint32(at + 4, 0x004e4942, true);
        out.set(bin, at + 8);
    }
    return out;
}

/** Reads from a map of made-up files; a name not in it fails as a missing file does. Counts reads. */
export class MemoryReader implements AssetReader {
    readonly files = new Map<string, Uint8Array<ArrayBuffer>>();
    reads = 0;
    async read(url: string, on_bytes?: (loaded: number, total: number) => void): Promise<Uint8Array<ArrayBuffer>> {
        this.reads++;
        const bytes = this.files.get(url);
        if (bytes === undefined) throw new Error(`ENOENT: no such file '${url}'`);
        on_bytes?.(bytes.byteLength, bytes.byteLength);
        return bytes;
    }
    /** Adds a file (JSON values are stringified). */
    set(name: string, content: Uint8Array | string | object): this {
        const bytes = content instanceof Uint8Array ? content : new TextEncoder().encode(typeof content === "string" ? content : JSON.stringify(content));
        this.files.set(name, new Uint8Array(bytes));
        return this;
    }
}

/** BoxTextured as in-memory files under `dir/` (the .gltf's JSON returned for editing). */
export function box_files(reader: MemoryReader, dir = "box"): Record<string, any> {
    const json = JSON.parse(readFileSync(BOX, "utf8"));
    reader.set(`${dir}/BoxTextured0.bin`, readFileSync("samples/assets/BoxTextured/BoxTextured0.bin"));
    reader.set(`${dir}/CesiumLogoFlat.png`, readFileSync("samples/assets/BoxTextured/CesiumLogoFlat.png"));
    return json;
}
