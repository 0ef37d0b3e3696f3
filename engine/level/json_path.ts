/** One step of a JSON path: an object key or an array index. */
export type JsonPathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["entities", 3, "Trail3D", "width"]` -> `entities[3].Trail3D.width` (odd keys quoted: `a["b c"]`). */
export function format_json_path(segments: readonly JsonPathSegment[]): string {
    let out = "";
    for (const segment of segments) {
        if (typeof segment === "number") out += `[${segment}]`;
        else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
        else out += `[${JSON.stringify(segment)}]`;
    }
    return out;
}

/** Joins a path and a relative one ("gradient[1]"), either may be empty. */
export function join_json_path(base: string, relative: string): string {
    if (relative === "") return base;
    if (base === "") return relative;
    return relative.startsWith("[") ? base + relative : `${base}.${relative}`;
}

/**
 * The path of the value being read at `offset` of JSON `text` that broke there (truncated or malformed):
 * a scan that tracks the open objects and arrays, their current key or index. Best effort, never throws.
 */
export function json_path_at_offset(text: string, offset: number): JsonPathSegment[] {
    interface Frame {
        array: boolean;
        key: string | null;
        index: number;
        /** In an object: whether the next string is a key. */
        expect_key: boolean;
    }
    const stack: Frame[] = [];
    const end = Math.min(offset, text.length);
    let i = 0;
    while (i < end) {
        const c = text[i];
        if (c === '"') {
            let j = i + 1;
            let value = "";
            while (j < text.length && text[j] !== '"') {
                if (text[j] === "\\") j++;
                value += text[j] ?? "";
                j++;
            }
            const top = stack.at(-1);
            if (top !== undefined && !top.array && top.expect_key) {
                top.key = value;
                top.expect_key = false;
            }
            i = j + 1;
            continue;
        }
        if (c === "{") stack.push({ array: false, key: null, index: 0, expect_key: true });
        else if (c === "[") stack.push({ array: true, key: null, index: 0, expect_key: false });
        else if (c === "}" || c === "]") stack.pop();
        else if (c === ",") {
            const top = stack.at(-1);
            if (top !== undefined) {
                if (top.array) top.index++;
                else {
                    top.key = null;
                    top.expect_key = true;
                }
            }
        }
        i++;
    }
    const segments: JsonPathSegment[] = [];
    for (const frame of stack) {
        if (frame.array) segments.push(frame.index);
        else if (frame.key !== null) segments.push(frame.key);
        else break;
    }
    return segments;
}
