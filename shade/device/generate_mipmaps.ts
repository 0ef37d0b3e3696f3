const SHADER = /* wgsl */ `
struct Varyings { @builtin(position) position: vec4f, @location(0) uv: vec2f };

@vertex fn vs(@builtin(vertex_index) i: u32) -> Varyings {
    // one triangle covering the target; uv (0,0) at the top left, as texture coordinates run
    let xy = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    var out: Varyings;
    out.position = vec4f(xy * 2.0 - 1.0, 0.0, 1.0);
    out.uv = vec2f(xy.x, 1.0 - xy.y);
    return out;
}

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var linear: sampler;

@fragment fn fs(in: Varyings) -> @location(0) vec4f {
    // a bilinear tap at the centre of each 2x2 block is the box filter of the four texels below it
    return textureSampleLevel(source, linear, in.uv, 0.0);
}
`;

interface MipPipelines {
    readonly module: GPUShaderModule;
    readonly sampler: GPUSampler;
    readonly by_format: Map<GPUTextureFormat, GPURenderPipeline>;
}

// per device, so a lost or replaced device takes its pipelines along
const caches = new WeakMap<GPUDevice, MipPipelines>();

function pipelines_of(device: GPUDevice): MipPipelines {
    let cache = caches.get(device);
    if (cache === undefined) {
        cache = {
            module: device.createShaderModule({ label: "generate_mipmaps shader", code: SHADER }),
            sampler: device.createSampler({ label: "generate_mipmaps sampler", minFilter: "linear", magFilter: "linear" }),
            by_format: new Map(),
        };
        caches.set(device, cache);
    }
    return cache;
}

function pipeline_for(device: GPUDevice, cache: MipPipelines, format: GPUTextureFormat): GPURenderPipeline {
    let pipeline = cache.by_format.get(format);
    if (pipeline === undefined) {
        pipeline = device.createRenderPipeline({
            label: `generate_mipmaps pipeline (${format})`,
            layout: "auto",
            vertex: { module: cache.module, entryPoint: "vs" },
            fragment: { module: cache.module, entryPoint: "fs", targets: [{ format }] },
            primitive: { topology: "triangle-list" },
        });
        cache.by_format.set(format, pipeline);
    }
    return pipeline;
}

/**
 * Fills mip levels 1.. of every layer of a 2D colour texture from level 0 on the GPU: each level is a render pass
 * that box-filters the level above it. The texture needs TEXTURE_BINDING and RENDER_ATTACHMENT usage and a
 * filterable, renderable format (rgba8unorm and rgba8unorm-srgb: an sRGB texture is filtered in linear light, as
 * its views read and write linear values). Records into `encoder` when given, else submits its own.
 */
export function generate_mipmaps(device: GPUDevice, texture: GPUTexture, encoder?: GPUCommandEncoder): void {
    if (texture.mipLevelCount <= 1) return;
    if (texture.dimension !== "2d") throw new RangeError(`generate_mipmaps: texture '${texture.label}' is ${texture.dimension}, only 2d is supported`);
    const needed = GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.RENDER_ATTACHMENT;
    if ((texture.usage & needed) !== needed) {
        throw new RangeError(`generate_mipmaps: texture '${texture.label}' needs TEXTURE_BINDING and RENDER_ATTACHMENT usage to make its mips`);
    }
    const cache = pipelines_of(device);
    const pipeline = pipeline_for(device, cache, texture.format);
    const own = encoder === undefined;
    const commands = encoder ?? device.createCommandEncoder({ label: `generate_mipmaps '${texture.label}'` });
    for (let layer = 0; layer < texture.depthOrArrayLayers; layer++) {
        for (let level = 1; level < texture.mipLevelCount; level++) {
            const view = (mip: number, label: string): GPUTextureView =>
                texture.createView({ label: `${texture.label} ${label} (mip ${mip}, layer ${layer})`, dimension: "2d", baseMipLevel: mip, mipLevelCount: 1, baseArrayLayer: layer, arrayLayerCount: 1 });
            const bind_group = device.createBindGroup({
                label: `generate_mipmaps bind group '${texture.label}' mip ${level}`,
                layout: pipeline.getBindGroupLayout(0),
                entries: [
                    { binding: 0, resource: view(level - 1, "mip source") },
                    { binding: 1, resource: cache.sampler },
                ],
            });
            const pass = commands.beginRenderPass({
                label: `generate_mipmaps '${texture.label}' mip ${level}`,
                colorAttachments: [{ view: view(level, "mip target"), loadOp: "clear", storeOp: "store", clearValue: [0, 0, 0, 0] }],
            });
            pass.setPipeline(pipeline);
            pass.setBindGroup(0, bind_group);
            pass.draw(3);
            pass.end();
        }
    }
    if (own) device.queue.submit([commands.finish()]);
}
