import type { TextureReference } from "./TextureReference.js";

/**
 * A glTF metallic-roughness material as plain data (factors linear, colours RGB(A)). The renderer's own material is
 * made from it (`make_standard_material`); the texture references point into `Model.textures`.
 */
export interface MaterialDescription {
    readonly name: string;
    readonly base_color_factor: Float32Array;
    readonly metallic_factor: number;
    readonly roughness_factor: number;
    readonly emissive_factor: Float32Array;
    /** KHR_materials_emissive_strength (1 without it). */
    readonly emissive_strength: number;
    readonly alpha_mode: "OPAQUE" | "MASK" | "BLEND";
    /** For MASK: coverage below it is discarded. */
    readonly alpha_cutoff: number;
    readonly double_sided: boolean;
    readonly base_color_texture: TextureReference | null;
    readonly metallic_roughness_texture: TextureReference | null;
    readonly normal_texture: TextureReference | null;
    readonly normal_scale: number;
    readonly occlusion_texture: TextureReference | null;
    readonly occlusion_strength: number;
    readonly emissive_texture: TextureReference | null;
}
