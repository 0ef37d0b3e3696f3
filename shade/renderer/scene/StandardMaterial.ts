import { MaterialTexture, type MaterialTextureSlot } from "./MaterialTexture.js";

/**
 * How a material composes with what is behind it: `opaque` and `masked` draw into the G-buffer (`masked`
 * discards where the coverage, base colour alpha times texture alpha, is below `alpha_cutoff`); `blended` is
 * drawn in the forward transparency step, composed over the scene by its coverage.
 */
export type TransparencyMode = "opaque" | "masked" | "blended";

const MODES: readonly TransparencyMode[] = ["opaque", "masked", "blended"];

export interface StandardMaterialSpec {
    /** Linear RGBA; alpha is coverage for blended and masked materials. Default white. */
    readonly base_color?: ArrayLike<number>;
    /** 0 (mirror) .. 1 (matte). Default 0.6. */
    readonly roughness?: number;
    /** 0 (dielectric) .. 1 (metal). Default 0. */
    readonly metalness?: number;
    /** Multiplies `base_color` (an sRGB texture for colour). */
    readonly base_color_texture?: MaterialTextureSlot;
    /** Roughness in G and metalness in B multiply `roughness` and `metalness` (glTF's layout; linear). */
    readonly metallic_roughness_texture?: MaterialTextureSlot;
    /** Tangent-space normal map (linear); tangents from the geometry's `tangent`, else from screen derivatives. */
    readonly normal_texture?: MaterialTextureSlot;
    /** Scales the normal map's X and Y. Default 1. */
    readonly normal_scale?: number;
    /** Ambient occlusion in R (linear): darkens the ambient and environment light only. */
    readonly occlusion_texture?: MaterialTextureSlot;
    /** 0 (occlusion map ignored) .. 1 (full). Default 1. */
    readonly occlusion_strength?: number;
    /** Linear RGB radiance the surface emits, added after lighting. Default black. */
    readonly emissive?: ArrayLike<number>;
    /** Multiplies `emissive` (an sRGB texture). */
    readonly emissive_texture?: MaterialTextureSlot;
    readonly transparency?: TransparencyMode;
    /** For `masked`: coverage below it is cut away. Default 0.5. */
    readonly alpha_cutoff?: number;
    /** Both faces drawn, the back one with its normal flipped. Default false (back faces culled). */
    readonly double_sided?: boolean;
    readonly label?: string;
}

/**
 * The physically based material (glTF's metallic-roughness model): base colour, roughness and metalness, each
 * optionally textured; normal, occlusion and emissive maps; opaque, masked or blended; single- or double-sided.
 * Factors are read every frame; textures are `GPUTexture`s on the device the renderer draws with, or
 * `MaterialTexture`s naming a uv set and sampler.
 */
export class StandardMaterial {
    readonly base_color = new Float32Array([1, 1, 1, 1]);
    roughness: number;
    metalness: number;
    normal_scale: number;
    occlusion_strength: number;
    readonly emissive = new Float32Array([0, 0, 0]);
    transparency: TransparencyMode;
    alpha_cutoff: number;
    double_sided: boolean;
    readonly label: string;
    /** Stable identity for sorting and the G-buffer's material index. */
    readonly id: number;

    static #next_id = 1;
    #base_color_texture: MaterialTextureSlot = null;
    #metallic_roughness_texture: MaterialTextureSlot = null;
    #normal_texture: MaterialTextureSlot = null;
    #occlusion_texture: MaterialTextureSlot = null;
    #emissive_texture: MaterialTextureSlot = null;
    // kept on assignment, so the draw list's per-mesh walk reads two numbers instead of five slots' classes
    #slots_bound = 0;
    #slots_uv1 = 0;

