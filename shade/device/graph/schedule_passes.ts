import { INDEX_MASK } from "./FrameGraphHandle.js";
import type { HandleNode } from "./HandleNode.js";
import type { IndexList } from "./IndexList.js";
import type { PassNode } from "./PassNode.js";
import type { ResourceNode } from "./ResourceNode.js";

/**
 * The GPU-free heart of `FrameGraph.compile`. Culls passes whose outputs nothing consumes, transitively:
 * a pass's reference count is the consumers of what it writes (+1 for a side effect, which imported writes
 * set); passes at zero are culled and release what they consumed, which may cull their producers in turn.
 * Then, over the survivors in recording order, each transient's first and last pass, where it is acquired
 * from and released to the pool. Returns the number of surviving passes.
 */
export function schedule_passes(
    passes: readonly PassNode[],
    pass_count: number,
    handles: readonly HandleNode[],
    handle_count: number,
    resources: readonly ResourceNode<unknown, unknown>[],
    resource_count: number,
    stack: IndexList,
): number {
    stack.clear();
    for (let i = 0; i < handle_count; i++) handles[i].live_consumers = handles[i].consumers;
    for (let i = 0; i < pass_count; i++) {
        const p = passes[i];
        let count = p.side_effect ? 1 : 0;
        for (let w = 0; w < p.writes.length; w++) count += handles[p.writes.items[w] & INDEX_MASK].consumers;
        p.ref_count = count;
        if (count === 0) stack.push(i);
    }
    while (stack.length > 0) {
        const p = passes[stack.pop()];
        p.culled = true;
        release_inputs(passes, handles, p.reads, stack);
        release_inputs(passes, handles, p.loads, stack);
    }

    let executed = 0;
    for (let i = 0; i < pass_count; i++) {
        const p = passes[i];
        if (p.culled) continue;
        executed++;
        extend_lifetimes(handles, resources, p.reads, i);
        extend_lifetimes(handles, resources, p.loads, i);
        extend_lifetimes(handles, resources, p.writes, i);
    }
    for (let r = 0; r < resource_count; r++) {
        const resource = resources[r];
        if (resource.first_pass === -1 || resource.imported !== null) continue;
        passes[resource.first_pass].acquire.push(r);
        passes[resource.last_pass].release.push(r);
    }
    return executed;
}

function release_inputs(passes: readonly PassNode[], handles: readonly HandleNode[], inputs: IndexList, stack: IndexList): void {
    for (let k = 0; k < inputs.length; k++) {
        const node = handles[inputs.items[k] & INDEX_MASK];
        node.live_consumers--;
        if (node.writer !== -1 && --passes[node.writer].ref_count === 0) stack.push(node.writer);
    }
}

function extend_lifetimes(
    handles: readonly HandleNode[],
    resources: readonly ResourceNode<unknown, unknown>[],
    list: IndexList,
    pass: number,
): void {
    for (let k = 0; k < list.length; k++) {
        const resource = resources[handles[list.items[k] & INDEX_MASK].resource];
        if (resource.first_pass === -1) resource.first_pass = pass;
        resource.last_pass = pass;
    }
}
