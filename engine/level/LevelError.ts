/**
 * A level that cannot be loaded. `path` is the JSON path of the bad value (`entities[3].Trail3D.width`; ""
 * for the whole level), `expected` the shape wanted there; the message holds both and what was found.
 */
export class LevelError extends Error {
    readonly path: string;
    readonly expected: string;
    /** For text that is not valid JSON: the character offset where it broke. */
    readonly position: number | null;

    constructor(path: string, problem: string, expected: string, position: number | null = null, options?: { readonly cause?: unknown }) {
        super(`load_level: ${path === "" ? "the level" : path}: ${problem}; expected ${expected}`, options);
        this.name = "LevelError";
        this.path = path;
        this.expected = expected;
        this.position = position;
    }
}
