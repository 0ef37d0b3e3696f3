import { EPOCH_LIMIT, EPOCH_STRIDE, INDEX_MASK, type FrameGraphHandle } from "./FrameGraphHandle.js";
import type { WriteMode } from "./FramePassBuilder.js";
import { HandleNode } from "./HandleNode.js";
import type { IndexList } from "./IndexList.js";
import type { PassNode } from "./PassNode.js";
import { ResourceNode } from "./ResourceNode.js";
import type { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

/**
 * @internal The nodes of one `FrameGraph` frame - passes, resources and resource versions (what a handle names) -
 * in pools reused frame to frame; the rules by which a pass's reads and writes version its resources; and the
 * checks that turn a handle back into its node.
 */
export class FrameNodes<T, V> {
    readonly passes: PassNode[] = [];
    pass_count = 0;
    readonly resources: ResourceNode<T, V>[] = [];
    resource_count = 0;
    readonly handles: HandleNode[] = [];
    handle_count = 0;
    /** This frame's epoch times EPOCH_STRIDE: every handle of the frame is base + node index. */
    epoch_base = 0;

    /** Forgets this frame's nodes and moves to the next epoch, so this frame's handles fail from now on. */
    reset(): void {
        this.pass_count = 0;
        this.resource_count = 0;
        this.handle_count = 0;
        this.epoch_base = this.epoch_base + EPOCH_STRIDE >= EPOCH_LIMIT * EPOCH_STRIDE ? 0 : this.epoch_base + EPOCH_STRIDE;
    }

    new_resource(name: string, descriptor: TextureResourceDescriptor, imported: T | null, view: V | null): number {
        const index = this.resource_count++;
        let resource = this.resources[index];
        if (resource === undefined) {
            resource = new ResourceNode<T, V>();
            this.resources.push(resource);
        }
        resource.reset(name, descriptor, imported, view);
        return index;
    }

    new_handle(resource: number, version: number, writer: number): FrameGraphHandle {
        const index = this.handle_count++;
        if (index > INDEX_MASK) throw new RangeError(`FrameGraph: more than ${INDEX_MASK + 1} resource versions in one frame (is a pass recorded in a loop that never ends?)`);
        let node = this.handles[index];
        if (node === undefined) {
            node = new HandleNode();
            this.handles.push(node);
        }
        node.reset(resource, version, writer);
        const r = this.resources[resource];
        r.version = version;
        r.latest = index;
        return this.epoch_base + index;
    }

    /** True when `handle` is a handle of this frame (what `node` checks, without a message to build). */
    live(handle: FrameGraphHandle): boolean {
        return typeof handle === "number" && handle >= this.epoch_base && handle < this.epoch_base + this.handle_count && Number.isInteger(handle);
    }

    /** The node of `handle`; throws a message naming `FrameGraph.<what>` when it is not a handle of this frame. */
    node(handle: FrameGraphHandle, what: string): HandleNode {
        if (typeof handle !== "number" || handle < 0 || !Number.isSafeInteger(handle)) {
            throw new TypeError(`FrameGraph.${what}: ${String(handle)} is not a frame graph handle (an unset record field is -1)`);
        }
        const index = handle & INDEX_MASK;
        if (handle - index !== this.epoch_base || index >= this.handle_count) {
            throw new Error(`FrameGraph.${what}: handle ${handle} belongs to an earlier frame; handles live for one frame`);
        }
        return this.handles[index];
    }

    /** The resource name and version a handle stands for, for diagnostics. */
    handle_name(handle: FrameGraphHandle): string {
        const node = this.node(handle, "handle_name");
        return `'${this.resources[node.resource].name}' version ${node.version}`;
    }

    /** A pass's read: the version it consumes, which must be the newest and have content. */
    read(pass: number, handle: FrameGraphHandle): FrameGraphHandle {
        const node = this.#current(pass, handle, "reads");
        const p = this.passes[pass];
        if (node.writer === pass) {
            throw new Error(
                `Frame graph: pass '${p.name}' reads ${this.handle_name(handle)}, which it writes itself; ` +
                    `a texture cannot be an attachment and a source in one pass`,
            );
        }
        if (node.writer === -1 && this.resources[node.resource].imported === null) {
            throw new Error(
                `Frame graph: pass '${p.name}' reads '${this.resources[node.resource].name}' before any pass wrote it`,
            );
        }
        if (!includes(p.reads, handle)) {
            p.reads.push(handle);
            node.consumers++;
        }
        return handle;
    }

    /** A pass's write: a new version of the resource, which consumes the old one when `mode` loads it. */
    write(pass: number, handle: FrameGraphHandle, mode: WriteMode): FrameGraphHandle {
        const node = this.#current(pass, handle, "writes");
        const p = this.passes[pass];
        const resource = this.resources[node.resource];
        if (node.writer === pass) {
            throw new Error(`Frame graph: pass '${p.name}' writes '${resource.name}' twice; write once and use the returned handle`);
        }
        if (includes(p.reads, handle)) {
            throw new Error(
                `Frame graph: pass '${p.name}' writes ${this.handle_name(handle)}, which it also reads; ` +
                    `a texture cannot be an attachment and a source in one pass`,
            );
        }
        const has_content = node.writer !== -1 || resource.imported !== null;
        const load = mode === "load" ? has_content : mode === "auto" ? node.writer !== -1 : false;
        if (load) {
            p.loads.push(handle);
            node.consumers++;
        }
        if (resource.imported !== null) p.side_effect = true;
        const next = this.new_handle(node.resource, resource.version + 1, pass);
        this.handles[next & INDEX_MASK].load = load;
        p.writes.push(next);
        return next;
    }

    /** The store op of a written version: discarded when nothing later consumes it and the graph owns the texture. */
    store_op(node: HandleNode): GPUStoreOp {
        return node.live_consumers > 0 || this.resources[node.resource].imported !== null ? "store" : "discard";
    }

    /**
     * After the counts were cut back to a mark: derives again what the remaining passes did to the remaining
     * versions and resources (consumer counts, each resource's latest version).
     */
    recount(): void {
        // rare (a failure), so recomputing beats journaling every declaration
        const handles = this.handles;
        for (let h = 0; h < this.handle_count; h++) handles[h].consumers = 0;
        for (let i = 0; i < this.pass_count; i++) {
            const p = this.passes[i];
            for (let k = 0; k < p.reads.length; k++) handles[p.reads.items[k] & INDEX_MASK].consumers++;
            for (let k = 0; k < p.loads.length; k++) handles[p.loads.items[k] & INDEX_MASK].consumers++;
        }
        for (let r = 0; r < this.resource_count; r++) this.resources[r].latest = -1;
        for (let h = 0; h < this.handle_count; h++) {
            const resource = this.resources[handles[h].resource];
            resource.latest = h;
            resource.version = handles[h].version;
        }
    }

    #current(pass: number, handle: FrameGraphHandle, verb: string): HandleNode {
        // the message is built only when the handle is bad: a template literal here would be garbage per call
        const node = this.live(handle) ? this.handles[handle & INDEX_MASK] : this.node(handle, `${this.passes[pass].name} ${verb}`);
        const resource = this.resources[node.resource];
        if (resource.latest !== (handle & INDEX_MASK)) {
            const by = this.handles[resource.latest].writer;
            throw new Error(
                `Frame graph: pass '${this.passes[pass].name}' ${verb} '${resource.name}' version ${node.version}, ` +
                    `which was superseded by version ${resource.version}` +
                    (by !== -1 ? ` (written by pass '${this.passes[by].name}')` : "") +
                    `; use the handle that write returned`,
            );
        }
        return node;
    }
}

function includes(list: IndexList, value: number): boolean {
    return list.includes(value);
}
