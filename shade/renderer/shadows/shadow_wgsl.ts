/**
 * Sampling the sun's cascaded shadow map (see `ShadowMap`). The including shader declares, after
 * `LIGHTING_WGSL`, `shadow_map: texture_depth_2d`, `shadow_sampler: sampler_comparison` and
 * `shadow: ShadowCascades` at bindings of its own.
 */
export const SHADOW_WGSL = /* wgsl */ `
struct ShadowCascades {
    // light view-projection of each cascade
    matrices: array<mat4x4f, 4>,
    // far view depth of each cascade
    splits: vec4f,
    // world size of one texel in each cascade
    texel_world: vec4f,
    // x: cascade count, y: 1 / atlas width, z: 1 / atlas height, w: depth bias
    params: vec4f,
    unused: vec4f,
};

// 1 where the sun reaches world point p (normal n, view depth view_depth), 0 in full shadow; 3x3 taps of a
// bilinear comparison (PCF). Beyond the last cascade everything is lit.
fn sun_shadow(p: vec3f, n: vec3f, view_depth: f32) -> f32 {
    let count = u32(shadow.params.x);
    var i = 0u;
    loop {
        if (i >= count || view_depth <= shadow.splits[i]) { break; }
        i++;
    }
    if (i >= count) { return 1.0; }
    // pushed off the surface along its normal by about a texel: no acne on slopes facing away from the sun
    let clip = shadow.matrices[i] * vec4f(p + n * shadow.texel_world[i] * 1.5, 1.0);
    if (clip.z >= 1.0) { return 1.0; }
    let texel = shadow.params.yz;
    let tile = 1.0 / f32(count);
    let uv = vec2f((f32(i) + clip.x * 0.5 + 0.5) * tile, 0.5 - clip.y * 0.5);
    // the taps stay inside this cascade's square of the atlas
    let lo = vec2f(f32(i) * tile + 1.5 * texel.x, 1.5 * texel.y);
    let hi = vec2f(f32(i + 1u) * tile - 1.5 * texel.x, 1.0 - 1.5 * texel.y);
    let center = clamp(uv, lo, hi);
    let reference = clip.z - shadow.params.w;
    var lit = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, center + vec2f(f32(x), f32(y)) * texel, reference);
        }
    }
    return lit / 9.0;
}
`;

/** The bind group layout entries of the shadow map as a lighting shader binds it, from `first` on. */
export function shadow_layout_entries(first: number, visibility: number): GPUBindGroupLayoutEntry[] {
    return [
        { binding: first, visibility, texture: { sampleType: "depth" } },
        { binding: first + 1, visibility, sampler: { type: "comparison" } },
        { binding: first + 2, visibility, buffer: { type: "uniform" } },
    ];
}
