import type { StandardMaterial } from "../scene/StandardMaterial.js";

/**
 * The pipeline variant a material draws with (index into a pass's pipelines): bit 0 double-sided (no culling),
 * bit 1 masked (the discard below the cutoff), bit 2 it reads tangents or the second uv set (a normal map, a
 * slot on uv set 1: five vertex buffers; otherwise three).
 */
export function material_variant(material: StandardMaterial): number {
    return (material.double_sided ? 1 : 0) | (material.transparency === "masked" ? 2 : 0) | (needs_surface_buffers(material) ? 4 : 0);
}

function needs_surface_buffers(material: StandardMaterial): boolean {
    return (material.texture_slots_bound & 4) !== 0 || material.texture_slots_uv1 !== 0;
}

/**
 * Which meshes may share an instanced draw run whatever their material: materials with no texture bound draw
 * with the same (empty) bind group, and their values travel per object, so only their pipeline variant tells
 * them apart (key = variant); a textured material's draws are its own (key = 8 + its id). -1 for blended
 * materials (drawn one mesh at a time).
 */
export function material_run_key(material: StandardMaterial): number {
    if (material.transparency === "blended") return -1;
    const textured = material.texture_slots_bound !== 0;
    return textured ? 8 + material.id : material_variant(material);
}
