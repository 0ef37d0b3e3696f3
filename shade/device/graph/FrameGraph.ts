import { INDEX_MASK, type FrameGraphHandle } from "./FrameGraphHandle.js";
import { FramePassBuilder, type FramePassDeclarations, type WriteMode } from "./FramePassBuilder.js";
import type { FrameExecutionTarget } from "./FrameExecution.js";
import type { GPUPassTimer } from "./GPUPassTimer.js";
import type { FrameGraphMark } from "./FrameGraphMark.js";
import { FrameNodes } from "./FrameNodes.js";
import { FrameScopes } from "./FrameScopes.js";
import { IndexList } from "./IndexList.js";
import { PassNode, type FramePassExecute } from "./PassNode.js";
import { PassRunner } from "./PassRunner.js";
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

    readonly #nodes = new FrameNodes<T, V>();
    readonly #scopes = new FrameScopes();
    readonly #runner: PassRunner<T, V>;

    #frame_index = 0;
    #state = GraphState.Building;
    #executed_count = 0;

    // scratch, reused by compile
    readonly #cull_stack = new IndexList();

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
        this.#runner = new PassRunner(this.#nodes, this.#scopes, this.pool);
    }

    /** Counts frames: incremented by every `reset`. Lets per-frame caches know a new frame began. */
    get frame_index(): number {
        return this.#frame_index;
    }

    /** The name of pass `index` of this frame, for diagnostics. */
    pass_name(index: number): string {
        return this.#nodes.passes[index]?.name ?? `#${index}`;
    }

    /** Passes added this frame. */
    get pass_count(): number {
        return this.#nodes.pass_count;
    }

    /** Passes that survived culling (valid after `compile`). */
    get executed_pass_count(): number {
        return this.#executed_count;
    }

    /** Index (this frame) of the innermost open scope, -1 when none: how a recorder names its scope. */
    get current_scope(): number {
        return this.#scopes.current;
    }

    /** The outermost scope enclosing scope `index` (itself when it is outermost), -1 for -1. */
    root_scope(index: number): number {
        return this.#scopes.root(index);
    }

    /** How many scopes are open now. */
    get scope_depth(): number {
        return this.#scopes.depth;
    }

    /**
     * Adds a pass. `execute(data, resources, execution)` runs at `execute` time if the pass survives
     * culling; declare what it touches on the returned builder.
     */
    add<D>(name: string, data: D, execute: FramePassExecute<D>): FramePassBuilder {
        this.#expect_building(name);
        const nodes = this.#nodes;
        const index = nodes.pass_count++;
        let pass = nodes.passes[index];
        if (pass === undefined) {
            pass = new PassNode();
            for (let k = 0; k < BUILDER_RING; k++) pass.builders.push(new FramePassBuilder(this, index));
            nodes.passes.push(pass);
        }
        pass.reset(name, data, execute as FramePassExecute<unknown>, this.#scopes.current);
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
        const resource = this.#nodes.new_resource(name, d, texture, this.pool.allocator.view(texture, name));
        return this.#nodes.new_handle(resource, 0, -1);
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
        return this.#nodes.new_handle(this.#nodes.new_resource(name, descriptor, null, null), 0, -1);
    }

    /** The descriptor (size, format, usage) of the resource behind a handle of this frame. */
    describe(handle: FrameGraphHandle): TextureResourceDescriptor {
        const node = this.#nodes.node(handle, "describe");
        return this.#nodes.resources[node.resource].descriptor;
    }

    /** The resource name and version a handle stands for, for diagnostics. */
    handle_name(handle: FrameGraphHandle): string {
        return this.#nodes.handle_name(handle);
    }

    /** True when `handle` is the newest version of its resource. */
    is_current(handle: FrameGraphHandle): boolean {
        const node = this.#nodes.node(handle, "is_current");
        return this.#nodes.resources[node.resource].latest === (handle & INDEX_MASK);
    }

    /** Opens a named group of passes: a cluster in the dump, a debug group on the GPU. */
    push_scope(name: string): void {
        this.#expect_building(name);
        this.#scopes.push(name);
    }

    pop_scope(): void {
        this.#scopes.pop();
    }

    /** Closes scopes until `depth` remain open; used to recover from a throwing recorder. */
    pop_scopes_to(depth: number): void {
        while (this.#scopes.depth > depth) this.pop_scope();
    }

    /**
     * Notes how far the frame has been recorded, into `mark` (reused by the caller: no garbage). `rollback`
     * later removes everything recorded after it; that is how one failing recorder is dropped from a frame
     * while what the others recorded stays.
     */
    mark(mark: FrameGraphMark): FrameGraphMark {
        const nodes = this.#nodes;
        const scopes = this.#scopes;
        mark.passes = nodes.pass_count;
        mark.resources = nodes.resource_count;
        mark.handles = nodes.handle_count;
        mark.scopes = scopes.count;
        mark.current_scope = scopes.current;
        mark.scope_depth = scopes.depth;
        return mark;
    }

    /**
     * Forgets the passes, resources, versions and scopes recorded since `mark` (of this frame), and undoes
     * what they did to earlier ones: consumer counts of the versions they read, the latest version of the
     * resources they wrote. Handles created since the mark are dead (they fail as handles never made).
     */
    rollback(mark: FrameGraphMark): void {
        this.#expect_building("rollback");
        const nodes = this.#nodes;
        const scopes = this.#scopes;
        if (mark.passes > nodes.pass_count || mark.handles > nodes.handle_count) {
            throw new Error("FrameGraph.rollback: the mark is not of this frame (or was rolled back already)");
        }
        nodes.pass_count = mark.passes;
        nodes.resource_count = mark.resources;
        nodes.handle_count = mark.handles;
        scopes.count = mark.scopes;
        scopes.current = mark.current_scope;
        scopes.depth = mark.scope_depth;
        nodes.recount();
    }

    // ---- declarations (called by FramePassBuilder) ----

    declare_create(pass: number, name: string, descriptor: TextureResourceDescriptor): FrameGraphHandle {
        this.#expect_pass_building(pass);
        return this.create(name, descriptor);
    }

    declare_read(pass: number, handle: FrameGraphHandle): FrameGraphHandle {
        this.#expect_pass_building(pass);
        return this.#nodes.read(pass, handle);
    }

    declare_write(pass: number, handle: FrameGraphHandle, mode: WriteMode): FrameGraphHandle {
        this.#expect_pass_building(pass);
        return this.#nodes.write(pass, handle, mode);
    }

    declare_side_effect(pass: number): void {
        this.#expect_pass_building(pass);
        this.#nodes.passes[pass].side_effect = true;
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
        if (this.#scopes.depth !== 0) {
            throw new Error(
                `FrameGraph.compile: scope '${this.#scopes.name(this.#scopes.current)}' is still open (push_scope without pop_scope)`,
            );
        }
        const nodes = this.#nodes;
        const executed = schedule_passes(
            nodes.passes,
            nodes.pass_count,
            nodes.handles,
            nodes.handle_count,
            nodes.resources,
            nodes.resource_count,
            this.#cull_stack,
        );
        this.#executed_count = executed;
        this.#state = GraphState.Compiled;
        return executed;
    }

    /** True when the named pass was culled (valid after `compile`); for tests and tools. */
    is_culled(pass_name: string): boolean {
        const nodes = this.#nodes;
        for (let i = 0; i < nodes.pass_count; i++) {
            if (nodes.passes[i].name === pass_name) return nodes.passes[i].culled;
        }
        throw new Error(`FrameGraph.is_culled: no pass named '${pass_name}' this frame`);
    }

    /**
     * How a written handle's attachment is loaded and stored: the first write clears unless it declared a
     * load; a version nothing later consumes, on a texture the graph owns, is discarded.
     */
    attachment_ops(handle: FrameGraphHandle): { load: GPULoadOp; store: GPUStoreOp } {
        const node = this.#nodes.node(handle, "attachment_ops");
        return { load: node.load ? "load" : "clear", store: this.#nodes.store_op(node) };
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
        this.#runner.run(target, segment, this);
        return this.#executed_count;
    }

    /** Forgets this frame's passes and resources, and lets the pool age its textures. */
    reset(): void {
        this.#nodes.reset();
        this.#scopes.reset();
        this.#executed_count = 0;
        this.#state = GraphState.Building;
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
        const nodes = this.#nodes;
        for (let i = 0; i < nodes.pass_count; i++) {
            const p = nodes.passes[i];
            const root = this.root_scope(p.scope);
            out.push({ name: p.name, scope: root === -1 ? null : this.#scopes.name(root), culled: this.#state !== GraphState.Building && p.culled });
        }
        return out;
    }

    /** The frame as Graphviz DOT: passes clustered by scope, culled passes and all-culled scopes grey. */
    dump(): string {
        return frame_graph_to_dot(this.#dump_view());
    }

    #dump_view() {
        const nodes = this.#nodes;
        const passes = nodes.passes.slice(0, nodes.pass_count);
        const resources = nodes.resources.slice(0, nodes.resource_count);
        const handles = nodes.handles.slice(0, nodes.handle_count);
        const scopes = this.#scopes.records.slice(0, this.#scopes.count);
        return { passes, resources, handles, scopes, compiled: this.#state !== GraphState.Building };
    }

    // ---- internals ----

    #expect_building(what: string): void {
        if (this.#state !== GraphState.Building) {
            throw new Error(`FrameGraph: cannot record '${what}': the frame is already compiled; reset() first`);
        }
    }

    #expect_pass_building(pass: number): void {
        if (this.#state !== GraphState.Building || pass >= this.#nodes.pass_count) {
            throw new Error(
                `Frame graph: the builder of pass '${this.#nodes.passes[pass]?.name ?? pass}' is used after its frame was compiled`,
            );
        }
    }
}
