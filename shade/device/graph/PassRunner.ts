import type { FrameExecutionTarget } from "./FrameExecution.js";
import type { FrameSegmentHook } from "./FrameGraph.js";
import type { FrameGraphResources } from "./FrameGraphResources.js";
import type { FrameNodes } from "./FrameNodes.js";
import { FramePassError } from "./FramePassError.js";
import type { FrameScopes } from "./FrameScopes.js";
import type { GPUPassTimer } from "./GPUPassTimer.js";
import { PassExecution } from "./PassExecution.js";
import { PassResources } from "./PassResources.js";
import type { TransientTexturePool } from "./TransientTexturePool.js";

/** @internal The graph's settings the runner reads as it goes (the `FrameGraph` itself). */
export interface PassRunSettings {
    readonly timer: GPUPassTimer | null;
    readonly debug_groups: boolean;
}

/**
 * @internal Runs a compiled `FrameGraph` frame: the surviving passes in recording order, each inside the debug
 * groups of its scopes and its own, with its transients acquired from the pool before their first pass and
 * returned after their last, and a throwing pass reported as a `FramePassError`. Owns what every pass's
 * execute is handed (`resources`, `execution`), one of each, reused frame to frame.
 */
export class PassRunner<T, V> {
    readonly #nodes: FrameNodes<T, V>;
    readonly #scopes: FrameScopes;
    readonly #pool: TransientTexturePool<T, V>;
    #running_pass = -1;
    readonly #accessor: FrameGraphResources;
    readonly #execution = new PassExecution();

    constructor(nodes: FrameNodes<T, V>, scopes: FrameScopes, pool: TransientTexturePool<T, V>) {
        this.#nodes = nodes;
        this.#scopes = scopes;
        this.#pool = pool;
        this.#accessor = new PassResources<T, V>({
            running_pass: () => (this.#running_pass === -1 ? null : nodes.passes[this.#running_pass]),
            live: (handle) => nodes.live(handle),
            checked_node: (handle, what) => nodes.node(handle, what),
            handle_at: (index) => nodes.handles[index],
            resource: (index) => nodes.resources[index],
            store_op: (node) => nodes.store_op(node),
        });
    }

    /** Runs the passes that survived culling on `target.encoder` (or the encoders `segment` hands out). */
    run(target: FrameExecutionTarget, segment: FrameSegmentHook | null, settings: PassRunSettings): void {
        let encoder = target.encoder;
        const execution = this.#execution;
        execution.graphics = target.graphics;
        execution.encoder = encoder;
        execution.timer = settings.timer;
        settings.timer?.begin_frame();
        const nodes = this.#nodes;
        const passes = nodes.passes;
        const scopes = this.#scopes;
        const pool = this.#pool;
        scopes.begin_debug_groups();
        try {
            for (let i = 0; i < nodes.pass_count; i++) {
                const p = passes[i];
                if (p.culled) continue;
                if (segment !== null) {
                    // each pass on an encoder of its own: close the debug groups of the last one first
                    if (settings.debug_groups) scopes.enter_debug_groups(encoder, -1);
                    encoder = segment(p.name, scopes.root(p.scope));
                    execution.encoder = encoder;
                }
                if (settings.debug_groups) scopes.enter_debug_groups(encoder, p.scope);
                for (let k = 0; k < p.acquire.length; k++) {
                    const resource = nodes.resources[p.acquire.items[k]];
                    resource.pooled = pool.acquire(resource.descriptor, resource.name);
                }
                if (settings.debug_groups) encoder.pushDebugGroup(p.name);
                const root = settings.timer === null ? -1 : scopes.root(p.scope);
                execution.enter(p.name, root === -1 ? null : scopes.name(root));
                this.#running_pass = i;
                try {
                    p.execute!(p.data, this.#accessor, execution);
                } catch (error) {
                    const root = scopes.root(p.scope);
                    throw new FramePassError(p.name, root, root === -1 ? null : scopes.name(root), error);
                }
                this.#running_pass = -1;
                if (settings.debug_groups) encoder.popDebugGroup();
                for (let k = 0; k < p.release.length; k++) {
                    const resource = nodes.resources[p.release.items[k]];
                    pool.release(resource.pooled!);
                }
            }
            if (settings.debug_groups) scopes.enter_debug_groups(encoder, -1);
        } finally {
            this.#running_pass = -1;
        }
    }
}
