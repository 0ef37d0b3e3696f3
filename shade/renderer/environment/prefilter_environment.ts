import { GGX_SAMPLING_WGSL } from "./ggx_sampling_wgsl.js";

/** Format of the environment's images (storage-writable and filterable in core WebGPU). */
export const ENVIRONMENT_FORMAT: GPUTextureFormat = "rgba16float";

const SHADER = /* wgsl */ `
${GGX_SAMPLING_WGSL}
struct Params {
    // x: roughness, y: samples, z: the output level's mip in the specular image (0 for the irradiance), w: unused
    values: vec4f,
};
@group(0) @binding(0) var radiance: texture_2d<f32>;
@group(0) @binding(1) var linear: sampler;
@group(0) @binding(2) var output: texture_storage_2d<${ENVIRONMENT_FORMAT}, write>;
@group(0) @binding(3) var<uniform> params: Params;

fn texel_uv(id: vec2u, size: vec2u) -> vec2f {
    return (vec2f(id) + 0.5) / vec2f(size);
}

// The radiance image's mip level whose texels, at polar angle theta, span 'solid_angle' (box-filtered mips: a
// texel of level k averages 4^k texels of level 0).
fn radiance_lod(solid_angle: f32, theta: f32) -> f32 {
    let size = vec2f(textureDimensions(radiance));
    let texel = 2.0 * PI * PI / (size.x * size.y) * max(sin(theta), 1e-3);
    return clamp(0.5 * log2(solid_angle / texel), 0.0, f32(textureNumLevels(radiance) - 1u));
}

// One level of the specular image: radiance convolved with GGX lobes of this level's roughness around n = v = r,
// by importance sampling. Each sample reads the radiance at the mip level whose texel covers the sample's share
// of the lobe (filtered importance sampling, Krivanek and Colbert 2008): few samples, no fireflies. Roughness 0
// is the radiance itself, filtered to this level's texel size.
@compute @workgroup_size(8, 8)
fn prefilter_specular(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    let uv = texel_uv(id.xy, size);
    let n = equirect_direction(uv);
    let roughness = params.values.x;
    if (roughness == 0.0) {
        let lod = max(log2(f32(textureDimensions(radiance).x) / f32(size.x)), 0.0);
        textureStore(output, id.xy, vec4f(textureSampleLevel(radiance, linear, uv, lod).rgb, 1.0));
        return;
    }
    let a = roughness * roughness;
    let count = u32(params.values.y);
    var sum = vec3f(0.0);
    var weight = 0.0;
    for (var i = 0u; i < count; i++) {
        let h = to_world(importance_sample_ggx(hammersley(i, count), a), n);
        let n_h = dot(n, h);
        let l = 2.0 * n_h * h - n;
        let n_l = dot(n, l);
        if (n_l > 0.0) {
            // pdf of l: D(h) n.h / (4 v.h), and v.h = n.h here
            let pdf = ggx_distribution(max(n_h, 0.0), a) / 4.0;
            let l_uv = equirect_uv(l);
            let lod = radiance_lod(1.0 / (f32(count) * pdf + 1e-6), l_uv.y * PI) + 1.0;
            sum += textureSampleLevel(radiance, linear, l_uv, lod).rgb * n_l;
            weight += n_l;
        }
    }
    textureStore(output, id.xy, vec4f(sum / max(weight, 1e-6), 1.0));
}

// The irradiance image: for each normal, the cosine-weighted mean of radiance over its hemisphere (irradiance / pi,
// so that the diffuse light is this x albedo), summed exactly over every texel of a small radiance level, each
// weighted by its solid angle (sin of its polar angle).
@compute @workgroup_size(8, 8)
fn irradiance(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(output);
    if (id.x >= size.x || id.y >= size.y) { return; }
    let n = equirect_direction(texel_uv(id.xy, size));
    let level = u32(params.values.z);
    let source_size = textureDimensions(radiance, level);
    var sum = vec3f(0.0);
    var weight = 0.0;
    for (var y = 0u; y < source_size.y; y++) {
        let sin_theta = sin((f32(y) + 0.5) / f32(source_size.y) * PI);
        for (var x = 0u; x < source_size.x; x++) {
            let d = equirect_direction(texel_uv(vec2u(x, y), source_size));
            let cos_theta = dot(n, d);
            if (cos_theta > 0.0) {
                let w = cos_theta * sin_theta;
                sum += textureLoad(radiance, vec2u(x, y), level).rgb * w;
                weight += w;
            }
        }
    }
    textureStore(output, id.xy, vec4f(sum / max(weight, 1e-6), 1.0));
}
`;

interface PrefilterPipelines {
    readonly layout: GPUBindGroupLayout;
    readonly sampler: GPUSampler;
    readonly prefilter_specular: GPUComputePipeline;
    readonly irradiance: GPUComputePipeline;
}

