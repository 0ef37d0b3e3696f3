/** Bytes of one indexed indirect draw's arguments (index count, instance count, first index, base vertex, first instance). */
export const INDIRECT_ARGS_BYTES = 20;

/** A grow-only buffer's next size: `initial` for none yet, else its size doubled until `bytes` fit. */
export function grown_size(buffer: GPUBuffer | null, bytes: number, initial: number): number {
    let size = buffer === null ? initial : buffer.size;
    while (size < bytes) size *= 2;
    return size;
}

/**
 * Reads back the instance counts of the first `draws` indexed indirect draws in `args` (which needs COPY_SRC):
 * for tests and inspectors, not for frames (it waits for the GPU). `label` names the read-back's GPU objects.
 */
export async function read_indirect_instance_counts(device: GPUDevice, args: GPUBuffer | null, draws: number, label: string): Promise<Uint32Array> {
    const out = new Uint32Array(draws);
    if (args === null || draws === 0) return out;
    const bytes = draws * INDIRECT_ARGS_BYTES;
    const staging = device.createBuffer({ label, size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder({ label });
    encoder.copyBufferToBuffer(args, 0, staging, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(staging.getMappedRange());
    for (let i = 0; i < draws; i++) out[i] = words[i * 5 + 1];
    staging.unmap();
    staging.destroy();
    return out;
}
