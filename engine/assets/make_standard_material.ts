import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import type { MaterialDescription } from "./MaterialDescription.js";

/**
 * Today's `StandardMaterial` from a glTF material's factors: base colour, roughness, metalness, and BLEND as
 * blended (OPAQUE and MASK draw opaque). Textures, emissive, cutoff and double-sidedness wait for the material
 * that reads them.
 */
export function make_standard_material(description: MaterialDescription, label?: string): StandardMaterial {
    return new StandardMaterial({
        base_color: description.base_color_factor,
        roughness: description.roughness_factor,
        metalness: description.metallic_factor,
        transparency: description.alpha_mode === "BLEND" ? "blended" : "opaque",
        label: label ?? (description.name === "" ? undefined : description.name),
    });
}
