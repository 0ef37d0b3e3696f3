import { AssetError } from "./AssetError.js";

/** @internal A glTF file taken apart: its JSON (parsed, unchecked) and, for a GLB, the binary chunk. */
export interface GLTFContainer {
    readonly json: unknown;
    readonly bin: Uint8Array<ArrayBuffer> | null;
    readonly glb: boolean;
}

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

/**
 * @internal
 * Splits a .glb (header, JSON chunk, optional BIN chunk) or reads a .gltf's JSON. A truncated or inconsistent
 * container is an AssetError naming what does not add up ("the header says 4096 bytes; the file has 2000").
 */
export function parse_gltf_container(file: string, bytes: Uint8Array<ArrayBuffer>): GLTFContainer {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength >= 4 && view.getUint32(0, true) === GLB_MAGIC) return parse_glb(file, bytes, view);
    let text: string;
    try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
        throw new AssetError(file, "", "is neither a GLB (no 'glTF' magic) nor UTF-8 glTF JSON");
    }
    return { json: parse_json(file, text, "the file"), bin: null, glb: false };
}

function parse_glb(file: string, bytes: Uint8Array<ArrayBuffer>, view: DataView): GLTFContainer {
    if (bytes.byteLength < 20) throw new AssetError(file, "", `is a truncated GLB: ${bytes.byteLength} bytes, shorter than its 12-byte header and first chunk header`);
    const version = view.getUint32(4, true);
    if (version !== 2) throw new AssetError(file, "", `is a GLB of version ${version}; only version 2 is read`);
    const length = view.getUint32(8, true);
    if (length > bytes.byteLength) throw new AssetError(file, "", `is a truncated GLB: the header says ${length} bytes; the file has ${bytes.byteLength}`);
    const json_length = view.getUint32(12, true);
    if (view.getUint32(16, true) !== CHUNK_JSON) throw new AssetError(file, "", "is a GLB whose first chunk is not JSON");
    if (20 + json_length > length) {
        throw new AssetError(file, "", `is a truncated GLB: the JSON chunk runs to byte ${20 + json_length}, past the end of the file at ${length}`);
    }
    let text: string;
    try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(20, 20 + json_length));
    } catch {
        throw new AssetError(file, "", "is a GLB whose JSON chunk is not UTF-8");
    }
    const json = parse_json(file, text, "the JSON chunk");
    let bin: Uint8Array<ArrayBuffer> | null = null;
    let at = 20 + json_length;
    // 8-byte chunk headers after the JSON: the first BIN chunk is the buffer; unknown chunks are skipped (spec)
    while (at + 8 <= length) {
        const chunk_length = view.getUint32(at, true);
        const type = view.getUint32(at + 4, true);
        if (at + 8 + chunk_length > length) {
            throw new AssetError(file, "", `is a truncated GLB: a chunk of ${chunk_length} bytes at byte ${at} runs past the end of the file at ${length}`);
        }
        if (type === CHUNK_BIN && bin === null) bin = bytes.subarray(at + 8, at + 8 + chunk_length);
        at += 8 + chunk_length;
    }
    if (at !== length) throw new AssetError(file, "", `is a truncated GLB: ${length - at} stray bytes after its last chunk`);
    return { json, bin, glb: true };
}

function parse_json(file: string, text: string, what: string): unknown {
    try {
        return JSON.parse(text);
    } catch (error) {
        throw new AssetError(file, "", `${what} is not valid JSON (${(error as Error).message})`, { cause: error });
    }
}
