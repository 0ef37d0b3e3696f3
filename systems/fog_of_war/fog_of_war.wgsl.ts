import { CAMERA_WGSL } from "../../shade/renderer/scene/Camera.js";
import { FULLSCREEN_VERTEX_WGSL } from "../../shade/renderer/fullscreen/fullscreen_vertex_wgsl.js";

/** Floats in the fog's parameter block. */
export const FOG_PARAMS_FLOATS = 12;

/**
 * What both paths of the fog pass share: world position from depth through the inverse view-projection, the
 * grid sampled bilinearly at 3x3 taps `blur` cells apart (a tent: a smooth edge), and the brightness of the
 * level the scene is multiplied by (the raster path blends dst * src; the compute path writes the product).
 * Where nothing was drawn (depth 1) the view ray's point on the plane y = 0 stands in below the horizon, and
 * the sky above it is left as it is; outside the grid is hidden.
 */
export const FOG_OF_WAR_WGSL = /* wgsl */ `
${CAMERA_WGSL}

struct FogParams {
    // min_x, min_z, 1 / (max_x - min_x), 1 / (max_z - min_z)
    bounds: vec4f,
    // blur offset in uv (x, z), hidden brightness, explored brightness
    shade: vec4f,
    // explored level of the grid, unused
    levels: vec4f,
};

@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var<uniform> params: FogParams;
@group(0) @binding(2) var depth_texture: texture_depth_2d;
@group(0) @binding(3) var grid_texture: texture_2d<f32>;
@group(0) @binding(4) var grid_sampler: sampler;

fn grid_at(uv: vec2f) -> f32 {
    if (any(uv < vec2f(0.0)) || any(uv > vec2f(1.0))) { return 0.0; }
    return textureSampleLevel(grid_texture, grid_sampler, uv, 0.0).r;
}

// The brightness the scene is multiplied by at a pixel; negative: leave the pixel as it is (the sky).
fn fog_brightness(pixel: vec2i, size: vec2f) -> f32 {
    let depth = textureLoad(depth_texture, pixel, 0);
    let centre = vec2f(pixel) + 0.5;
    let ndc = vec2f(centre.x / size.x * 2.0 - 1.0, 1.0 - centre.y / size.y * 2.0);
    let h = camera.inverse_view_projection * vec4f(ndc, min(depth, 1.0), 1.0);
    var world = h.xyz / h.w;
    if (depth >= 1.0) {
        // nothing drawn here: the view ray meets the ground plane y = 0 below the horizon (so that what was
        // drawn over the clear colour, an outline past a unit's silhouette, is fogged too); above it, the sky
        let eye = camera.position.xyz;
        let ray = world - eye;
        if (!(eye.y > 0.0 && ray.y < 0.0)) { return -1.0; }
        world = eye + ray * (-eye.y / ray.y);
    }
    let uv = (world.xz - params.bounds.xy) * params.bounds.zw;
    let o = params.shade.xy;
    var level = 4.0 * grid_at(uv);
    level += 2.0 * (grid_at(uv + vec2f(o.x, 0.0)) + grid_at(uv - vec2f(o.x, 0.0)) + grid_at(uv + vec2f(0.0, o.y)) + grid_at(uv - vec2f(0.0, o.y)));
    level += grid_at(uv + o) + grid_at(uv - o) + grid_at(uv + vec2f(o.x, -o.y)) + grid_at(uv + vec2f(-o.x, o.y));
    level = level / 16.0;
    let explored = params.levels.x;
    let hidden_b = params.shade.z;
    let explored_b = params.shade.w;
    if (level < explored) {
        return mix(hidden_b, explored_b, level / explored);
    }
    return mix(explored_b, 1.0, (level - explored) / (1.0 - explored));
}
`;

/**
 * The raster path: a covering triangle multiplying the scene (blend dst * src) by the brightness; the sky is
 * discarded.
 */
export const FOG_OF_WAR_RASTER_WGSL = /* wgsl */ `
${FOG_OF_WAR_WGSL}
${FULLSCREEN_VERTEX_WGSL}

@fragment
fn fs_main(@builtin(position) position: vec4f) -> @location(0) vec4f {
    let b = fog_brightness(vec2i(position.xy), vec2f(textureDimensions(depth_texture)));
    if (b < 0.0) { discard; }
    return vec4f(b, b, b, 1.0);
}
`;

/**
 * The compute path (faster on GPUs, see BENCHMARKS.md "Full-screen passes"): 8x8 tiles read the scene colour and
 * write it darkened into a new texture of the same format (a storage texture cannot be read and written in one
 * pass in every format, so the fog writes a copy rather than blending in place).
 */
export function fog_of_war_compute_wgsl(format: GPUTextureFormat): string {
    return /* wgsl */ `
${FOG_OF_WAR_WGSL}
@group(0) @binding(5) var scene_texture: texture_2d<f32>;
@group(0) @binding(6) var output_texture: texture_storage_2d<${format}, write>;

@compute @workgroup_size(8, 8)
fn cs_main(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(output_texture);
    if (id.x >= size.x || id.y >= size.y) { return; }
    let pixel = vec2i(id.xy);
    let scene = textureLoad(scene_texture, pixel, 0);
    let b = fog_brightness(pixel, vec2f(size));
    if (b < 0.0) {
        textureStore(output_texture, pixel, scene);
    } else {
        textureStore(output_texture, pixel, vec4f(scene.rgb * b, scene.a));
    }
}
`;
}