// per device, so a lost or replaced device takes its pipelines along
const caches = new WeakMap<GPUDevice, PrefilterPipelines>();

function pipelines_of(device: GPUDevice): PrefilterPipelines {
    const cached = caches.get(device);
    if (cached !== undefined) return cached;
    const C = GPUShaderStage.COMPUTE;
    const layout = device.createBindGroupLayout({
        label: "environment prefilter bind group layout",
        entries: [
            { binding: 0, visibility: C, texture: { sampleType: "float" } },
            { binding: 1, visibility: C, sampler: { type: "filtering" } },
            { binding: 2, visibility: C, storageTexture: { access: "write-only", format: ENVIRONMENT_FORMAT } },
            { binding: 3, visibility: C, buffer: { type: "uniform" } },
        ],
    });
    const module = device.createShaderModule({ label: "environment prefilter shader", code: SHADER });
    const pipeline_layout = device.createPipelineLayout({ label: "environment prefilter pipeline layout", bindGroupLayouts: [layout] });
    const make = (entry: string): GPUComputePipeline =>
        device.createComputePipeline({ label: `environment ${entry} pipeline`, layout: pipeline_layout, compute: { module, entryPoint: entry } });
    const pipelines: PrefilterPipelines = {
        layout,
        sampler: environment_sampler(device, "environment prefilter sampler"),
        prefilter_specular: make("prefilter_specular"),
        irradiance: make("irradiance"),
    };
    caches.set(device, pipelines);
    return pipelines;
}

/** The sampler of equirectangular images: trilinear, wrapping around in u, clamped at the poles. */
export function environment_sampler(device: GPUDevice, label: string): GPUSampler {
    return device.createSampler({ label, magFilter: "linear", minFilter: "linear", mipmapFilter: "linear", addressModeU: "repeat" });
}

/** What `prefilter_environment` reads and fills. */
export interface PrefilterTargets {
    /** The equirectangular radiance with its full mip chain (box-filtered). */
    readonly radiance: GPUTexture;
    /** The specular image: level k holds roughness k / (levels - 1). */
    readonly specular: GPUTexture;
    readonly irradiance: GPUTexture;
    /** GGX samples per specular texel. */
    readonly samples: number;
}

/** Texels across the radiance level the irradiance sums over (every one of them, for every irradiance texel). */
const IRRADIANCE_SOURCE_WIDTH = 64;

/**
 * Records the environment's GPU prefiltering into `encoder`, one compute pass per specular level and one for the
 * irradiance, each in a debug group. Returns the buffers it made, to destroy once the work is submitted.
 */
export function prefilter_environment(device: GPUDevice, encoder: GPUCommandEncoder, t: PrefilterTargets, label: string): GPUBuffer[] {
    const p = pipelines_of(device);
    const levels = t.specular.mipLevelCount;
    // one uniform slice per pass (256 bytes apart, the binding alignment): the specular levels, then the irradiance
    const params = device.createBuffer({ label: `${label} prefilter parameters`, size: 256 * (levels + 1), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const values = new Float32Array(64 * (levels + 1));
    for (let k = 0; k < levels; k++) {
        values[64 * k] = levels === 1 ? 0 : k / (levels - 1);
        values[64 * k + 1] = t.samples;
        values[64 * k + 2] = k;
    }
    const source_level = Math.min(Math.max(0, Math.round(Math.log2(t.radiance.width / IRRADIANCE_SOURCE_WIDTH))), t.radiance.mipLevelCount - 1);
    values[64 * levels + 2] = source_level;
    device.queue.writeBuffer(params, 0, values);
    const radiance = t.radiance.createView({ label: `${label} radiance view` });
    const run = (name: string, pipeline: GPUComputePipeline, output: GPUTexture, mip: number, slice: number): void => {
        const group = device.createBindGroup({
            label: `${label} ${name} bind group`,
            layout: p.layout,
            entries: [
                { binding: 0, resource: radiance },
                { binding: 1, resource: p.sampler },
                { binding: 2, resource: output.createView({ label: `${label} ${name} output`, baseMipLevel: mip, mipLevelCount: 1 }) },
                { binding: 3, resource: { buffer: params, offset: 256 * slice, size: 16 } },
            ],
        });
        encoder.pushDebugGroup(`${label}: ${name}`);
        const pass = encoder.beginComputePass({ label: `${label} ${name}` });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups(Math.ceil(Math.max(1, output.width >> mip) / 8), Math.ceil(Math.max(1, output.height >> mip) / 8));
        pass.end();
        encoder.popDebugGroup();
    };
    for (let k = 0; k < levels; k++) run(`specular level ${k}`, p.prefilter_specular, t.specular, k, k);
    run("irradiance", p.irradiance, t.irradiance, 0, levels);
    return [params];
}
