import type { StandardMaterial } from "../scene/StandardMaterial.js";
import { material_run_key } from "./material_variant.js";
import { texture_bits } from "./write_object_data.js";

// base colour 4, roughness, metalness, normal scale, occlusion strength, emissive 3, alpha cutoff, texture bits
const VALUES = 14;

/**
 * What watched materials changed since the last `check`: nothing (0); a value their meshes' object data holds
 * (colour, roughness, ...: 1); what decides their draw runs (texture slots bound, pipeline variant,
 * transparency: the list must re-sort; 2).
 */
export type MaterialChange = 0 | 1 | 2;

/**
 * The distinct materials of a draw list, each compared once a frame with what it was (not once per mesh): how a
 * list of frozen meshes sees a material edit without looking at its meshes. Allocates only in `watch`.
 */
export class MaterialWatch {
    #materials: StandardMaterial[] = [];
    #count = 0;
    #values = new Float32Array(VALUES * 16);
    #keys: number[] = [];
    // membership test while `watch` collects (cleared by count, so no Set is rebuilt per sort)
    readonly #seen = new WeakMap<StandardMaterial, number>();
    #serial = 0;

    /** Starts a new set (the list re-sorted). */
    reset(): void {
        this.#count = 0;
        this.#serial++;
    }

    /** Adds `material` to the set (once), remembering its values now. */
    watch(material: StandardMaterial): void {
        if (this.#seen.get(material) === this.#serial) return;
        this.#seen.set(material, this.#serial);
        const i = this.#count++;
        this.#materials[i] = material;
        if ((i + 1) * VALUES > this.#values.length) {
            const grown = new Float32Array(this.#values.length * 2);
            grown.set(this.#values);
            this.#values = grown;
        }
        this.#keys[i] = material_run_key(material);
        store(this.#values, i * VALUES, material);
    }

    /** Compares every watched material with its remembered values and remembers the new ones. */
    check(): MaterialChange {
        let change: MaterialChange = 0;
        const values = this.#values;
        for (let i = 0; i < this.#count; i++) {
            const material = this.#materials[i];
            const o = i * VALUES;
            if (same(values, o, material)) continue;
            store(values, o, material);
            if (change < 1) change = 1;
            const key = material_run_key(material);
            if (key !== this.#keys[i]) {
                this.#keys[i] = key;
                change = 2;
            }
        }
        return change;
    }
}

// the transparency mode and double-sidedness ride in the texture bits' spare high bits: any change re-checks the key
function mode_bits(material: StandardMaterial): number {
    return texture_bits(material) | (material.transparency === "masked" ? 1 << 16 : material.transparency === "blended" ? 2 << 16 : 0) | (material.double_sided ? 1 << 18 : 0);
}

function same(a: Float32Array, o: number, m: StandardMaterial): boolean {
    const c = m.base_color;
    const e = m.emissive;
    return (
        a[o] === c[0] && a[o + 1] === c[1] && a[o + 2] === c[2] && a[o + 3] === c[3] &&
        a[o + 4] === Math.fround(m.roughness) && a[o + 5] === Math.fround(m.metalness) &&
        a[o + 6] === Math.fround(m.normal_scale) && a[o + 7] === Math.fround(m.occlusion_strength) &&
        a[o + 8] === e[0] && a[o + 9] === e[1] && a[o + 10] === e[2] &&
        a[o + 11] === Math.fround(m.alpha_cutoff) &&
        a[o + 12] === mode_bits(m)
    );
}

function store(a: Float32Array, o: number, m: StandardMaterial): void {
    a.set(m.base_color, o);
    a[o + 4] = m.roughness;
    a[o + 5] = m.metalness;
    a[o + 6] = m.normal_scale;
    a[o + 7] = m.occlusion_strength;
    a.set(m.emissive, o + 8);
    a[o + 11] = m.alpha_cutoff;
    a[o + 12] = mode_bits(m);
}
