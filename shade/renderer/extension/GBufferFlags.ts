/**
 * Bits of the G-buffer material target's flags channel (`material.y`, 8 bits), written by every pass that
 * draws into the G-buffer (meshes, terrain) and read by the steps and extensions after it.
 */
export const GBufferFlags = {
    /** The lighting step shades the pixel (unlit pixels show their albedo as is). */
    lit: 1,
    /** The material samples a base-colour texture. */
    textured: 2,
    /** Decals project onto the pixel (the terrain and meshes that say `receive_decals`). */
    receives_decals: 4,
} as const;
