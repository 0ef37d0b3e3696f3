// Walking parsed JSON by path segments, for the level fuzzer and its test (device-independent).
import type { JsonPathSegment } from "../../../engine/level/json_path.js";

/** The value at `path` in `root`. */
export function get_at(root: unknown, path: readonly JsonPathSegment[]): unknown {
    let node = root;
    for (const segment of path) node = (node as Record<string | number, unknown>)[segment];
    return node;
}

export function set_at(root: unknown, path: readonly JsonPathSegment[], value: unknown): void {
    const parent = get_at(root, path.slice(0, -1)) as Record<string | number, unknown>;
    parent[path[path.length - 1]] = value;
}

/** `entities[3].Trail3D.width` or `a["b c"]` back into segments. */
export function parse_json_path(path: string): JsonPathSegment[] {
    const segments: JsonPathSegment[] = [];
    const pattern = /(?:^|\.)([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
    let match: RegExpExecArray | null;
    let end = 0;
    while ((match = pattern.exec(path)) !== null) {
        end = pattern.lastIndex;
        if (match[1] !== undefined) segments.push(match[1]);
        else if (match[2] !== undefined) segments.push(Number(match[2]));
        else segments.push(JSON.parse(match[3]) as string);
    }
    if (end !== path.length) throw new Error(`not a JSON path: ${JSON.stringify(path)} (stopped at ${end})`);
    return segments;
}

/** How much of `path` resolves in `root`: the number of leading segments that name something there. */
export function resolved_depth(root: unknown, path: readonly JsonPathSegment[]): number {
    let node = root;
    for (let i = 0; i < path.length; i++) {
        if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, path[i])) return i;
        node = (node as Record<string | number, unknown>)[path[i]];
    }
    return path.length;
}
