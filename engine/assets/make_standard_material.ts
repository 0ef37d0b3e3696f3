import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import type { MaterialDescription } from "./MaterialDescription.js";
import type { ModelTexture } from "./ModelTexture.js";
import type { TextureReference } from "./TextureReference.js";

/**
 * Today's `StandardMaterial` from a glTF material: base colour factor and texture, roughness, metalness, and
 * BLEND as blended (OPAQUE and MASK draw opaque). Pass the model's `textures` to draw the base colour texture;
 * without them the factors alone are used. The renderer samples it from uv set 0 with one linear, repeating,
 * mipmapped sampler (the file's sampler settings are not applied yet); a base colour texture on uv set 1 or
 * with KHR_texture_transform is refused naming the material, rather than drawn wrong. Metallic-roughness,
 * normal, occlusion and emissive textures, the MASK cutoff and double-sidedness wait for the material that
 * reads them.
 */
export function make_standard_material(description: MaterialDescription, label?: string, textures?: readonly ModelTexture[]): StandardMaterial {
    const name = label ?? (description.name === "" ? undefined : description.name);
    return new StandardMaterial({
        base_color: description.base_color_factor,
        roughness: description.roughness_factor,
        metalness: description.metallic_factor,
        base_color_texture: textures === undefined ? null : base_color_texture(description.base_color_texture, textures, name),
        transparency: description.alpha_mode === "BLEND" ? "blended" : "opaque",
        label: name,
    });
}

function base_color_texture(reference: TextureReference | null, textures: readonly ModelTexture[], name: string | undefined): GPUTexture | null {
    if (reference === null) return null;
    const who = `make_standard_material: material '${name ?? "(unnamed)"}'`;
    if (reference.tex_coord !== 0) {
        throw new Error(`${who}: its base colour texture uses uv set ${reference.tex_coord}; the renderer draws base colour from uv set 0 only`);
    }
    if (reference.transform !== null) {
        throw new Error(`${who}: its base colour texture has a KHR_texture_transform, which the renderer does not apply yet`);
    }
    const texture = textures[reference.texture];
    if (texture === undefined) {
        throw new RangeError(`${who}: base colour texture ${reference.texture} is not among the model's ${textures.length} textures`);
    }
    return texture.texture;
}
