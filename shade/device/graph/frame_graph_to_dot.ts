import { INDEX_MASK } from "./FrameGraphHandle.js";
import type { HandleNode } from "./HandleNode.js";
import type { PassNode } from "./PassNode.js";

/** A snapshot of a frame's graph, as `FrameGraph.dump` hands it over. */
export interface FrameGraphDumpView {
    readonly passes: readonly PassNode[];
    readonly resources: readonly { readonly name: string; readonly imported: unknown; readonly descriptor: { readonly label: string } }[];
    readonly handles: readonly HandleNode[];
    readonly scopes: readonly { readonly name: string; readonly parent: number }[];
    readonly compiled: boolean;
}

const GREY = 'style="filled,dashed" fillcolor="#e4e4e4" color="#9a9a9a" fontcolor="#9a9a9a"';

/**
 * Graphviz DOT text for a frame: a box per pass and an ellipse per resource version, passes clustered by
 * scope (nested as the scopes nest). Culled passes are grey, and so is a scope whose every pass was culled -
 * how an extension elided for a frame shows up.
 */
export function frame_graph_to_dot(view: FrameGraphDumpView): string {
    const out: string[] = [];
    out.push("digraph frame {", "  rankdir=LR;", '  node [fontname="Helvetica" fontsize=10];');

    const scope_children: number[][] = view.scopes.map(() => []);
    const scope_passes: number[][] = view.scopes.map(() => []);
    const root_passes: number[] = [];
    const root_scopes: number[] = [];
    view.scopes.forEach((s, i) => (s.parent === -1 ? root_scopes : scope_children[s.parent]).push(i));
    view.passes.forEach((p, i) => (p.scope === -1 ? root_passes : scope_passes[p.scope]).push(i));

    const all_culled = (scope: number): boolean =>
        scope_passes[scope].every((p) => view.passes[p].culled) && scope_children[scope].every(all_culled);

    const pass_node = (i: number, indent: string) => {
        const p = view.passes[i];
        const style = p.culled ? GREY : p.side_effect ? 'style="filled,bold" fillcolor="#ffe7c2"' : 'style=filled fillcolor="#cfe3ff"';
        out.push(`${indent}p${i} [shape=box label="${escape(p.name)}" ${style}];`);
    };
    const emit_scope = (scope: number, indent: string) => {
        const grey = view.compiled && all_culled(scope);
        out.push(`${indent}subgraph cluster_${scope} {`);
        out.push(`${indent}  label="${escape(view.scopes[scope].name)}";`);
        out.push(grey ? `${indent}  ${GREY};` : `${indent}  color="#5a7bb5";`);
        for (const p of scope_passes[scope]) pass_node(p, indent + "  ");
        for (const c of scope_children[scope]) emit_scope(c, indent + "  ");
        out.push(`${indent}}`);
    };
    for (const p of root_passes) pass_node(p, "  ");
    for (const s of root_scopes) emit_scope(s, "  ");

    view.handles.forEach((h, i) => {
        const r = view.resources[h.resource];
        const shape = r.imported !== null ? "doubleoctagon" : "ellipse";
        const culled = view.compiled && h.writer !== -1 && view.passes[h.writer].culled;
        const style = culled ? GREY : "";
        out.push(`  r${i} [shape=${shape} label="${escape(r.name)} v${h.version}\\n${escape(r.descriptor.label)}" ${style}];`);
    });
    view.passes.forEach((p, i) => {
        for (const h of p.reads) out.push(`  r${h & INDEX_MASK} -> p${i};`);
        for (const h of p.loads) out.push(`  r${h & INDEX_MASK} -> p${i} [style=dashed label="load"];`);
        for (const h of p.writes) out.push(`  p${i} -> r${h & INDEX_MASK};`);
    });
    out.push("}");
    return out.join("\n");
}

function escape(text: string): string {
    return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}
