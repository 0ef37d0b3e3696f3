/**
 * One glTF image on the GPU, in the colour space its use asks for: `srgb` (rgba8unorm-srgb) for base colour and
 * emissive, `linear` (rgba8unorm) for data (normals, metallic-roughness, occlusion). An image used both ways is two
 * textures. Full mip chain, generated on the GPU.
 */
export interface ModelTexture {
    /** Index into the file's `images`. */
    readonly image: number;
    readonly name: string;
    readonly color_space: "srgb" | "linear";
    readonly texture: GPUTexture;
    readonly width: number;
    readonly height: number;
}
