/** KHR_texture_transform on one texture reference: uv' = translate(offset) x rotate(rotation) x scale(scale) x uv. */
export interface TextureTransform {
    readonly offset: readonly [number, number];
    /** Radians, counter-clockwise in uv space. */
    readonly rotation: number;
    readonly scale: readonly [number, number];
    /** The uv set to use instead of the reference's own, or null to keep it. */
    readonly tex_coord: number | null;
}
