import { GGX_SAMPLING_WGSL } from "./ggx_sampling_wgsl.js";

/** Texels on each side of the split-sum BRDF lookup: x is n.v, y is roughness, both 0..1 at texel centres. */
export const BRDF_LUT_SIZE = 64;
/** GGX samples per lookup texel. */
const BRDF_LUT_SAMPLES = 512;
/** Format of the lookup: (scale A, bias B) of F0 in the split-sum specular term F0 * A + B. */
export const BRDF_LUT_FORMAT: GPUTextureFormat = "rg16float";

// rg16float is not a storage format in core WebGPU: the shader packs each texel into a u32 of a buffer and a
// copy moves it into the texture (64 texels x 4 bytes is one 256-byte row, as copies want).
const SHADER = /* wgsl */ `
${GGX_SAMPLING_WGSL}
@group(0) @binding(0) var<storage, read_write> lut: array<u32>;

// Smith-Schlick visibility with k = alpha / 2, the image-based lighting form (Karis 2013).
fn geometry_ibl(n_v: f32, n_l: f32, roughness: f32) -> f32 {
    let k = roughness * roughness / 2.0;
    return (n_v / (n_v * (1.0 - k) + k)) * (n_l / (n_l * (1.0 - k) + k));
}

fn integrate(n_v: f32, roughness: f32) -> vec2f {
    let v = vec3f(sqrt(1.0 - n_v * n_v), 0.0, n_v);
    let a = roughness * roughness;
    var sum = vec2f(0.0);
    for (var i = 0u; i < ${BRDF_LUT_SAMPLES}u; i++) {
        let h = importance_sample_ggx(hammersley(i, ${BRDF_LUT_SAMPLES}u), a);
        let l = 2.0 * dot(v, h) * h - v;
        let n_l = l.z;
        if (n_l > 0.0) {
            let n_h = max(h.z, 0.0);
            let v_h = max(dot(v, h), 0.0);
            let g_vis = geometry_ibl(n_v, n_l, roughness) * v_h / max(n_h * n_v, 1e-6);
            let fc = pow(1.0 - v_h, 5.0);
            sum += vec2f((1.0 - fc) * g_vis, fc * g_vis);
        }
    }
    return sum / f32(${BRDF_LUT_SAMPLES}u);
}

@compute @workgroup_size(8, 8)
fn brdf_lut(@builtin(global_invocation_id) id: vec3u) {
    if (id.x >= ${BRDF_LUT_SIZE}u || id.y >= ${BRDF_LUT_SIZE}u) { return; }
    let n_v = (f32(id.x) + 0.5) / ${BRDF_LUT_SIZE}.0;
    let roughness = (f32(id.y) + 0.5) / ${BRDF_LUT_SIZE}.0;
    lut[id.y * ${BRDF_LUT_SIZE}u + id.x] = pack2x16float(integrate(n_v, roughness));
}
`;

// per device: computed once, and a lost device takes it along
const luts = new WeakMap<GPUDevice, GPUTexture>();

/**
 * The split-sum BRDF lookup of `device` (`BRDF_LUT_SIZE` square, rg16float): texel (x, y) holds (A, B) for
 * n.v = (x + 0.5) / size and roughness = (y + 0.5) / size, so that the specular light an environment reflects
 * is prefiltered radiance x (F0 * A + B). Computed on the GPU the first time a device asks; shared by every
 * environment on it and freed with the device.
 */
export function brdf_lut(device: GPUDevice): GPUTexture {
    const existing = luts.get(device);
    if (existing !== undefined) return existing;
    const texture = device.createTexture({
        label: "environment BRDF lookup",
        size: [BRDF_LUT_SIZE, BRDF_LUT_SIZE],
        format: BRDF_LUT_FORMAT,
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC,
    });
    const buffer = device.createBuffer({
        label: "environment BRDF lookup (packed)",
        size: BRDF_LUT_SIZE * BRDF_LUT_SIZE * 4,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    const module = device.createShaderModule({ label: "environment BRDF lookup shader", code: SHADER });
    const pipeline = device.createComputePipeline({ label: "environment BRDF lookup pipeline", layout: "auto", compute: { module, entryPoint: "brdf_lut" } });
    const group = device.createBindGroup({
        label: "environment BRDF lookup bind group",
        layout: pipeline.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: { buffer } }],
    });
    const encoder = device.createCommandEncoder({ label: "environment BRDF lookup" });
    encoder.pushDebugGroup("environment: BRDF lookup");
    const pass = encoder.beginComputePass({ label: "environment BRDF lookup" });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(BRDF_LUT_SIZE / 8, BRDF_LUT_SIZE / 8);
    pass.end();
    encoder.copyBufferToTexture({ buffer, bytesPerRow: BRDF_LUT_SIZE * 4 }, { texture }, [BRDF_LUT_SIZE, BRDF_LUT_SIZE]);
    encoder.popDebugGroup();
    device.queue.submit([encoder.finish()]);
    buffer.destroy(); // after submit: the copy keeps what it needs
    luts.set(device, texture);
    return texture;
}
