/** Where a renderer presents: a canvas or an offscreen texture. */
export interface RenderTarget {
    /** Prepares the target for `device` (configures a canvas, creates a texture). Called per device. */
    configure(device: GPUDevice): void;
    /**
     * False while the target has no pixels (a collapsed canvas, a minimised tab, a 0x0 texture): the renderer
     * skips the frame quietly until it has a size again. May resize the target first (a canvas following CSS).
     */
    is_drawable(): boolean;
    /** The texture to present into this frame. Only called when `is_drawable()` said true. */
    acquire(): GPUTexture;
    /** The format `acquire` returns. */
    readonly format: GPUTextureFormat;
    /** Releases what `configure` made. */
    release(): void;
}
