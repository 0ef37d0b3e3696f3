// The peers benchmark's page (issue 14): bundled by run.mjs once per variant, with "@variant" aliased to
// bench/peers/variants/<name>.ts. Creates the 640x360 canvas, builds the variant, runs `warm` untimed frames and
// `frames` timed ones, and leaves the figures on `window.peers` for the runner:
//   per frame: t0 = now; update(t); t1; render(); t2; await device.queue.onSubmittedWorkDone()
// (the GPU drains between frames, so SwiftShader's threads do not compete with the next frame's timed JS).
// Heap: performance.memory.usedJSHeapSize (precise with --enable-precise-memory-info) after a forced gc()
// (--js-flags=--expose-gc) before and after the timed frames, and the growth over the timed frames without one.
import create from "@variant";
import { HEIGHT, WIDTH, make_workload } from "./workload.js";

interface PeersResult {
    done: boolean;
    error: string | null;
    update: number[];
    render: number[];
    /** usedJSHeapSize after gc() before the timed frames, just before the gc() after them, and after it; -1: unavailable. */
    heap_start: number;
    heap_end: number;
    heap_after_gc: number;
    gc: boolean;
    /** With ?hold=1: true once warm, while the page waits for the runner's window.peers_resume() (to start a profiler). */
    held: boolean;
    /** With ?uploads=1: queue.writeBuffer calls and bytes over the timed frames, per buffer label. */
    uploads: { label: string; calls: number; bytes: number }[];
}

declare global {
    interface Window {
        peers: PeersResult;
        gc?: () => void;
        peers_resume?: () => void;
    }
    interface Performance {
        memory?: { usedJSHeapSize: number };
    }
}

const result: PeersResult = { done: false, error: null, update: [], render: [], heap_start: -1, heap_end: -1, heap_after_gc: -1, gc: typeof window.gc === "function", held: false, uploads: [] };
window.peers = result;

function heap(): number {
    return performance.memory?.usedJSHeapSize ?? -1;
}

// ?uploads=1: every queue.writeBuffer of the timed frames counted by buffer label (a separate run: the wrapper
// allocates). TypedArray data counts offset and size in elements, an ArrayBuffer in bytes.
let counting = false;
function count_uploads(): void {
    const tally = new Map<string, { label: string; calls: number; bytes: number }>();
    const original = GPUQueue.prototype.writeBuffer;
    GPUQueue.prototype.writeBuffer = function (this: GPUQueue, buffer: GPUBuffer, offset: number, data: AllowSharedBufferSource, data_offset?: number, size?: number): undefined {
        if (counting) {
            const element = ArrayBuffer.isView(data) ? ((data as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1) : 1;
            const length = ArrayBuffer.isView(data) ? data.byteLength / element : data.byteLength;
            const bytes = (size ?? length - (data_offset ?? 0)) * element;
            let row = tally.get(buffer.label);
            if (row === undefined) {
                row = { label: buffer.label, calls: 0, bytes: 0 };
                tally.set(buffer.label, row);
                result.uploads.push(row);
            }
            row.calls++;
            row.bytes += bytes;
        }
        return original.call(this, buffer, offset, data as GPUAllowSharedBufferSource, data_offset, size);
    } as GPUQueue["writeBuffer"];
}

async function main(): Promise<void> {
    const params = new URLSearchParams(location.search);
    if (params.get("uploads") === "1") count_uploads();
    const warm = Number(params.get("warm") ?? 30);
    const frames = Number(params.get("frames") ?? 60);
    const canvas = document.createElement("canvas");
    canvas.width = WIDTH;
    canvas.height = HEIGHT;
    canvas.style.cssText = `display:block;width:${WIDTH}px;height:${HEIGHT}px`;
    document.body.style.margin = "0";
    document.body.appendChild(canvas);

    const variant = await create(canvas, make_workload());
    const queue = variant.device.queue;
    // fixed time steps: every variant draws the same ribbons in frame i
    const step = 1 / 60;
    for (let i = 0; i < warm; i++) {
        variant.update(i * step);
        variant.render();
        await queue.onSubmittedWorkDone();
    }
    if (params.get("hold") === "1") {
        await new Promise<void>((resolve) => {
            window.peers_resume = resolve;
            result.held = true;
        });
    }
    window.gc?.();
    result.heap_start = heap();
    counting = true;
    const update = new Float64Array(frames);
    const render = new Float64Array(frames);
    for (let i = 0; i < frames; i++) {
        const t = (warm + i) * step;
        const t0 = performance.now();
        variant.update(t);
        const t1 = performance.now();
        variant.render();
        const t2 = performance.now();
        update[i] = t1 - t0;
        render[i] = t2 - t1;
        await queue.onSubmittedWorkDone();
    }
    counting = false;
    result.heap_end = heap();
    window.gc?.();
    result.heap_after_gc = heap();
    result.update = Array.from(update);
    result.render = Array.from(render);
    // one more frame, presented, for the screenshot
    variant.update((warm + frames) * step);
    variant.render();
    await queue.onSubmittedWorkDone();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}

main()
    .catch((e: unknown) => {
        result.error = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ""}` : String(e);
    })
    .finally(() => {
        result.done = true;
    });
