import { RENDER_ATTACHMENT_USAGE } from "./texture_formats.js";
import { INDEX_MASK, type FrameGraphHandle } from "./FrameGraphHandle.js";
import type { FrameGraphResources } from "./FrameGraphResources.js";
import type { HandleNode } from "./HandleNode.js";
import type { PassNode } from "./PassNode.js";
import type { ResourceNode } from "./ResourceNode.js";
import type { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

/** What the accessor needs of its graph. Implemented inside FrameGraph, over its private nodes. */
export interface PassResourcesHost<T, V> {
    /** The pass whose execute is running, or null. */
    running_pass(): PassNode | null;
    /** Whether `handle` is a handle of this frame (no message built). */
    live(handle: FrameGraphHandle): boolean;
    /** The node of `handle`; throws a message naming `what` when it is not a handle of this frame. */
    checked_node(handle: FrameGraphHandle, what: string): HandleNode;
    handle_at(index: number): HandleNode;
    resource(index: number): ResourceNode<T, V>;
    store_op(node: HandleNode): GPUStoreOp;
}

const TRANSPARENT: GPUColorDict = { r: 0, g: 0, b: 0, a: 0 };

/**
 * The `resources` every pass's execute is handed: resolves the handles the running pass declared to textures,
 * views and attachments with the graph's derived load/store ops, and names pass, resource and version for
 * anything else. One per graph, reused by every pass; it must not be kept past execute.
 */
export class PassResources<T, V> implements FrameGraphResources {
    readonly #host: PassResourcesHost<T, V>;

    constructor(host: PassResourcesHost<T, V>) {
        this.#host = host;
    }

    texture(handle: FrameGraphHandle): GPUTexture {
        const resource = this.#host.resource(this.#touched(handle, "texture").resource);
        return (resource.imported !== null ? resource.imported : resource.pooled!.texture) as unknown as GPUTexture;
    }

    view(handle: FrameGraphHandle): GPUTextureView {
        return this.#view_of(this.#touched(handle, "view"));
    }

    descriptor(handle: FrameGraphHandle): TextureResourceDescriptor {
        return this.#host.resource(this.#touched(handle, "descriptor").resource).descriptor;
    }

    color_attachment(handle: FrameGraphHandle, clear_value?: GPUColorDict): GPURenderPassColorAttachment {
        const node = this.#touched(handle, "color_attachment");
        this.#expect_attachment(node, "color_attachment");
        const a = node.color_attachment;
        a.view = this.#view_of(node);
        a.loadOp = node.load ? "load" : "clear";
        a.storeOp = this.#host.store_op(node);
        a.clearValue = clear_value ?? TRANSPARENT;
        return a;
    }

    depth_attachment(handle: FrameGraphHandle, clear_depth?: number): GPURenderPassDepthStencilAttachment {
        const node = this.#touched(handle, "depth_attachment");
        this.#expect_attachment(node, "depth_attachment");
        const pass = this.#host.running_pass()!;
        // formats with a stencil aspect need its ops (or its read-only flag) stated too
        const stencil = has_stencil(this.#host.resource(node.resource).descriptor.format);
        if (!pass.writes.includes(handle)) {
            const a = node.depth_read_only_attachment;
            a.view = this.#view_of(node);
            a.stencilReadOnly = stencil ? true : undefined;
            return a;
        }
        const a = node.depth_attachment;
        a.view = this.#view_of(node);
        a.depthLoadOp = node.load ? "load" : "clear";
        a.depthStoreOp = this.#host.store_op(node);
        a.depthClearValue = clear_depth ?? 1;
        a.stencilLoadOp = stencil ? a.depthLoadOp : undefined;
        a.stencilStoreOp = stencil ? a.depthStoreOp : undefined;
        a.stencilClearValue = stencil ? 0 : undefined;
        return a;
    }

    // the graph knows the pass uses it as an attachment: say so here rather than in a GPU validation error
    #expect_attachment(node: HandleNode, verb: string): void {
        const resource = this.#host.resource(node.resource);
        if ((resource.descriptor.usage & RENDER_ATTACHMENT_USAGE) !== 0) return;
        throw new Error(
            `Frame graph: pass '${this.#host.running_pass()!.name}' uses '${resource.name}' as an attachment (resources.${verb}), ` +
                `but its usage lacks GPUTextureUsage.RENDER_ATTACHMENT; add it to the descriptor's usage`,
        );
    }

    #view_of(node: HandleNode): GPUTextureView {
        const resource = this.#host.resource(node.resource);
        return (resource.imported !== null ? resource.imported_view! : resource.pooled!.view) as unknown as GPUTextureView;
    }

    // the node of a handle the running pass declared; anything else throws naming pass, resource and version
    #touched(handle: FrameGraphHandle, verb: string): HandleNode {
        const host = this.#host;
        const pass = host.running_pass();
        if (pass === null) throw new Error(`Frame graph: resources.${verb} called outside a pass's execute`);
        // the message is built only for a bad handle: a template literal here would be garbage per call
        const node = host.live(handle) ? host.handle_at(handle & INDEX_MASK) : host.checked_node(handle, `resources.${verb} in pass '${pass.name}'`);
        if (pass.reads.includes(handle) || pass.writes.includes(handle)) return node;
        const resource = host.resource(node.resource);
        let newer = "";
        for (let k = 0; k < pass.writes.length; k++) {
            const w = host.handle_at(pass.writes.items[k] & INDEX_MASK);
            if (w.resource === node.resource) newer = `; it was superseded by version ${w.version}, which this pass wrote`;
        }
        throw new Error(
            `Frame graph: pass '${pass.name}' touched '${resource.name}' version ${node.version} without declaring it` +
                (newer !== "" ? newer : "; declare it on the pass builder with read() or write()"),
        );
    }
}

function has_stencil(format: GPUTextureFormat): boolean {
    return format === "depth24plus-stencil8" || format === "depth32float-stencil8" || format === "stencil8";
}
