import { mat3 } from "gl-matrix";
import type { Mesh } from "../scene/Mesh.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";

/**
 * Writes the per-object data every mesh draw shares (the layout of `mesh_wgsl.ts`'s object struct) for `mesh` at
 * float offset `o`: world matrix, normal matrix (as three padded columns), base colour, roughness, metalness,
 * (the material's, times the mesh's `color`), normal scale, occlusion strength, object id, material id, texture bits
 * (`bits`: `texture_bits` of the material, passed when the caller has it), emissive and alpha cutoff. The caller
 * writes what its draw adds (flags, last frame's matrix). `normal` is scratch, so nothing is allocated.
 */
export function write_object_data(f: Float32Array, u: Uint32Array, o: number, mesh: Mesh, normal: mat3, bits: number = texture_bits(mesh.material)): void {
    const m = mesh.world_matrix;
    for (let k = 0; k < 16; k++) f[o + k] = m[k];
    const n = mat3.normalFromMat4(normal, m) ?? mat3.identity(normal);
    f[o + 16] = n[0];
    f[o + 17] = n[1];
    f[o + 18] = n[2];
    f[o + 20] = n[3];
    f[o + 21] = n[4];
    f[o + 22] = n[5];
    f[o + 24] = n[6];
    f[o + 25] = n[7];
    f[o + 26] = n[8];
    const material = mesh.material;
    const c = material.base_color;
    const t = mesh.color;
    f[o + 28] = c[0] * t[0];
    f[o + 29] = c[1] * t[1];
    f[o + 30] = c[2] * t[2];
    f[o + 31] = c[3] * t[3];
    f[o + 32] = material.roughness;
    f[o + 33] = material.metalness;
    f[o + 34] = material.normal_scale;
    f[o + 35] = material.occlusion_strength;
    u[o + 36] = mesh.object_id;
    u[o + 37] = material.id;
    u[o + 39] = bits;
    const e = material.emissive;
    f[o + 56] = e[0];
    f[o + 57] = e[1];
    f[o + 58] = e[2];
    f[o + 59] = material.transparency === "masked" ? material.alpha_cutoff : 0;
}

/**
 * The object data's texture bits (`ids.w`): which slots sample uv set 1 (bits 0-4), whether a normal map is bound
 * (bit 8), which slots are bound (bits 9-13; the shader samples only those).
 */
export function texture_bits(material: StandardMaterial): number {
    const bound = material.texture_slots_bound;
    return (bound << 9) | material.texture_slots_uv1 | ((bound & 4) !== 0 ? 256 : 0);
}
