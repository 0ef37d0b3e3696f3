import type { RenderExtension, RenderExtensionClass } from "./RenderExtension.js";

/** One phase's extensions in recording order, with why each stands where it does. */
export interface ResolvedExtensionOrder {
    readonly order: RenderExtension[];
    readonly placed_by: Map<RenderExtension, string[]>;
}

function matches(extension: RenderExtension, classes: readonly RenderExtensionClass[]): RenderExtensionClass | null {
    for (let i = 0; i < classes.length; i++) if (extension instanceof classes[i]) return classes[i];
    return null;
}

/**
 * Orders one phase's extensions: `after`/`before` constraints (classes; a class nobody registered is no
 * constraint), ties by ascending name so that registration order never matters. Throws, naming the
 * extensions on the cycle, when the constraints cannot all hold.
 */
export function resolve_extension_order(extensions: readonly RenderExtension[]): ResolvedExtensionOrder {
    const n = extensions.length;
    const successors: number[][] = extensions.map(() => []);
    const in_degree = new Array<number>(n).fill(0);
    const placed_by = new Map<RenderExtension, string[]>();
    for (const e of extensions) placed_by.set(e, []);

    const edge = (from: number, to: number, why: string) => {
        if (successors[from].includes(to)) return;
        successors[from].push(to);
        in_degree[to]++;
        placed_by.get(extensions[to])!.push(why);
    };
    for (let a = 0; a < n; a++) {
        const ea = extensions[a];
        for (let b = 0; b < n; b++) {
            if (a === b) continue;
            const eb = extensions[b];
            const after = matches(eb, ea.after);
            if (after !== null) edge(b, a, `after '${eb.name}': ${ea.constructor.name}.after names ${after.name}`);
            const before = matches(eb, ea.before);
            if (before !== null) edge(a, b, `after '${ea.name}': ${ea.constructor.name}.before names ${before.name}`);
        }
    }

    const by_name = (x: number, y: number) => {
        const nx = extensions[x].name;
        const ny = extensions[y].name;
        return nx < ny ? -1 : nx > ny ? 1 : x - y;
    };
    const ready: number[] = [];
    for (let i = 0; i < n; i++) if (in_degree[i] === 0) ready.push(i);
    const order: RenderExtension[] = [];
    while (ready.length > 0) {
        ready.sort(by_name);
        const next = ready.shift()!;
        order.push(extensions[next]);
        for (const s of successors[next]) if (--in_degree[s] === 0) ready.push(s);
    }
    if (order.length < n) {
        throw new Error(`ordering cycle: ${describe_cycle(extensions, successors, in_degree)}`);
    }
    for (const e of order) {
        const reasons = placed_by.get(e)!;
        if (reasons.length === 0) reasons.push("no constraint: ascending name order");
    }
    return { order, placed_by };
}

// Every unplaced node has an unplaced predecessor, so walking predecessors must come back on itself: that
// loop, read forwards, is a cycle the constraints ask for.
function describe_cycle(extensions: readonly RenderExtension[], successors: number[][], in_degree: number[]): string {
    const unplaced = (i: number) => in_degree[i] > 0;
    const predecessor = (i: number) => successors.findIndex((s, from) => unplaced(from) && s.includes(i));
    const seen = new Map<number, number>();
    const path: number[] = [];
    let node = in_degree.findIndex((d) => d > 0);
    while (!seen.has(node)) {
        seen.set(node, path.length);
        path.push(node);
        node = predecessor(node);
    }
    const loop = path.slice(seen.get(node)!).reverse();
    // start at the latest-listed extension on it: the registry lists the one being added last
    const newest = loop.indexOf(Math.max(...loop));
    loop.push(...loop.splice(0, newest));
    loop.push(loop[0]);
    return loop.map((i) => `'${extensions[i].name}'`).join(" -> ");
}
