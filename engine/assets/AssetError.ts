/**
 * A file that could not be loaded: unreadable, malformed, out of its own bounds, or beyond what the device or
 * this loader supports. `file` is the URL or path as given to the load; `path` is the glTF JSON path of the
 * culprit (`meshes[0].primitives[1].indices`), "" when the fault is the file itself (truncated, not glTF).
 * A failed load leaves nothing behind: no GPU object of it outlives the error.
 */
export class AssetError extends Error {
    override readonly name = "AssetError";
    readonly file: string;
    readonly path: string;
    readonly reason: string;

    constructor(file: string, path: string, reason: string, options?: { cause?: unknown }) {
        super(path === "" ? `${file}: ${reason}` : `${file}: ${path}: ${reason}`, options);
        this.file = file;
        this.path = path;
        this.reason = reason;
    }
}
