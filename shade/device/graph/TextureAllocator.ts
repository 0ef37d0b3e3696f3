import type { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

/**
 * Where the transient pool gets its textures. The GPU implementation is `GPUTextureAllocator`; tests of the
 * graph's logic use a fake one so that compilation and culling are checked without a device.
 */
export interface TextureAllocator<T = GPUTexture, V = GPUTextureView> {
    create(descriptor: TextureResourceDescriptor, label: string): T;
    /** The texture's default view; `label` names one made for an imported texture (the graph's resource name). */
    view(texture: T, label?: string): V;
    destroy(texture: T): void;
    /** The device's `maxTextureDimension2D`, checked when a pass creates a texture; none when absent. */
    readonly max_texture_dimension?: number;
}
