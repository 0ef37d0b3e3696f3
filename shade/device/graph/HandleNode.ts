/** One version of a resource: who wrote it and how many passes consume it. Pooled by the graph. */
export class HandleNode {
    resource = 0;
    version = 0;
    /** Index of the pass that produced this version; -1 for a fresh or imported resource. */
    writer = -1;
    /** Passes that declared they consume this version (explicit reads and loads). */
    consumers = 0;
    /** Consumers that survived culling. */
    live_consumers = 0;
    /** Derived by the writer's declaration: keep the previous contents rather than clear. */
    load = false;

    // Attachment descriptors, built once per node and patched per frame (a render pass copies them).
    readonly color_attachment: GPURenderPassColorAttachment = {
        view: null as unknown as GPUTextureView,
        loadOp: "clear",
        storeOp: "store",
        clearValue: { r: 0, g: 0, b: 0, a: 0 },
    };
    readonly depth_attachment: GPURenderPassDepthStencilAttachment = {
        view: null as unknown as GPUTextureView,
        depthLoadOp: "clear",
        depthStoreOp: "store",
        depthClearValue: 1,
    };
    readonly depth_read_only_attachment: GPURenderPassDepthStencilAttachment = {
        view: null as unknown as GPUTextureView,
        depthReadOnly: true,
    };

    reset(resource: number, version: number, writer: number): void {
        this.resource = resource;
        this.version = version;
        this.writer = writer;
        this.consumers = 0;
        this.live_consumers = 0;
        this.load = false;
    }
}
