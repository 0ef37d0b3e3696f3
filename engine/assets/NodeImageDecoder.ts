import type { DecodedImage } from "./DecodedImage.js";
import type { ImageDecoder } from "./ImageDecoder.js";

// The worker is CommonJS run from a string, so that it needs no file of its own next to the built module; it gets
// the decoders' resolved paths from the main thread. pngjs (any bit depth, palette, interlace; inflate by Node's
// zlib) and jpeg-js (baseline and progressive) are pure JavaScript: nothing to build, nothing native to install.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { PNG } = require(workerData.pngjs);
const jpeg = require(workerData.jpeg);
parentPort.on("message", ({ id, bytes }) => {
    try {
        const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        let width, height, data;
        if (buffer.length >= 8 && buffer.readUInt32BE(0) === 0x89504e47) {
            const png = PNG.sync.read(buffer);
            width = png.width; height = png.height; data = png.data;
        } else if (buffer.length >= 2 && buffer[0] === 0xff && buffer[1] === 0xd8) {
            const image = jpeg.decode(buffer, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 256, maxMemoryUsageInMB: 2048 });
            width = image.width; height = image.height; data = image.data;
        } else {
            throw new Error("neither PNG nor JPEG (unknown signature)");
        }
        const out = new Uint8Array(width * height * 4);
        out.set(data.subarray(0, out.length));
        parentPort.postMessage({ id, width, height, data: out }, [out.buffer]);
    } catch (error) {
        parentPort.postMessage({ id, error: String((error && error.message) || error) });
    }
});
`;

interface Reply {
    readonly id: number;
    readonly width?: number;
    readonly height?: number;
    readonly data?: Uint8Array;
    readonly error?: string;
}

interface Pending {
    resolve(image: DecodedImage): void;
    reject(error: Error): void;
}

/** The slice of node:worker_threads' Worker the pool uses. */
interface WorkerLike {
    postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
    on(event: "message", listener: (reply: Reply) => void): void;
    on(event: "error", listener: (error: Error) => void): void;
    ref(): void;
    unref(): void;
    terminate(): Promise<number>;
}

interface PoolWorker {
    readonly worker: WorkerLike;
    readonly pending: Map<number, Pending>;
}

const WORKER_THREADS = "node:worker_threads";
const NODE_MODULE = "node:module";
const NODE_OS = "node:os";

/**
 * Node's image decoder: PNG and JPEG decoded by pngjs and jpeg-js in worker threads (up to `threads`, default
 * two), so the main thread only posts bytes and receives RGBA rows. Idle workers do not keep the process alive.
 */
export class NodeImageDecoder implements ImageDecoder {
    readonly #threads: number;
    #workers: Promise<PoolWorker[]> | null = null;
    #next_id = 1;
    #turn = 0;

    constructor(threads?: number) {
        this.#threads = threads ?? 0;
    }

    async decode(bytes: Uint8Array): Promise<DecodedImage> {
        const workers = await (this.#workers ??= this.#start());
        const pool = workers[this.#turn++ % workers.length];
        const id = this.#next_id++;
        // a copy goes to the worker (transferred), so the document's own bytes stay usable here
        const copy = bytes.slice();
        return new Promise<DecodedImage>((resolve, reject) => {
            if (pool.pending.size === 0) pool.worker.ref();
            pool.pending.set(id, { resolve, reject });
            pool.worker.postMessage({ id, bytes: copy }, [copy.buffer]);
        });
    }

    /** Ends the workers (a later decode starts new ones). */
    async close(): Promise<void> {
        const workers = this.#workers;
        this.#workers = null;
        if (workers !== null) await Promise.all((await workers).map((w) => w.worker.terminate()));
    }

    async #start(): Promise<PoolWorker[]> {
        const { Worker } = (await import(/* @vite-ignore */ WORKER_THREADS)) as typeof import("node:worker_threads");
        const { createRequire } = (await import(/* @vite-ignore */ NODE_MODULE)) as typeof import("node:module");
        const { availableParallelism } = (await import(/* @vite-ignore */ NODE_OS)) as typeof import("node:os");
        const require = createRequire(import.meta.url);
        const workerData = { pngjs: require.resolve("pngjs"), jpeg: require.resolve("jpeg-js") };
        const count = this.#threads > 0 ? this.#threads : Math.max(1, Math.min(2, availableParallelism()));
        const out: PoolWorker[] = [];
        for (let i = 0; i < count; i++) {
            const worker = new Worker(WORKER_SOURCE, { eval: true, workerData }) as unknown as WorkerLike;
            const pool: PoolWorker = { worker, pending: new Map() };
            worker.unref();
            worker.on("message", (reply: Reply) => {
                const job = pool.pending.get(reply.id);
                if (job === undefined) return;
                pool.pending.delete(reply.id);
                if (pool.pending.size === 0) worker.unref();
                if (reply.error !== undefined) job.reject(new Error(reply.error));
                else job.resolve({ kind: "pixels", width: reply.width!, height: reply.height!, data: reply.data! });
            });
            worker.on("error", (error: Error) => {
                for (const job of pool.pending.values()) job.reject(error);
                pool.pending.clear();
                this.#workers = null; // the next decode starts a fresh pool
            });
            out.push(pool);
        }
        return out;
    }
}
