import { MaterialTexture } from "../../shade/renderer/scene/MaterialTexture.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import type { MaterialDescription } from "./MaterialDescription.js";
import type { ModelTexture } from "./ModelTexture.js";
import type { TextureReference } from "./TextureReference.js";

/**
 * The renderer's `StandardMaterial` for a glTF material: base colour, metallic-roughness, normal (with its scale),
 * occlusion (with its strength) and emissive (factor times KHR_materials_emissive_strength) with their textures,
 * each on its uv set (0 or 1) with the file's sampler; OPAQUE, MASK (with its cutoff) or BLEND; double-sided.
 * Pass the model's `textures` to draw the textures; without them the factors alone are used. A texture with
 * KHR_texture_transform is refused naming the material and the slot, rather than drawn wrong.
 */
export function make_standard_material(description: MaterialDescription, label?: string, textures?: readonly ModelTexture[]): StandardMaterial {
    const name = label ?? (description.name === "" ? undefined : description.name);
    const who = `make_standard_material: material '${name ?? "(unnamed)"}'`;
    const slot = (reference: TextureReference | null, what: string) => (textures === undefined ? null : material_texture(reference, textures, who, what));
    const e = description.emissive_factor;
    const strength = description.emissive_strength;
    return new StandardMaterial({
        base_color: description.base_color_factor,
        roughness: description.roughness_factor,
        metalness: description.metallic_factor,
        base_color_texture: slot(description.base_color_texture, "base colour"),
        metallic_roughness_texture: slot(description.metallic_roughness_texture, "metallic-roughness"),
        normal_texture: slot(description.normal_texture, "normal"),
        normal_scale: description.normal_scale,
        occlusion_texture: slot(description.occlusion_texture, "occlusion"),
        occlusion_strength: description.occlusion_strength,
        emissive: [e[0] * strength, e[1] * strength, e[2] * strength],
        emissive_texture: slot(description.emissive_texture, "emissive"),
        transparency: description.alpha_mode === "BLEND" ? "blended" : description.alpha_mode === "MASK" ? "masked" : "opaque",
        alpha_cutoff: description.alpha_cutoff,
        double_sided: description.double_sided,
        label: name,
    });
}

function material_texture(reference: TextureReference | null, textures: readonly ModelTexture[], who: string, what: string): MaterialTexture | null {
    if (reference === null) return null;
    if (reference.tex_coord !== 0 && reference.tex_coord !== 1) {
        throw new Error(`${who}: its ${what} texture uses uv set ${reference.tex_coord}; the renderer draws from uv sets 0 and 1`);
    }
    if (reference.transform !== null) {
        throw new Error(`${who}: its ${what} texture has a KHR_texture_transform, which the renderer does not apply yet`);
    }
    const texture = textures[reference.texture];
    if (texture === undefined) {
        throw new RangeError(`${who}: ${what} texture ${reference.texture} is not among the model's ${textures.length} textures`);
    }
    return new MaterialTexture(texture.texture, {
        uv_set: reference.tex_coord,
        sampler: {
            address_mode_u: reference.address_mode_u,
            address_mode_v: reference.address_mode_v,
            mag_filter: reference.mag_filter,
            min_filter: reference.min_filter,
            mipmap_filter: reference.mipmap_filter,
            mipmaps: reference.mipmaps,
        },
    });
}
