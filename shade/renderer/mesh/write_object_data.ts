import type { Mesh } from "../scene/Mesh.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";

/**
 * Writes the per-object data every mesh draw shares (the layout of `mesh_wgsl.ts`'s object struct) for `mesh` at
 * float offset `o`: world matrix, normal matrix (as three padded columns), base colour, roughness, metalness,
 * (the material's, times the mesh's `color`), normal scale, occlusion strength, object id, material id, texture bits
 * (`bits`: `texture_bits` of the material, passed when the caller has it), emissive and alpha cutoff. The caller
 * writes what its draw adds (flags, last frame's matrix). Allocates nothing.
 */
export function write_object_data(f: Float32Array, u: Uint32Array, o: number, mesh: Mesh, bits: number = texture_bits(mesh.material)): void {
    // the world matrix (16-31) and colour (11-14) through the mesh's one array (Mesh.data)
    const d = mesh.data;
    for (let k = 0; k < 16; k++) f[o + k] = d[16 + k];
    write_normal_matrix(f, o + 16, d, 16);
    const material = mesh.material;
    const c = material.base_color;
    f[o + 28] = c[0] * d[11];
    f[o + 29] = c[1] * d[12];
    f[o + 30] = c[2] * d[13];
    f[o + 31] = c[3] * d[14];
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

/**
 * The normal matrix of the affine matrix at `m[mo]` (the inverse transpose of its upper 3x3, as gl-matrix's
 * `mat3.normalFromMat4`; identity where it is singular) into `f` from `o` as three columns padded to four floats.
 * Columns c0, c1, c2 of the 3x3 give the inverse transpose as (c1 x c2, c2 x c0, c0 x c1) / det.
 */
export function write_normal_matrix(f: Float32Array, o: number, m: Float32Array, mo: number): void {
    const a0 = m[mo], a1 = m[mo + 1], a2 = m[mo + 2];
    const b0 = m[mo + 4], b1 = m[mo + 5], b2 = m[mo + 6];
    const c0 = m[mo + 8], c1 = m[mo + 9], c2 = m[mo + 10];
    // b x c, c x a, a x b
    const x0 = b1 * c2 - b2 * c1, x1 = b2 * c0 - b0 * c2, x2 = b0 * c1 - b1 * c0;
    const y0 = c1 * a2 - c2 * a1, y1 = c2 * a0 - c0 * a2, y2 = c0 * a1 - c1 * a0;
    const z0 = a1 * b2 - a2 * b1, z1 = a2 * b0 - a0 * b2, z2 = a0 * b1 - a1 * b0;
    const det = a0 * x0 + a1 * x1 + a2 * x2;
    if (det === 0) {
        f[o] = 1; f[o + 1] = 0; f[o + 2] = 0;
        f[o + 4] = 0; f[o + 5] = 1; f[o + 6] = 0;
        f[o + 8] = 0; f[o + 9] = 0; f[o + 10] = 1;
        return;
    }
    const r = 1 / det;
    f[o] = x0 * r; f[o + 1] = x1 * r; f[o + 2] = x2 * r;
    f[o + 4] = y0 * r; f[o + 5] = y1 * r; f[o + 6] = y2 * r;
    f[o + 8] = z0 * r; f[o + 9] = z1 * r; f[o + 10] = z2 * r;
}
