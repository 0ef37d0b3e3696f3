/**
 * How far one load has come, for a loading screen. Items are the files read (the model, its external buffers
 * and images) and the images decoded; totals grow as the model's JSON names more of them, so a fraction
 * `items_loaded / items_total` may step back once, after the first file. `bytes_total` counts the files whose
 * size is known (a server's Content-Length, a file's size).
 */
export interface AssetProgress {
    readonly url: string;
    readonly bytes_loaded: number;
    readonly bytes_total: number;
    readonly items_loaded: number;
    readonly items_total: number;
}

/** Called at every step of a load (each file's chunk, each decoded image, the end). */
export type AssetProgressListener = (progress: AssetProgress) => void;
