import type { AssetReader } from "./AssetReader.js";

/**
 * `fetch` for URLs (streamed, so progress moves per chunk), and, in Node, the file system for paths and `file:`
 * URLs (Node's fetch has no `file:`). The Node modules are imported by a computed name so that a browser bundle
 * never tries to include them.
 */
export const default_asset_reader: AssetReader = {
    async read(url, on_bytes) {
        if (is_node() && !/^(https?|blob|data):/i.test(url)) return read_file(url, on_bytes);
        return fetch_bytes(url, on_bytes);
    },
};

function is_node(): boolean {
    return typeof process !== "undefined" && typeof process.versions?.node === "string";
}

const FS_PROMISES = "node:fs/promises";
const NODE_URL = "node:url";

async function read_file(url: string, on_bytes?: (loaded: number, total: number) => void): Promise<Uint8Array<ArrayBuffer>> {
    const fs = (await import(/* @vite-ignore */ FS_PROMISES)) as typeof import("node:fs/promises");
    let path = url;
    if (url.startsWith("file:")) {
        const { fileURLToPath } = (await import(/* @vite-ignore */ NODE_URL)) as typeof import("node:url");
        path = fileURLToPath(url);
    }
    const buffer = await fs.readFile(path);
    const bytes = new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
    on_bytes?.(bytes.byteLength, bytes.byteLength);
    return bytes;
}

async function fetch_bytes(url: string, on_bytes?: (loaded: number, total: number) => void): Promise<Uint8Array<ArrayBuffer>> {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
    const total = Number(response.headers.get("content-length") ?? 0) || 0;
    if (response.body === null) {
        const bytes = new Uint8Array(await response.arrayBuffer());
        on_bytes?.(bytes.byteLength, total || bytes.byteLength);
        return bytes;
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let loaded = 0;
    for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        loaded += value.byteLength;
        on_bytes?.(loaded, total);
    }
    const bytes = new Uint8Array(loaded);
    let at = 0;
    for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.byteLength;
    }
    return bytes;
}
