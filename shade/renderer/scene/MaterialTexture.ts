/** How a material texture is filtered and addressed (glTF's sampler). Defaults: repeat, linear, mipmapped. */
export interface MaterialSampler {
    readonly address_mode_u?: GPUAddressMode;
    readonly address_mode_v?: GPUAddressMode;
    readonly mag_filter?: GPUFilterMode;
    readonly min_filter?: GPUFilterMode;
    readonly mipmap_filter?: GPUMipmapFilterMode;
    /** False: sample mip 0 only (glTF's NEAREST and LINEAR minification). Default true. */
    readonly mipmaps?: boolean;
}

/**
 * A texture as a material uses it: the texture, the uv set it is sampled with (0: the geometry's `uv`, 1: its
 * `uv1`) and its sampler. Immutable: to change one, assign a new `MaterialTexture` to the material's slot.
 */
export class MaterialTexture {
    readonly texture: GPUTexture;
    readonly uv_set: 0 | 1;
    readonly sampler: Readonly<Required<MaterialSampler>>;

    constructor(texture: GPUTexture, options: { uv_set?: 0 | 1; sampler?: MaterialSampler } = {}) {
        const uv_set = options.uv_set ?? 0;
        if (uv_set !== 0 && uv_set !== 1) throw new RangeError(`MaterialTexture '${texture.label}': uv_set is 0 or 1, got ${String(uv_set)}`);
        const s = options.sampler ?? {};
        this.texture = texture;
        this.uv_set = uv_set;
        this.sampler = Object.freeze({
            address_mode_u: s.address_mode_u ?? "repeat",
            address_mode_v: s.address_mode_v ?? "repeat",
            mag_filter: s.mag_filter ?? "linear",
            min_filter: s.min_filter ?? "linear",
            mipmap_filter: s.mipmap_filter ?? "linear",
            mipmaps: s.mipmaps ?? true,
        });
    }
}

/** A material's texture slot: a bare texture (uv set 0, default sampler), a `MaterialTexture`, or none. */
export type MaterialTextureSlot = GPUTexture | MaterialTexture | null;

/** The texture of a slot, or null. */
export function slot_texture(slot: MaterialTextureSlot): GPUTexture | null {
    return slot === null ? null : slot instanceof MaterialTexture ? slot.texture : slot;
}

/** The uv set of a slot (0 for a bare texture or none). */
export function slot_uv_set(slot: MaterialTextureSlot): 0 | 1 {
    return slot instanceof MaterialTexture ? slot.uv_set : 0;
}
