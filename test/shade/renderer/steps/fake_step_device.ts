// A FAKE GPUDevice (no GPU) with just what a step's record and execute touch, for the device-independent
// tests of UpscaleStep (reset logic, GPU objects per device, allocation). Never for what the GPU computes.
// Objects a frame asks for again and again (the encoder, the pass encoder) are made once, so the fake itself
// allocates nothing per frame; resources are made when asked and counted.

export interface FakeStepDeviceStats {
    textures: number;
    buffers: number;
    bind_groups: number;
    pipelines: number;
    render_passes: number;
    debug_depth: number;
}

/** WebGPU's flag constants where Dawn's globals are not installed (same values). */
function ensure_constants(): void {
    const g = globalThis as Record<string, unknown>;
    g.GPUTextureUsage ??= { COPY_SRC: 0x01, COPY_DST: 0x02, TEXTURE_BINDING: 0x04, STORAGE_BINDING: 0x08, RENDER_ATTACHMENT: 0x10 };
    g.GPUBufferUsage ??= { MAP_READ: 0x1, MAP_WRITE: 0x2, COPY_SRC: 0x4, COPY_DST: 0x8, INDEX: 0x10, VERTEX: 0x20, UNIFORM: 0x40, STORAGE: 0x80 };
    g.GPUShaderStage ??= { VERTEX: 0x1, FRAGMENT: 0x2, COMPUTE: 0x4 };
}

const noop = (): void => {};

export function fake_step_device(): { device: GPUDevice; stats: FakeStepDeviceStats } {
    ensure_constants();
    const stats: FakeStepDeviceStats = { textures: 0, buffers: 0, bind_groups: 0, pipelines: 0, render_passes: 0, debug_depth: 0 };
    const stub = (label: string | undefined) => ({ label: label ?? "", destroy: noop });
    const push = (_label: string): void => {
        stats.debug_depth++;
    };
    const pop = (): void => {
        stats.debug_depth--;
    };
    const render_pass = { label: "", setPipeline: noop, setBindGroup: noop, draw: noop, end: noop, pushDebugGroup: push, popDebugGroup: pop };
    const command_buffer = stub("frame");
    const encoder = {
        label: "",
        pushDebugGroup: push,
        popDebugGroup: pop,
        beginRenderPass(descriptor: GPURenderPassDescriptor) {
            if ((descriptor.colorAttachments as ArrayLike<unknown>).length === 0 && descriptor.depthStencilAttachment === undefined) {
                throw new Error(`FAKE device: render pass '${descriptor.label}' has no attachments`);
            }
            stats.render_passes++;
            return render_pass;
        },
        finish: () => command_buffer,
    };
    const device = {
        label: "FAKE step device",
        queue: { label: "FAKE queue", writeBuffer: noop, submit: noop },
        createTexture(d: GPUTextureDescriptor) {
            stats.textures++;
            const size = d.size as GPUExtent3DDict;
            const view = stub(`${d.label} view`);
            return {
                label: d.label ?? "",
                width: size.width,
                height: size.height ?? 1,
                format: d.format,
                usage: d.usage,
                createView: () => view,
                destroy: noop,
            };
        },
        createBuffer(d: GPUBufferDescriptor) {
            stats.buffers++;
            return { label: d.label ?? "", size: d.size, usage: d.usage, destroy: noop };
        },
        createBindGroup(d: GPUBindGroupDescriptor) {
            stats.bind_groups++;
            return stub(d.label);
        },
        createBindGroupLayout: (d: GPUBindGroupLayoutDescriptor) => stub(d.label),
        createPipelineLayout: (d: GPUPipelineLayoutDescriptor) => stub(d.label),
        createShaderModule: (d: GPUShaderModuleDescriptor) => ({ ...stub(d.label), getCompilationInfo: () => Promise.resolve({ messages: [] }) }),
        createRenderPipeline(d: GPURenderPipelineDescriptor) {
            stats.pipelines++;
            return stub(d.label);
        },
        createSampler: (d?: GPUSamplerDescriptor) => stub(d?.label),
        createCommandEncoder: () => encoder,
    };
    return { device: device as unknown as GPUDevice, stats };
}
