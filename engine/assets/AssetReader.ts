/**
 * Where a loader's bytes come from. `read` rejects when the resource cannot be had (missing file, HTTP error);
 * it reports bytes as they arrive, with the total when it is known (0 when not).
 */
export interface AssetReader {
    read(url: string, on_bytes?: (loaded: number, total: number) => void): Promise<Uint8Array<ArrayBuffer>>;
}
