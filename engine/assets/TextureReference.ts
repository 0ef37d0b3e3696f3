import type { TextureTransform } from "./TextureTransform.js";

/** A material's use of a texture: which one, which uv set, how it is sampled and transformed. */
export interface TextureReference {
    /** Index into `Model.textures`. */
    readonly texture: number;
    /** The uv set (0: `uv`, 1: `uv1`). */
    readonly tex_coord: number;
    readonly address_mode_u: GPUAddressMode;
    readonly address_mode_v: GPUAddressMode;
    readonly mag_filter: GPUFilterMode;
    readonly min_filter: GPUFilterMode;
    readonly mipmap_filter: GPUMipmapFilterMode;
    /** False for glTF's NEAREST and LINEAR minification: sample mip 0 only (a sampler with lodMaxClamp 0). */
    readonly mipmaps: boolean;
    /** KHR_texture_transform, or null. */
    readonly transform: TextureTransform | null;
}
