/** Where a renderer presents: a canvas or an offscreen texture. */
export interface RenderTarget {
    /** Prepares the target for `device` (configures a canvas, creates a texture). Called per device. */
    configure(device: GPUDevice): void;
    /** The texture to present into this frame. */
    acquire(): GPUTexture;
    /** The format `acquire` returns. */
    readonly format: GPUTextureFormat;
    /** Releases what `configure` made. */
    release(): void;
}
