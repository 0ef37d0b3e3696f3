/** How a material composes with what is behind it. */
export type TransparencyMode = "opaque" | "blended";

export interface StandardMaterialSpec {
    /** Linear RGBA; alpha is coverage for blended materials. Default white. */
    readonly base_color?: ArrayLike<number>;
    /** 0 (mirror) .. 1 (matte). Default 0.6. */
    readonly roughness?: number;
    /** 0 (dielectric) .. 1 (metal). Default 0. */
    readonly metalness?: number;
    /** Multiplies `base_color`; sampled with the geometry's uv (sRGB texture for colour). */
    readonly base_color_texture?: GPUTexture | null;
    readonly transparency?: TransparencyMode;
    readonly label?: string;
}

/**
 * The physically based material: base colour (optionally textured), roughness, metalness, and whether it
 * is drawn opaque into the G-buffer or blended in the forward transparency step. Fields are read every frame.
 */
export class StandardMaterial {
    readonly base_color = new Float32Array([1, 1, 1, 1]);
    roughness: number;
    metalness: number;
    /** A texture on the device the renderer draws with; null for none. */
    base_color_texture: GPUTexture | null;
    transparency: TransparencyMode;
    readonly label: string;
    /** Stable identity for sorting and the G-buffer's material index. */
    readonly id: number;

    static #next_id = 1;

    constructor(spec: StandardMaterialSpec = {}) {
        if (spec.base_color !== undefined) {
            if (spec.base_color.length !== 3 && spec.base_color.length !== 4) {
                throw new RangeError(`StandardMaterial: base_color is RGB or RGBA, got ${spec.base_color.length} values`);
            }
            for (let i = 0; i < spec.base_color.length; i++) this.base_color[i] = spec.base_color[i];
        }
        this.roughness = spec.roughness ?? 0.6;
        this.metalness = spec.metalness ?? 0;
        this.base_color_texture = spec.base_color_texture ?? null;
        this.transparency = spec.transparency ?? "opaque";
        this.id = StandardMaterial.#next_id++;
        this.label = spec.label ?? `material ${this.id}`;
        if (this.transparency !== "opaque" && this.transparency !== "blended") {
            throw new TypeError(`StandardMaterial '${this.label}': transparency is 'opaque' or 'blended', got '${String(this.transparency)}'`);
        }
    }
}
