import { IndexList } from "./IndexList.js";

/** @internal One named group of passes: its name and the scope it was opened in (-1: none). */
export interface FrameScope {
    name: string;
    parent: number;
}

/**
 * @internal The scopes of one `FrameGraph` frame - named groups of passes, clusters in the dump and debug groups
 * on the GPU - in records reused frame to frame, and the debug groups they keep open on an encoder while the
 * frame executes.
 */
export class FrameScopes {
    readonly records: FrameScope[] = [];
    /** Scopes opened this frame. */
    count = 0;
    /** Index (this frame) of the innermost open scope, -1 when none. */
    current = -1;
    /** How many scopes are open now. */
    depth = 0;

    // scratch of enter_debug_groups, reused frame to frame
    readonly #open = new IndexList();
    readonly #path = new IndexList();

    /** Opens scope `name` inside the current one. */
    push(name: string): void {
        const index = this.count++;
        let scope = this.records[index];
        if (scope === undefined) {
            scope = { name, parent: this.current };
            this.records.push(scope);
        } else {
            scope.name = name;
            scope.parent = this.current;
        }
        this.current = index;
        this.depth++;
    }

    /** Closes the innermost open scope. */
    pop(): void {
        if (this.current === -1) {
            throw new Error("FrameGraph.pop_scope: no scope is open (a pop_scope without its push_scope)");
        }
        this.current = this.records[this.current].parent;
        this.depth--;
    }

    /** The outermost scope enclosing scope `index` (itself when it is outermost), -1 for -1. */
    root(index: number): number {
        let s = index;
        while (s !== -1 && this.records[s].parent !== -1) s = this.records[s].parent;
        return s;
    }

    /** The name of scope `index` of this frame. */
    name(index: number): string {
        return this.records[index].name;
    }

    /** Forgets this frame's scopes. */
    reset(): void {
        this.count = 0;
        this.current = -1;
        this.depth = 0;
    }

    /** Before a frame executes: no debug group is open on its encoder yet. */
    begin_debug_groups(): void {
        this.#open.clear();
    }

    // Moves the open debug groups from the previous pass's scope chain to this pass's.
    enter_debug_groups(encoder: GPUCommandEncoder, scope: number): void {
        const open = this.#open;
        const path = this.#path;
        path.clear();
        for (let s = scope; s !== -1; s = this.records[s].parent) path.push(s);
        // path is leaf-first; compare against open (root-first)
        let common = 0;
        while (common < open.length && common < path.length && open.items[common] === path.items[path.length - 1 - common]) common++;
        while (open.length > common) {
            open.pop();
            encoder.popDebugGroup();
        }
        for (let k = path.length - 1 - common; k >= 0; k--) {
            open.push(path.items[k]);
            encoder.pushDebugGroup(this.records[path.items[k]].name);
        }
    }
}
