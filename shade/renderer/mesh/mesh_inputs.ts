import type { Mesh } from "../scene/Mesh.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";

/** Floats of `store_inputs`: position 3, rotation 4, scale 3, mesh colour 4, base colour 4, roughness, metalness, matrix version, material values 7. */
export const MESH_INPUTS = 29;

/** Whether what a mesh's object data is written from equals what `store_inputs` kept in `a` from `o`. */
export function same_inputs(a: Float32Array, mesh: Mesh, material: StandardMaterial, bits: number, o = 0): boolean {
    return same_mesh_inputs(a, mesh, o) && same_material_inputs(a, material, bits, o);
}

/**
 * The mesh's own part of `same_inputs` (transform, colour, the version of a matrix set from outside): all of it
 * where no material's values moved this frame (`MaterialWatch.check`) and the mesh's material is the one kept.
 */
export function same_mesh_inputs(a: Float32Array, mesh: Mesh, o = 0): boolean {
    // position, rotation, scale and colour through the mesh's one array (Mesh.data)
    const d = mesh.data;
    return (
        a[o + 0] === d[0] && a[o + 1] === d[1] && a[o + 2] === d[2] &&
        a[o + 3] === d[4] && a[o + 4] === d[5] && a[o + 5] === d[6] && a[o + 6] === d[7] &&
        a[o + 7] === d[8] && a[o + 8] === d[9] && a[o + 9] === d[10] &&
        a[o + 10] === d[11] && a[o + 11] === d[12] && a[o + 12] === d[13] && a[o + 13] === d[14] &&
        // a matrix set from outside: its version (as float32, exact up to 2^24 changes, then wrapping through the same test)
        a[o + 20] === Math.fround(mesh.matrix_auto_update ? -1 : mesh.matrix_version % 16777216)
    );
}

function same_material_inputs(a: Float32Array, material: StandardMaterial, bits: number, o: number): boolean {
    const b = material.base_color;
    return (
        a[o + 14] === b[0] && a[o + 15] === b[1] && a[o + 16] === b[2] && a[o + 17] === b[3] &&
        a[o + 18] === Math.fround(material.roughness) && a[o + 19] === Math.fround(material.metalness) &&
        a[o + 21] === Math.fround(material.normal_scale) && a[o + 22] === Math.fround(material.occlusion_strength) &&
        a[o + 23] === material.emissive[0] && a[o + 24] === material.emissive[1] && a[o + 25] === material.emissive[2] &&
        a[o + 26] === Math.fround(material.transparency === "masked" ? material.alpha_cutoff : 0) &&
        a[o + 27] === bits
    );
}

/** Keeps what a mesh's object data is written from, for `same_inputs`, in `a` from `o`. */
export function store_inputs(a: Float32Array, mesh: Mesh, material: StandardMaterial, bits: number, o = 0): void {
    // element by element: a typed array's set() costs more than these few stores (every moving mesh, every frame)
    const d = mesh.data;
    const b = material.base_color;
    a[o + 0] = d[0];
    a[o + 1] = d[1];
    a[o + 2] = d[2];
    a[o + 3] = d[4];
    a[o + 4] = d[5];
    a[o + 5] = d[6];
    a[o + 6] = d[7];
    a[o + 7] = d[8];
    a[o + 8] = d[9];
    a[o + 9] = d[10];
    a[o + 10] = d[11];
    a[o + 11] = d[12];
    a[o + 12] = d[13];
    a[o + 13] = d[14];
    a[o + 14] = b[0];
    a[o + 15] = b[1];
    a[o + 16] = b[2];
    a[o + 17] = b[3];
    a[o + 18] = material.roughness;
    a[o + 19] = material.metalness;
    a[o + 20] = mesh.matrix_auto_update ? -1 : mesh.matrix_version % 16777216;
    a[o + 21] = material.normal_scale;
    a[o + 22] = material.occlusion_strength;
    const e = material.emissive;
    a[o + 23] = e[0];
    a[o + 24] = e[1];
    a[o + 25] = e[2];
    a[o + 26] = material.transparency === "masked" ? material.alpha_cutoff : 0;
    a[o + 27] = bits;
}
