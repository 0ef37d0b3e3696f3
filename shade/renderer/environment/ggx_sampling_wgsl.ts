/**
 * WGSL shared by the environment's prefilter and BRDF lookup shaders: the equirectangular mapping both ways,
 * the Hammersley sequence and GGX importance sampling (roughness is perceptual: the
 * distribution's alpha is its square, as in the lighting's `brdf`).
 */
export const GGX_SAMPLING_WGSL = /* wgsl */ `
const PI = 3.14159265358979;

// Where direction d falls on an equirectangular image: u = 0.5 looks down -Z, u grows toward +X; v = 0 is up (+Y).
fn equirect_uv(d: vec3f) -> vec2f {
    return vec2f(0.5 + atan2(d.x, -d.z) / (2.0 * PI), acos(clamp(d.y, -1.0, 1.0)) / PI);
}

// The direction at equirectangular coordinate uv (the inverse of equirect_uv).
fn equirect_direction(uv: vec2f) -> vec3f {
    let phi = (uv.x - 0.5) * 2.0 * PI;
    let theta = uv.y * PI;
    return vec3f(sin(theta) * sin(phi), cos(theta), -sin(theta) * cos(phi));
}

fn radical_inverse(i: u32) -> f32 {
    return f32(reverseBits(i)) * 2.3283064365386963e-10;
}

fn hammersley(i: u32, count: u32) -> vec2f {
    return vec2f(f32(i) / f32(count), radical_inverse(i));
}

// A half vector around +Z drawn with density D(h) (n.h) for GGX alpha 'a'.
fn importance_sample_ggx(xi: vec2f, a: f32) -> vec3f {
    let phi = 2.0 * PI * xi.x;
    let cos_theta = sqrt((1.0 - xi.y) / (1.0 + (a * a - 1.0) * xi.y));
    let sin_theta = sqrt(max(1.0 - cos_theta * cos_theta, 0.0));
    return vec3f(sin_theta * cos(phi), sin_theta * sin(phi), cos_theta);
}

// h (around +Z) turned so that +Z becomes n.
fn to_world(h: vec3f, n: vec3f) -> vec3f {
    let up = select(vec3f(1.0, 0.0, 0.0), vec3f(0.0, 0.0, 1.0), abs(n.z) < 0.999);
    let tangent = normalize(cross(up, n));
    let bitangent = cross(n, tangent);
    return tangent * h.x + bitangent * h.y + n * h.z;
}

fn ggx_distribution(n_h: f32, a: f32) -> f32 {
    let a2 = a * a;
    let d = n_h * n_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}
`;
