/**
 * A triangle that covers the target, with `uv` (0,0) at the top-left: the vertex stage of every fullscreen
 * pass (`vs_fullscreen`, drawn with `draw(3)`).
 */
export const FULLSCREEN_VERTEX_WGSL = /* wgsl */ `
struct FullscreenVarying {
    @builtin(position) position: vec4f,
    @location(0) uv: vec2f,
};

@vertex
fn vs_fullscreen(@builtin(vertex_index) index: u32) -> FullscreenVarying {
    let xy = vec2f(f32((index << 1u) & 2u), f32(index & 2u));
    var out: FullscreenVarying;
    out.position = vec4f(xy * 2.0 - 1.0, 0.0, 1.0);
    out.uv = vec2f(xy.x, 1.0 - xy.y);
    return out;
}
`;
