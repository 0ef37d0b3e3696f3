/** What a pass is handed to do its GPU work. */
export interface FrameExecution {
    /** The device (named as Shade names it). */
    readonly graphics: GPUDevice;
    /** The frame's command encoder; a pass opens its own render or compute pass on it. */
    readonly encoder: GPUCommandEncoder;
}
