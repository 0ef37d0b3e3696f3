import type { FrameGraphHandle } from "./FrameGraphHandle.js";
import type { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

/**
 * Resolves handles to GPU objects while a pass executes. Only handles the running pass declared resolve;
 * anything else fails with the pass, the resource and the version named.
 */
export interface FrameGraphResources {
    /** The GPU texture behind a handle the running pass declared. */
    texture(handle: FrameGraphHandle): GPUTexture;
    /** Its default view. */
    view(handle: FrameGraphHandle): GPUTextureView;
    descriptor(handle: FrameGraphHandle): TextureResourceDescriptor;
    /**
     * A colour attachment for a handle this pass wrote, with load and store ops derived by the graph.
     * The object is reused frame to frame: use it in the pass descriptor and do not keep it.
     */
    color_attachment(handle: FrameGraphHandle, clear_value?: GPUColorDict): GPURenderPassColorAttachment;
    /**
     * A depth attachment: read-only when the pass only read `handle`, otherwise with derived ops.
     */
    depth_attachment(handle: FrameGraphHandle, clear_depth?: number): GPURenderPassDepthStencilAttachment;
}
