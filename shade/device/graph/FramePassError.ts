/**
 * A pass's `execute` threw. Names the pass; `scope` is the index of the outermost scope the pass was recorded
 * in (-1 for none) this frame, which is how the recorder that owns the pass (an extension) is found.
 */
export class FramePassError extends Error {
    readonly pass: string;
    readonly scope: number;

    constructor(pass: string, scope: number, scope_name: string | null, cause: unknown) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        super(`Frame graph: pass '${pass}'${scope_name !== null ? ` (in '${scope_name}')` : ""} failed to execute: ${reason}`, { cause });
        this.name = "FramePassError";
        this.pass = pass;
        this.scope = scope;
    }
}
