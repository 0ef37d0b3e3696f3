import { EPOCH_LIMIT, EPOCH_STRIDE, INDEX_MASK, type FrameGraphHandle } from "./FrameGraphHandle.js";
import { FramePassBuilder, type FramePassDeclarations, type WriteMode } from "./FramePassBuilder.js";
import type { FrameExecutionTarget } from "./FrameExecution.js";
import type { GPUPassTimer } from "./GPUPassTimer.js";
import { PassExecution } from "./PassExecution.js";
import type { FrameGraphResources } from "./FrameGraphResources.js";
import type { FrameGraphMark } from "./FrameGraphMark.js";
import { FramePassError } from "./FramePassError.js";
import { HandleNode } from "./HandleNode.js";
import { IndexList } from "./IndexList.js";
import { PassNode, type FramePassExecute } from "./PassNode.js";
import { PassResources } from "./PassResources.js";
import { ResourceNode } from "./ResourceNode.js";
import { schedule_passes } from "./schedule_passes.js";
import type { TextureAllocator } from "./TextureAllocator.js";
import { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";
import { TransientTexturePool } from "./TransientTexturePool.js";
import { frame_graph_to_dot } from "./frame_graph_to_dot.js";

const BUILDER_RING = __SHADE_DEBUG__ ? 4 : 1;

const enum GraphState {
    Building,
    Compiled,
    Executed,
}

/**
 * Called by `execute` before each pass when given: returns the encoder the pass records on (a new one per pass
 * lets each pass's GPU errors be told apart). `scope` is the pass's outermost scope index, -1 for none.
 */
export type FrameSegmentHook = (pass: string, scope: number) => GPUCommandEncoder;

/** The shape of a texture the graph can import without being told its descriptor. */
interface TextureShape {
    readonly width: number;
    readonly height: number;
    readonly format: GPUTextureFormat;
    readonly usage: number;
}

/**
 * The per-frame graph of passes and textures. Record with `add`, then `compile` (culling, lifetimes,
 * load/store ops), `execute`, and `reset` before the next frame. Nothing allocates once warm: nodes,
 * builders, attachment descriptors and pooled textures are reused frame to frame.
 *
 * `T`/`V` are the texture and view types of the allocator; they are GPU objects except in tests of the
 * graph's own logic.
 */
export class FrameGraph<T = GPUTexture, V = GPUTextureView> implements FramePassDeclarations {
    readonly pool: TransientTexturePool<T, V>;

    readonly #passes: PassNode[] = [];
    #pass_count = 0;
    readonly #resources: ResourceNode<T, V>[] = [];
    #resource_count = 0;
    readonly #handles: HandleNode[] = [];
    #handle_count = 0;
    readonly #scopes: { name: string; parent: number }[] = [];
    #scope_count = 0;
    #current_scope = -1;
    #scope_depth = 0;

    /** This frame's epoch times EPOCH_STRIDE: every handle of the frame is base + node index. */
    #epoch_base = 0;
    #frame_index = 0;
    #state = GraphState.Building;
    #executed_count = 0;

    // scratch, reused by compile and execute
    readonly #cull_stack = new IndexList();
    readonly #open_scopes = new IndexList();
    readonly #scope_path = new IndexList();
    #running_pass = -1;
    readonly #accessor: FrameGraphResources;
    readonly #execution = new PassExecution();

    /**
     * Times every executed pass on the GPU when set (see GPUPassTimer). The caller resolves the frame with
     * `timer.end_frame(encoder)` after `execute` and reads it back after submitting.
     */
    timer: GPUPassTimer | null = null;

    /**
     * Wrap each pass and scope in a GPU debug group (for RenderDoc, PIX, browser captures). On in development
     * builds, off in production ones, where the extra encoder calls are pure overhead; set it to choose.
     */
    debug_groups: boolean = __SHADE_DEBUG__;

    constructor(allocator: TextureAllocator<T, V>) {
        this.pool = new TransientTexturePool(allocator);
        this.#accessor = new PassResources<T, V>({
            running_pass: () => (this.#running_pass === -1 ? null : this.#passes[this.#running_pass]),
            live: (handle) => this.#live_handle(handle),
            checked_node: (handle, what) => this.#handle_node(handle, what),
            handle_at: (index) => this.#handles[index],
            resource: (index) => this.#resources[index],
            store_op: (node) => this.#store_op(node),
        });
    }

    /** Counts frames: incremented by every `reset`. Lets per-frame caches know a new frame began. */
    get frame_index(): number {
        return this.#frame_index;
    }

    /** The name of pass `index` of this frame, for diagnostics. */
    pass_name(index: number): string {
        return this.#passes[index]?.name ?? `#${index}`;
    }

    /** Passes added this frame. */
    get pass_count(): number {
        return this.#pass_count;
    }

    /** Passes that survived culling (valid after `compile`). */
    get executed_pass_count(): number {
        return this.#executed_count;
    }

    /** Index (this frame) of the innermost open scope, -1 when none: how a recorder names its scope. */
    get current_scope(): number {
        return this.#current_scope;
    }

    /** The outermost scope enclosing scope `index` (itself when it is outermost), -1 for -1. */
    root_scope(index: number): number {
        let s = index;
        while (s !== -1 && this.#scopes[s].parent !== -1) s = this.#scopes[s].parent;
        return s;
    }

    /** How many scopes are open now. */
    get scope_depth(): number {
        return this.#scope_depth;
    }

    /**
     * Adds a pass. `execute(data, resources, execution)` runs at `execute` time if the pass survives
     * culling; declare what it touches on the returned builder.
     */
    add<D>(name: string, data: D, execute: FramePassExecute<D>): FramePassBuilder {
        this.#expect_building(name);
        const index = this.#pass_count++;
        let pass = this.#passes[index];
        if (pass === undefined) {
            pass = new PassNode();
            for (let k = 0; k < BUILDER_RING; k++) pass.builders.push(new FramePassBuilder(this, index));
            this.#passes.push(pass);
        }
        pass.reset(name, data, execute as FramePassExecute<unknown>, this.#current_scope);
        // builders of a pass index are used in turn, frame by frame, so a builder kept past its frame is not the
        // one handed out next frame and its stale stamp is caught (development builds: 4 in turn; production: 1)
        const builder = pass.builders[this.#frame_index % BUILDER_RING];
        builder.frame = this.#frame_index;
        pass.builder = builder;
        return builder;
    }

    /**
     * Brings a texture the graph does not own into this frame (the canvas, an extension's history texture).
     * Writing it makes the writer a side effect. The descriptor defaults to the texture's own shape.
     */
    import_texture(name: string, texture: T, descriptor?: TextureResourceDescriptor): FrameGraphHandle {
        this.#expect_building(name);
        let d = descriptor;
        if (d === undefined) {
            const shape = texture as unknown as TextureShape;
            d = TextureResourceDescriptor.of(shape.width, shape.height, shape.format, shape.usage);
        }
        const resource = this.#new_resource(name, d, texture, this.pool.allocator.view(texture, name));
        return this.#new_handle(resource, 0, -1);
    }

    /**
     * A new transient texture, not yet tied to a pass (a pass builder's `create` is the same thing). Its
     * GPU texture exists from the first surviving pass that uses it to the last.
     */
    create(name: string, descriptor: TextureResourceDescriptor): FrameGraphHandle {
        this.#expect_building(name);
        if (!(descriptor instanceof TextureResourceDescriptor)) {
            throw new TypeError(
                `Frame graph: '${name}' is created without a TextureResourceDescriptor; ` +
                    `describe it with TextureResourceDescriptor.from({ resolution, format, usage })`,
            );
        }
        const max = this.pool.allocator.max_texture_dimension;
        if (max !== undefined && (descriptor.width > max || descriptor.height > max)) {
            throw new RangeError(
                `Frame graph: '${name}' is ${descriptor.width}x${descriptor.height}, larger than this device's maxTextureDimension2D (${max})`,
            );
        }
        return this.#new_handle(this.#new_resource(name, descriptor, null, null), 0, -1);
    }

    /** The descriptor (size, format, usage) of the resource behind a handle of this frame. */
    describe(handle: FrameGraphHandle): TextureResourceDescriptor {
        const node = this.#handle_node(handle, "describe");
        return this.#resources[node.resource].descriptor;
    }

    /** The resource name and version a handle stands for, for diagnostics. */
    handle_name(handle: FrameGraphHandle): string {
        const node = this.#handle_node(handle, "handle_name");
        return `'${this.#resources[node.resource].name}' version ${node.version}`;
    }

    /** True when `handle` is the newest version of its resource. */
    is_current(handle: FrameGraphHandle): boolean {
        const node = this.#handle_node(handle, "is_current");
        return this.#resources[node.resource].latest === (handle & INDEX_MASK);
    }

    /** Opens a named group of passes: a cluster in the dump, a debug group on the GPU. */
    push_scope(name: string): void {
        this.#expect_building(name);
        const index = this.#scope_count++;
        let scope = this.#scopes[index];
        if (scope === undefined) {
            scope = { name, parent: this.#current_scope };
            this.#scopes.push(scope);
        } else {
            scope.name = name;
            scope.parent = this.#current_scope;
        }
        this.#current_scope = index;
        this.#scope_depth++;
    }

    pop_scope(): void {
        if (this.#current_scope === -1) {
            throw new Error("FrameGraph.pop_scope: no scope is open (a pop_scope without its push_scope)");
        }
        this.#current_scope = this.#scopes[this.#current_scope].parent;
        this.#scope_depth--;
    }

    /** Closes scopes until `depth` remain open; used to recover from a throwing recorder. */
    pop_scopes_to(depth: number): void {
        while (this.#scope_depth > depth) this.pop_scope();
    }

    /**
     * Notes how far the frame has been recorded, into `mark` (reused by the caller: no garbage). `rollback`
     * later removes everything recorded after it; that is how one failing recorder is dropped from a frame
     * while what the others recorded stays.
     */
    mark(mark: FrameGraphMark): FrameGraphMark {
        mark.passes = this.#pass_count;
        mark.resources = this.#resource_count;
        mark.handles = this.#handle_count;
        mark.scopes = this.#scope_count;
        mark.current_scope = this.#current_scope;
        mark.scope_depth = this.#scope_depth;
        return mark;
    }

    /**
     * Forgets the passes, resources, versions and scopes recorded since `mark` (of this frame), and undoes
     * what they did to earlier ones: consumer counts of the versions they read, the latest version of the
     * resources they wrote. Handles created since the mark are dead (they fail as handles never made).
     */
    rollback(mark: FrameGraphMark): void {
        this.#expect_building("rollback");
        if (mark.passes > this.#pass_count || mark.handles > this.#handle_count) {
            throw new Error("FrameGraph.rollback: the mark is not of this frame (or was rolled back already)");
        }
        this.#pass_count = mark.passes;
        this.#resource_count = mark.resources;
        this.#handle_count = mark.handles;
        this.#scope_count = mark.scopes;
        this.#current_scope = mark.current_scope;
        this.#scope_depth = mark.scope_depth;
        // rare (a failure), so recomputing beats journaling every declaration
        const handles = this.#handles;
        for (let h = 0; h < this.#handle_count; h++) handles[h].consumers = 0;
        for (let i = 0; i < this.#pass_count; i++) {
            const p = this.#passes[i];
            for (let k = 0; k < p.reads.length; k++) handles[p.reads.items[k] & INDEX_MASK].consumers++;
            for (let k = 0; k < p.loads.length; k++) handles[p.loads.items[k] & INDEX_MASK].consumers++;
        }
        for (let r = 0; r < this.#resource_count; r++) this.#resources[r].latest = -1;
        for (let h = 0; h < this.#handle_count; h++) {
            const resource = this.#resources[handles[h].resource];
            resource.latest = h;
            resource.version = handles[h].version;
        }
    }

    // ---- declarations (called by FramePassBuilder) ----

    declare_create(pass: number, name: string, descriptor: TextureResourceDescriptor): FrameGraphHandle {
        this.#expect_pass_building(pass);
        return this.create(name, descriptor);
    }

    declare_read(pass: number, handle: FrameGraphHandle): FrameGraphHandle {
        this.#expect_pass_building(pass);
        const node = this.#checked_current(pass, handle, "reads");
        const p = this.#passes[pass];
        if (node.writer === pass) {
            throw new Error(
                `Frame graph: pass '${p.name}' reads ${this.handle_name(handle)}, which it writes itself; ` +
                    `a texture cannot be an attachment and a source in one pass`,
            );
        }
        if (node.writer === -1 && this.#resources[node.resource].imported === null) {
            throw new Error(
                `Frame graph: pass '${p.name}' reads '${this.#resources[node.resource].name}' before any pass wrote it`,
            );
        }
        if (!includes(p.reads, handle)) {
            p.reads.push(handle);
            node.consumers++;
        }
        return handle;
    }

    declare_write(pass: number, handle: FrameGraphHandle, mode: WriteMode): FrameGraphHandle {
        this.#expect_pass_building(pass);
        const node = this.#checked_current(pass, handle, "writes");
        const p = this.#passes[pass];
        const resource = this.#resources[node.resource];
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
        const next = this.#new_handle(node.resource, resource.version + 1, pass);
        this.#handles[next & INDEX_MASK].load = load;
        p.writes.push(next);
        return next;
    }

    declare_side_effect(pass: number): void {
        this.#expect_pass_building(pass);
        this.#passes[pass].side_effect = true;
    }

    // ---- compile ----

    /**
     * Culls passes whose outputs nothing consumes (transitively; roots are side effects and imported
     * writes), then derives resource lifetimes and store ops. Returns the number of surviving passes.
     */
    compile(): number {
        if (this.#state !== GraphState.Building) {
            throw new Error("FrameGraph.compile: the frame is already compiled; reset() before recording the next one");
        }
        if (this.#scope_depth !== 0) {
            throw new Error(
                `FrameGraph.compile: scope '${this.#scopes[this.#current_scope].name}' is still open (push_scope without pop_scope)`,
            );
        }
        const executed = schedule_passes(
            this.#passes,
            this.#pass_count,
            this.#handles,
            this.#handle_count,
            this.#resources,
            this.#resource_count,
            this.#cull_stack,
        );
        this.#executed_count = executed;
        this.#state = GraphState.Compiled;
        return executed;
    }

    /** True when the named pass was culled (valid after `compile`); for tests and tools. */
    is_culled(pass_name: string): boolean {
        for (let i = 0; i < this.#pass_count; i++) {
            if (this.#passes[i].name === pass_name) return this.#passes[i].culled;
        }
        throw new Error(`FrameGraph.is_culled: no pass named '${pass_name}' this frame`);
    }

    /**
     * How a written handle's attachment is loaded and stored: the first write clears unless it declared a
     * load; a version nothing later consumes, on a texture the graph owns, is discarded.
     */
    attachment_ops(handle: FrameGraphHandle): { load: GPULoadOp; store: GPUStoreOp } {
        const node = this.#handle_node(handle, "attachment_ops");
        return { load: node.load ? "load" : "clear", store: this.#store_op(node) };
    }

    #store_op(node: HandleNode): GPUStoreOp {
        return node.live_consumers > 0 || this.#resources[node.resource].imported !== null ? "store" : "discard";
    }

    // ---- execute ----

    /**
     * Runs the surviving passes in recording order on `execution.encoder`, each inside a debug group named
     * after it and nested in its scopes' groups. Transients are acquired from the pool before their first
     * pass and returned after their last. Compiles first if needed. Returns the number of passes run.
     */
    execute(target: FrameExecutionTarget, segment: FrameSegmentHook | null = null): number {
        if (this.#state === GraphState.Building) this.compile();
        if (this.#state === GraphState.Executed) {
            throw new Error("FrameGraph.execute: this frame already executed; reset() before recording the next one");
        }
        this.#state = GraphState.Executed;
        let encoder = target.encoder;
        const execution = this.#execution;
        execution.graphics = target.graphics;
        execution.encoder = encoder;
        execution.timer = this.timer;
        this.timer?.begin_frame();
        const passes = this.#passes;
        const open = this.#open_scopes;
        open.clear();
        try {
            for (let i = 0; i < this.#pass_count; i++) {
                const p = passes[i];
                if (p.culled) continue;
                if (segment !== null) {
                    // each pass on an encoder of its own: close the debug groups of the last one first
                    this.#enter_scope(encoder, -1);
                    encoder = segment(p.name, this.root_scope(p.scope));
                    execution.encoder = encoder;
                }
                this.#enter_scope(encoder, p.scope);
                for (let k = 0; k < p.acquire.length; k++) {
                    const resource = this.#resources[p.acquire.items[k]];
                    resource.pooled = this.pool.acquire(resource.descriptor, resource.name);
                }
                if (this.debug_groups) encoder.pushDebugGroup(p.name);
                const root = this.timer === null ? -1 : this.root_scope(p.scope);
                execution.enter(p.name, root === -1 ? null : this.#scopes[root].name);
                this.#running_pass = i;
                try {
                    p.execute!(p.data, this.#accessor, execution);
                } catch (error) {
                    const root = this.root_scope(p.scope);
                    throw new FramePassError(p.name, root, root === -1 ? null : this.#scopes[root].name, error);
                }
                this.#running_pass = -1;
                if (this.debug_groups) encoder.popDebugGroup();
                for (let k = 0; k < p.release.length; k++) {
                    const resource = this.#resources[p.release.items[k]];
                    this.pool.release(resource.pooled!);
                }
            }
            this.#enter_scope(encoder, -1);
        } finally {
            this.#running_pass = -1;
        }
        return this.#executed_count;
    }

    // Moves the open debug groups from the previous pass's scope chain to this pass's.
    #enter_scope(encoder: GPUCommandEncoder, scope: number): void {
        if (!this.debug_groups) return;
        const open = this.#open_scopes;
        const path = this.#scope_path;
        path.clear();
        for (let s = scope; s !== -1; s = this.#scopes[s].parent) path.push(s);
        // path is leaf-first; compare against open (root-first)
        let common = 0;
        while (common < open.length && common < path.length && open.items[common] === path.items[path.length - 1 - common]) common++;
        while (open.length > common) {
            open.pop();
            encoder.popDebugGroup();
        }
        for (let k = path.length - 1 - common; k >= 0; k--) {
            open.push(path.items[k]);
            encoder.pushDebugGroup(this.#scopes[path.items[k]].name);
        }
    }

    /** Forgets this frame's passes and resources, and lets the pool age its textures. */
    reset(): void {
        this.#pass_count = 0;
        this.#resource_count = 0;
        this.#handle_count = 0;
        this.#scope_count = 0;
        this.#current_scope = -1;
        this.#scope_depth = 0;
        this.#executed_count = 0;
        this.#state = GraphState.Building;
        this.#epoch_base = this.#epoch_base + EPOCH_STRIDE >= EPOCH_LIMIT * EPOCH_STRIDE ? 0 : this.#epoch_base + EPOCH_STRIDE;
        this.#frame_index++;
        this.pool.end_frame();
    }

    /** Destroys every pooled texture. The graph stays usable; textures are created again on demand. */
    destroy(): void {
        this.reset();
        this.pool.clear();
    }

    /**
     * This frame's passes as data, in recording order: name, the outermost scope (the extension or step that
     * recorded it, or null) and whether culling elided it. For inspectors; allocates, so call it when asked.
     */
    describe_passes(): { name: string; scope: string | null; culled: boolean }[] {
        const out: { name: string; scope: string | null; culled: boolean }[] = [];
        for (let i = 0; i < this.#pass_count; i++) {
            const p = this.#passes[i];
            const root = this.root_scope(p.scope);
            out.push({ name: p.name, scope: root === -1 ? null : this.#scopes[root].name, culled: this.#state !== GraphState.Building && p.culled });
        }
        return out;
    }

    /** The frame as Graphviz DOT: passes clustered by scope, culled passes and all-culled scopes grey. */
    dump(): string {
        return frame_graph_to_dot(this.#dump_view());
    }

    #dump_view() {
        const passes = this.#passes.slice(0, this.#pass_count);
        const resources = this.#resources.slice(0, this.#resource_count);
        const handles = this.#handles.slice(0, this.#handle_count);
        const scopes = this.#scopes.slice(0, this.#scope_count);
        return { passes, resources, handles, scopes, compiled: this.#state !== GraphState.Building };
    }

    // ---- internals ----

    #new_resource(name: string, descriptor: TextureResourceDescriptor, imported: T | null, view: V | null): number {
        const index = this.#resource_count++;
        let resource = this.#resources[index];
        if (resource === undefined) {
            resource = new ResourceNode<T, V>();
            this.#resources.push(resource);
        }
        resource.reset(name, descriptor, imported, view);
        return index;
    }

    #new_handle(resource: number, version: number, writer: number): FrameGraphHandle {
        const index = this.#handle_count++;
        if (index > INDEX_MASK) throw new RangeError(`FrameGraph: more than ${INDEX_MASK + 1} resource versions in one frame (is a pass recorded in a loop that never ends?)`);
        let node = this.#handles[index];
        if (node === undefined) {
            node = new HandleNode();
            this.#handles.push(node);
        }
        node.reset(resource, version, writer);
        const r = this.#resources[resource];
        r.version = version;
        r.latest = index;
        return this.#epoch_base + index;
    }

    /** True when `handle` is a handle of this frame (what `#handle_node` checks, without a message to build). */
    #live_handle(handle: FrameGraphHandle): boolean {
        return typeof handle === "number" && handle >= this.#epoch_base && handle < this.#epoch_base + this.#handle_count && Number.isInteger(handle);
    }

    #handle_node(handle: FrameGraphHandle, what: string): HandleNode {
        if (typeof handle !== "number" || handle < 0 || !Number.isSafeInteger(handle)) {
            throw new TypeError(`FrameGraph.${what}: ${String(handle)} is not a frame graph handle (an unset record field is -1)`);
        }
        const index = handle & INDEX_MASK;
        if (handle - index !== this.#epoch_base || index >= this.#handle_count) {
            throw new Error(`FrameGraph.${what}: handle ${handle} belongs to an earlier frame; handles live for one frame`);
        }
        return this.#handles[index];
    }

    #checked_current(pass: number, handle: FrameGraphHandle, verb: string): HandleNode {
        // the message is built only when the handle is bad: a template literal here would be garbage per call
        const node = this.#live_handle(handle) ? this.#handles[handle & INDEX_MASK] : this.#handle_node(handle, `${this.#passes[pass].name} ${verb}`);
        const resource = this.#resources[node.resource];
        if (resource.latest !== (handle & INDEX_MASK)) {
            const by = this.#handles[resource.latest].writer;
            throw new Error(
                `Frame graph: pass '${this.#passes[pass].name}' ${verb} '${resource.name}' version ${node.version}, ` +
                    `which was superseded by version ${resource.version}` +
                    (by !== -1 ? ` (written by pass '${this.#passes[by].name}')` : "") +
                    `; use the handle that write returned`,
            );
        }
        return node;
    }

    #expect_building(what: string): void {
        if (this.#state !== GraphState.Building) {
            throw new Error(`FrameGraph: cannot record '${what}': the frame is already compiled; reset() first`);
        }
    }

    #expect_pass_building(pass: number): void {
        if (this.#state !== GraphState.Building || pass >= this.#pass_count) {
            throw new Error(
                `Frame graph: the builder of pass '${this.#passes[pass]?.name ?? pass}' is used after its frame was compiled`,
            );
        }
    }
}

function includes(list: IndexList, value: number): boolean {
    return list.includes(value);
}
