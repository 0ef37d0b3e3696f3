// A FAKE GPUDevice (no GPU), for device-independent tests only: the allocation test of the renderer's own
// CPU frame. Never use it where a test is about what the GPU does; those run on Dawn (test/harness).
//
// Objects a frame asks for again and again (the command encoder, pass encoders, the command buffer) are made
// once and handed out every time, so nothing the fake does allocates per frame: whatever a steady frame
// allocates is the renderer's own. Resources (textures, buffers, pipelines, bind groups) are made when asked,
// which in a steady frame is never.

/** What the fake saw; `render_passes` and `debug_depth` let a test check that its frame really ran. */
export interface FakeDeviceStats {
    textures: number;
    buffers: number;
    bind_groups: number;
    render_passes: number;
    compute_passes: number;
    submits: number;
    debug_depth: number;
    /** Render bundle encoders made (a steady frame replays its bundles: none). */
    bundle_encoders: number;
}

/** WebGPU's flag constants, for a process where Dawn's globals are not installed (same values as Dawn's). */
export function ensure_webgpu_constants(): void {
    const g = globalThis as Record<string, unknown>;
    g.GPUTextureUsage ??= { COPY_SRC: 0x01, COPY_DST: 0x02, TEXTURE_BINDING: 0x04, STORAGE_BINDING: 0x08, RENDER_ATTACHMENT: 0x10 };
    g.GPUBufferUsage ??= {
        MAP_READ: 0x0001,
        MAP_WRITE: 0x0002,
        COPY_SRC: 0x0004,
        COPY_DST: 0x0008,
        INDEX: 0x0010,
        VERTEX: 0x0020,
        UNIFORM: 0x0040,
        STORAGE: 0x0080,
        INDIRECT: 0x0100,
        QUERY_RESOLVE: 0x0200,
    };
    g.GPUShaderStage ??= { VERTEX: 0x1, FRAGMENT: 0x2, COMPUTE: 0x4 };
    g.GPUMapMode ??= { READ: 0x1, WRITE: 0x2 };
    g.GPUColorWrite ??= { RED: 0x1, GREEN: 0x2, BLUE: 0x4, ALPHA: 0x8, ALL: 0xf };
}

/** WebGPU's default limits. */
const LIMITS = {
    maxTextureDimension1D: 8192,
    maxTextureDimension2D: 8192,
    maxTextureDimension3D: 2048,
    maxTextureArrayLayers: 256,
    maxBindGroups: 4,
    maxBindingsPerBindGroup: 1000,
    maxDynamicUniformBuffersPerPipelineLayout: 8,
    maxDynamicStorageBuffersPerPipelineLayout: 4,
    maxSampledTexturesPerShaderStage: 16,
    maxSamplersPerShaderStage: 16,
    maxStorageBuffersPerShaderStage: 8,
    maxStorageTexturesPerShaderStage: 4,
    maxUniformBuffersPerShaderStage: 12,
    maxUniformBufferBindingSize: 65536,
    maxStorageBufferBindingSize: 134217728,
    minUniformBufferOffsetAlignment: 256,
    minStorageBufferOffsetAlignment: 256,
    maxVertexBuffers: 8,
    maxBufferSize: 268435456,
    maxVertexAttributes: 16,
    maxVertexBufferArrayStride: 2048,
    maxInterStageShaderVariables: 16,
    maxColorAttachments: 8,
    maxColorAttachmentBytesPerSample: 32,
    maxComputeWorkgroupStorageSize: 16384,
    maxComputeInvocationsPerWorkgroup: 256,
    maxComputeWorkgroupSizeX: 256,
    maxComputeWorkgroupSizeY: 256,
    maxComputeWorkgroupSizeZ: 64,
    maxComputeWorkgroupsPerDimension: 65535,
};

const noop = (): void => {};

export interface FakeDeviceOptions {
    /** Features the device reports (nothing is done with them). */
    readonly features?: readonly string[];
    /**
     * `mapAsync` returns one reused thenable that maps at once, calling its callback synchronously, and
     * `getMappedRange` one reused ArrayBuffer per buffer: a read-back path then allocates only what the code
     * under test does.
     */
    readonly sync_map?: boolean;
}

