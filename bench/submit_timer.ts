// What the scene benches share: a median, and `queue.submit` timed apart. On SwiftShader submit runs part of the
// GPU work on the calling thread, so a bench's CPU figure subtracts it: what our code costs to record and encode.

export function median(values: number[]): number {
    const s = [...values].sort((a, b) => a - b);
    return s[s.length >> 1];
}

/** Milliseconds spent in `queue.submit` since the last `reset`, once `wrap` has wrapped the device's queue. */
export class SubmitTimer {
    ms = 0;

    wrap(device: GPUDevice): void {
        const queue = device.queue;
        const submit = queue.submit.bind(queue);
        queue.submit = (buffers: Iterable<GPUCommandBuffer>) => {
            const t0 = performance.now();
            submit(buffers);
            this.ms += performance.now() - t0;
        };
    }

    reset(): void {
        this.ms = 0;
    }
}
