/**
 * @internal
 * A glTF `uri` resolved against the file that names it: absolute URLs (`https:`, `file:`, `data:`) as they are,
 * a relative one against the file's folder, percent-escapes decoded for plain paths (glTF URIs are escaped).
 */
export function resolve_asset_uri(base: string, uri: string): string {
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) return uri;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(base)) return new URL(uri, base).href;
    const slash = base.lastIndexOf("/");
    const folder = slash < 0 ? "" : base.slice(0, slash + 1);
    return normalise(folder + safe_decode(uri));
}

function safe_decode(uri: string): string {
    try {
        return decodeURIComponent(uri);
    } catch {
        return uri;
    }
}

function normalise(path: string): string {
    const absolute = path.startsWith("/");
    const out: string[] = [];
    for (const part of path.split("/")) {
        if (part === "" || part === ".") continue;
        if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
        else if (part !== ".." || !absolute) out.push(part);
    }
    return (absolute ? "/" : "") + out.join("/");
}