/** A FAKE GPUDevice and what it saw. */
export function fake_gpu_device(options: FakeDeviceOptions = {}): { device: GPUDevice; stats: FakeDeviceStats } {
    ensure_webgpu_constants();
    const sync_map = options.sync_map === true;
    const stats: FakeDeviceStats = { textures: 0, buffers: 0, bind_groups: 0, render_passes: 0, compute_passes: 0, submits: 0, debug_depth: 0, bundle_encoders: 0 };
    const stub = (label: string | undefined) => ({ label: label ?? "", destroy: noop });
    const debug = {
        pushDebugGroup(_label: string): void {
            stats.debug_depth++;
        },
        popDebugGroup(): void {
            stats.debug_depth--;
        },
        insertDebugMarker: noop,
    };
    const render_pass = {
        ...debug,
        label: "",
        setPipeline: noop,
        setBindGroup: noop,
        setVertexBuffer: noop,
        setIndexBuffer: noop,
        draw: noop,
        drawIndexed: noop,
        drawIndirect: noop,
        drawIndexedIndirect: noop,
        setViewport: noop,
        setScissorRect: noop,
        setBlendConstant: noop,
        setStencilReference: noop,
        executeBundles: noop,
        beginOcclusionQuery: noop,
        endOcclusionQuery: noop,
        end: noop,
    };
    const compute_pass = {
        ...debug,
        label: "",
        setPipeline: noop,
        setBindGroup: noop,
        dispatchWorkgroups: noop,
        dispatchWorkgroupsIndirect: noop,
        end: noop,
    };
    const command_buffer = stub("frame");
    const encoder = {
        ...debug,
        label: "",
        beginRenderPass(descriptor: GPURenderPassDescriptor) {
            if ((descriptor.colorAttachments as ArrayLike<unknown>).length === 0 && descriptor.depthStencilAttachment === undefined) {
                throw new Error(`FAKE device: render pass '${descriptor.label}' has no attachments`);
            }
            stats.render_passes++;
            return render_pass;
        },
        beginComputePass(_descriptor?: GPUComputePassDescriptor) {
            stats.compute_passes++;
            return compute_pass;
        },
        copyBufferToBuffer: noop,
        copyBufferToTexture: noop,
        copyTextureToBuffer: noop,
        copyTextureToTexture: noop,
        clearBuffer: noop,
        resolveQuerySet: noop,
        writeTimestamp: noop,
        finish: (_descriptor?: GPUCommandBufferDescriptor) => command_buffer,
    };
    const render_bundle = stub("render bundle");
    const bundle_encoder = {
        ...debug,
        label: "",
        setPipeline: noop,
        setBindGroup: noop,
        setVertexBuffer: noop,
        setIndexBuffer: noop,
        draw: noop,
        drawIndexed: noop,
        drawIndirect: noop,
        drawIndexedIndirect: noop,
        finish: (_descriptor?: GPURenderBundleDescriptor) => render_bundle,
    };
    const pipeline = (label: string | undefined) => {
        const layout = stub(`${label} layout`);
        return { label: label ?? "", getBindGroupLayout: (_index: number) => layout };
    };
    const device = {
        label: "FAKE device",
        features: new Set<string>(options.features ?? []),
        limits: LIMITS,
        lost: new Promise<never>(noop),
        queue: {
            label: "FAKE queue",
            writeBuffer: noop,
            writeTexture: noop,
            copyExternalImageToTexture: noop,
            submit(_buffers: Iterable<GPUCommandBuffer>): void {
                stats.submits++;
            },
            onSubmittedWorkDone: () => Promise.resolve(),
        },
        createTexture(d: GPUTextureDescriptor) {
            stats.textures++;
            const size = d.size as GPUExtent3DDict;
            const view = stub(`${d.label} view`);
            return {
                label: d.label ?? "",
                width: size.width,
                height: size.height ?? 1,
                depthOrArrayLayers: size.depthOrArrayLayers ?? 1,
                mipLevelCount: d.mipLevelCount ?? 1,
                sampleCount: d.sampleCount ?? 1,
                dimension: d.dimension ?? "2d",
                format: d.format,
                usage: d.usage,
                createView: (_d?: GPUTextureViewDescriptor) => view,
                destroy: noop,
            };
        },
        createBuffer(d: GPUBufferDescriptor) {
            stats.buffers++;
            let mapped: ArrayBuffer | null = d.mappedAtCreation === true ? new ArrayBuffer(d.size) : null;
            const store = sync_map ? new ArrayBuffer(d.size) : null;
            const thenable = {
                then(resolve: () => void): void {
                    mapped = store;
                    resolve();
                },
            };
            return {
                label: d.label ?? "",
                size: d.size,
                usage: d.usage,
                get mapState() {
                    return mapped !== null ? "mapped" : "unmapped";
                },
                getMappedRange: () => mapped ?? (mapped = new ArrayBuffer(d.size)),
                mapAsync: () => (sync_map ? thenable : Promise.resolve()),
                unmap: () => {
                    mapped = null;
                },
                destroy: noop,
            };
        },
        createBindGroup(d: GPUBindGroupDescriptor) {
            stats.bind_groups++;
            return stub(d.label);
        },
        createShaderModule: (d: GPUShaderModuleDescriptor) => ({ ...stub(d.label), getCompilationInfo: () => Promise.resolve({ messages: [] }) }),
        createBindGroupLayout: (d: GPUBindGroupLayoutDescriptor) => stub(d.label),
        createPipelineLayout: (d: GPUPipelineLayoutDescriptor) => stub(d.label),
        createRenderPipeline: (d: GPURenderPipelineDescriptor) => pipeline(d.label),
        createComputePipeline: (d: GPUComputePipelineDescriptor) => pipeline(d.label),
        createRenderPipelineAsync: (d: GPURenderPipelineDescriptor) => Promise.resolve(pipeline(d.label)),
        createComputePipelineAsync: (d: GPUComputePipelineDescriptor) => Promise.resolve(pipeline(d.label)),
        createSampler: (d?: GPUSamplerDescriptor) => stub(d?.label),
        createQuerySet: (d: GPUQuerySetDescriptor) => stub(d.label),
        createCommandEncoder: (_d?: GPUCommandEncoderDescriptor) => encoder,
        createRenderBundleEncoder(_d: GPURenderBundleEncoderDescriptor) {
            stats.bundle_encoders++;
            return bundle_encoder;
        },
        pushErrorScope: noop,
        popErrorScope: () => Promise.resolve(null),
        addEventListener: noop,
        removeEventListener: noop,
        destroy: noop,
    };
    return { device: device as unknown as GPUDevice, stats };
}
