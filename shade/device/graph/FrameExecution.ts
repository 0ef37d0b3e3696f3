/** What a pass is handed to do its GPU work. */
export interface FrameExecution {
    /** The device (named as Shade names it). */
    readonly graphics: GPUDevice;
    /** The frame's command encoder; a pass opens its own render or compute pass on it. */
    readonly encoder: GPUCommandEncoder;
    /**
     * Timestamp writes for this pass's GPU timing, or undefined when the graph is not timing. Put it in the
     * first render/compute pass descriptor the pass begins; reading it claims the pass's query slot, so read
     * it once, and only if the pass begins a pass on the encoder.
     */
    readonly timestamp_writes: GPURenderPassTimestampWrites | undefined;
}

/** The device and encoder a graph executes on. */
export interface FrameExecutionTarget {
    readonly graphics: GPUDevice;
    readonly encoder: GPUCommandEncoder;
}