    get base_color_texture(): MaterialTextureSlot {
        return this.#base_color_texture;
    }
    set base_color_texture(slot: MaterialTextureSlot) {
        this.#base_color_texture = this.#slot(0, slot, "base_color_texture");
    }
    get metallic_roughness_texture(): MaterialTextureSlot {
        return this.#metallic_roughness_texture;
    }
    set metallic_roughness_texture(slot: MaterialTextureSlot) {
        this.#metallic_roughness_texture = this.#slot(1, slot, "metallic_roughness_texture");
    }
    get normal_texture(): MaterialTextureSlot {
        return this.#normal_texture;
    }
    set normal_texture(slot: MaterialTextureSlot) {
        this.#normal_texture = this.#slot(2, slot, "normal_texture");
    }
    get occlusion_texture(): MaterialTextureSlot {
        return this.#occlusion_texture;
    }
    set occlusion_texture(slot: MaterialTextureSlot) {
        this.#occlusion_texture = this.#slot(3, slot, "occlusion_texture");
    }
    get emissive_texture(): MaterialTextureSlot {
        return this.#emissive_texture;
    }
    set emissive_texture(slot: MaterialTextureSlot) {
        this.#emissive_texture = this.#slot(4, slot, "emissive_texture");
    }

    /** Which texture slots are bound, a bit each: base colour 1, metallic-roughness 2, normal 4, occlusion 8, emissive 16. */
    get texture_slots_bound(): number {
        return this.#slots_bound;
    }

    /** Which bound texture slots sample uv set 1, with the bits of `texture_slots_bound`. */
    get texture_slots_uv1(): number {
        return this.#slots_uv1;
    }

    #slot(bit: number, slot: MaterialTextureSlot, name: string): MaterialTextureSlot {
        if (slot === undefined || (slot !== null && typeof slot !== "object")) {
            throw new TypeError(`StandardMaterial '${this.label}': ${name} is a GPUTexture, a MaterialTexture or null, got ${String(slot)}`);
        }
        const mask = 1 << bit;
        this.#slots_bound = slot === null ? this.#slots_bound & ~mask : this.#slots_bound | mask;
        this.#slots_uv1 = slot instanceof MaterialTexture && slot.uv_set === 1 ? this.#slots_uv1 | mask : this.#slots_uv1 & ~mask;
        return slot;
    }

    constructor(spec: StandardMaterialSpec = {}) {
        this.id = StandardMaterial.#next_id++;
        this.label = spec.label ?? `material ${this.id}`;
        if (spec.base_color !== undefined) {
            if (spec.base_color.length !== 3 && spec.base_color.length !== 4) {
                throw new RangeError(`StandardMaterial '${this.label}': base_color is RGB or RGBA, got ${spec.base_color.length} values`);
            }
            for (let i = 0; i < spec.base_color.length; i++) this.base_color[i] = spec.base_color[i];
        }
        if (spec.emissive !== undefined) {
            if (spec.emissive.length !== 3) throw new RangeError(`StandardMaterial '${this.label}': emissive is RGB, got ${spec.emissive.length} values`);
            for (let i = 0; i < 3; i++) this.emissive[i] = spec.emissive[i];
        }
        this.roughness = spec.roughness ?? 0.6;
        this.metalness = spec.metalness ?? 0;
        this.base_color_texture = spec.base_color_texture ?? null;
        this.metallic_roughness_texture = spec.metallic_roughness_texture ?? null;
        this.normal_texture = spec.normal_texture ?? null;
        this.normal_scale = spec.normal_scale ?? 1;
        this.occlusion_texture = spec.occlusion_texture ?? null;
        this.occlusion_strength = spec.occlusion_strength ?? 1;
        this.emissive_texture = spec.emissive_texture ?? null;
        this.transparency = spec.transparency ?? "opaque";
        this.alpha_cutoff = spec.alpha_cutoff ?? 0.5;
        this.double_sided = spec.double_sided ?? false;
        if (!MODES.includes(this.transparency)) {
            throw new TypeError(`StandardMaterial '${this.label}': transparency is 'opaque', 'masked' or 'blended', got '${String(this.transparency)}'`);
        }
        if (!(this.alpha_cutoff >= 0 && this.alpha_cutoff <= 1)) {
            throw new RangeError(`StandardMaterial '${this.label}': alpha_cutoff is 0..1, got ${this.alpha_cutoff}`);
        }
    }
}
