import type { Material, Texture, TextureInfo } from "@gltf-transform/core";
import type { EmissiveStrength, Transform } from "@gltf-transform/extensions";
import type { MaterialDescription } from "./MaterialDescription.js";
import type { TextureReference } from "./TextureReference.js";

const WRAP: Readonly<Record<number, GPUAddressMode>> = { 33071: "clamp-to-edge", 33648: "mirror-repeat", 10497: "repeat" };
// glTF minification filter: [min filter, mipmap filter, uses mips]
const MIN: Readonly<Record<number, readonly [GPUFilterMode, GPUMipmapFilterMode, boolean]>> = {
    9728: ["nearest", "nearest", false],
    9729: ["linear", "nearest", false],
    9984: ["nearest", "nearest", true],
    9985: ["linear", "nearest", true],
    9986: ["nearest", "linear", true],
    9987: ["linear", "linear", true],
};

/** @internal Which of the model's textures holds `texture`'s image in `color_space` (made on first use). */
export type TextureSlot = (texture: Texture, color_space: "srgb" | "linear") => number;

/** @internal A glTF material as plain data; base colour and emissive textures read as sRGB, the others as linear data. */
export function read_material(material: Material, slot: TextureSlot): MaterialDescription {
    const reference = (texture: Texture | null, info: TextureInfo | null, color_space: "srgb" | "linear"): TextureReference | null => {
        if (texture === null || info === null) return null;
        const min = MIN[info.getMinFilter() ?? 9987] ?? MIN[9987];
        const transform = info.getExtension<Transform>("KHR_texture_transform");
        return {
            texture: slot(texture, color_space),
            tex_coord: info.getTexCoord(),
            address_mode_u: WRAP[info.getWrapS()] ?? "repeat",
            address_mode_v: WRAP[info.getWrapT()] ?? "repeat",
            mag_filter: info.getMagFilter() === 9728 ? "nearest" : "linear",
            min_filter: min[0],
            mipmap_filter: min[1],
            mipmaps: min[2],
            transform:
                transform === null
                    ? null
                    : {
                          offset: [transform.getOffset()[0], transform.getOffset()[1]],
                          rotation: transform.getRotation(),
                          scale: [transform.getScale()[0], transform.getScale()[1]],
                          tex_coord: transform.getTexCoord(),
                      },
        };
    };
    const strength = material.getExtension<EmissiveStrength>("KHR_materials_emissive_strength");
    return {
        name: material.getName(),
        base_color_factor: Float32Array.from(material.getBaseColorFactor()),
        metallic_factor: material.getMetallicFactor(),
        roughness_factor: material.getRoughnessFactor(),
        emissive_factor: Float32Array.from(material.getEmissiveFactor()),
        emissive_strength: strength === null ? 1 : strength.getEmissiveStrength(),
        alpha_mode: material.getAlphaMode(),
        alpha_cutoff: material.getAlphaCutoff(),
        double_sided: material.getDoubleSided(),
        base_color_texture: reference(material.getBaseColorTexture(), material.getBaseColorTextureInfo(), "srgb"),
        metallic_roughness_texture: reference(material.getMetallicRoughnessTexture(), material.getMetallicRoughnessTextureInfo(), "linear"),
        normal_texture: reference(material.getNormalTexture(), material.getNormalTextureInfo(), "linear"),
        normal_scale: material.getNormalScale(),
        occlusion_texture: reference(material.getOcclusionTexture(), material.getOcclusionTextureInfo(), "linear"),
        occlusion_strength: material.getOcclusionStrength(),
        emissive_texture: reference(material.getEmissiveTexture(), material.getEmissiveTextureInfo(), "srgb"),
    };
}
