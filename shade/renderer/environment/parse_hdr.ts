import { HdrError } from "./HdrError.js";

/** A decoded equirectangular HDR image: linear RGB radiance, row 0 at the top (the sky), alpha 1. */
export interface HdrImage {
    readonly width: number;
    readonly height: number;
    /** `width * height * 4` floats, RGBA, rows top to bottom. */
    readonly data: Float32Array;
}

const MAGICS = ["#?RADIANCE", "#?RGBE"];
// the header is text; a line this long means the bytes are not a header
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Decodes a Radiance `.hdr` (RGBE) file: the `#?RADIANCE` or `#?RGBE` magic, `FORMAT=32-bit_rle_rgbe` (or no
 * FORMAT line), the `-Y height +X width` orientation (rows top to bottom, the only one in common use), and
 * scanlines in the new run-length encoding, flat, or the old run-length encoding. `EXPOSURE` is ignored, as
 * most viewers do. A mantissa `m` with exponent `e` decodes to `m * 2^(e - 136)` (no half-step offset, as
 * stb_image and three.js decode it); `e = 0` is black. Throws `HdrError` naming `name` and the problem.
 */
export function parse_hdr(bytes: Uint8Array, name: string): HdrImage {
    const reader = { at: 0 };
    const line = (): string | null => {
        const start = reader.at;
        while (reader.at < bytes.length && bytes[reader.at] !== 0x0a) {
            if (reader.at - start > MAX_HEADER_BYTES) return null;
            reader.at++;
        }
        if (reader.at >= bytes.length) return null;
        let text = "";
        for (let i = start; i < reader.at; i++) text += String.fromCharCode(bytes[i]);
        reader.at++; // the newline
        return text;
    };
    const magic = line();
    if (magic === null || !MAGICS.includes(magic.trim())) {
        const seen = magic === null ? "no header line" : JSON.stringify(magic.slice(0, 16));
        throw new HdrError(name, `not a Radiance HDR file: expected the magic "#?RADIANCE" or "#?RGBE" on the first line, found ${seen}`);
    }
    for (;;) {
        const header = line();
        if (header === null) throw new HdrError(name, "the header does not end (no blank line before the resolution line)");
        if (header.trim() === "") break;
        if (header.startsWith("FORMAT=")) {
            const format = header.slice(7).trim();
            if (format !== "32-bit_rle_rgbe") {
                throw new HdrError(name, `unsupported pixel format "${format}" (only FORMAT=32-bit_rle_rgbe is read; XYZE is not)`);
            }
        }
    }
    const resolution = line();
    if (resolution === null) throw new HdrError(name, "the file ends before the resolution line");
    const match = /^\s*([-+][XY])\s+(\d+)\s+([-+][XY])\s+(\d+)\s*$/.exec(resolution);
    if (match === null) throw new HdrError(name, `unreadable resolution line "${resolution.slice(0, 40)}"`);
    if (match[1] !== "-Y" || match[3] !== "+X") {
        throw new HdrError(name, `unsupported orientation "${match[1]} ${match[2]} ${match[3]} ${match[4]}" (only "-Y height +X width" is read)`);
    }
    const height = Number(match[2]);
    const width = Number(match[4]);
    if (width === 0 || height === 0) throw new HdrError(name, `empty image (${width} x ${height})`);
    const data = new Float32Array(width * height * 4);
    const scanline = new Uint8Array(width * 4);
    for (let y = 0; y < height; y++) {
        reader.at = read_scanline(bytes, reader.at, scanline, width, y, height, name);
        const row = y * width * 4;
        for (let x = 0; x < width; x++) {
            const e = scanline[x * 4 + 3];
            const o = row + x * 4;
            if (e === 0) {
                data[o] = data[o + 1] = data[o + 2] = 0;
            } else {
                const scale = 2 ** (e - 136);
                data[o] = scanline[x * 4] * scale;
                data[o + 1] = scanline[x * 4 + 1] * scale;
                data[o + 2] = scanline[x * 4 + 2] * scale;
            }
            data[o + 3] = 1;
        }
    }
    return { width, height, data };
}

/** Decodes scanline `y` into `out` (RGBE bytes, pixel-interleaved) and returns the offset after it. */
function read_scanline(bytes: Uint8Array, at: number, out: Uint8Array, width: number, y: number, height: number, name: string): number {
    const where = `scanline ${y} of ${height}`;
    if (at + 4 > bytes.length) throw new HdrError(name, `truncated: the file ends at the start of ${where}`);
    // new-style RLE starts with 2, 2 and the width (widths 8..32767 only); anything else is a flat or old-RLE line
    const new_rle = width >= 8 && width < 0x8000 && bytes[at] === 2 && bytes[at + 1] === 2 && (bytes[at + 2] & 0x80) === 0;
    if (!new_rle) return read_flat_scanline(bytes, at, out, width, where, name);
    const encoded_width = (bytes[at + 2] << 8) | bytes[at + 3];
    if (encoded_width !== width) throw new HdrError(name, `${where} says it is ${encoded_width} pixels wide, the image is ${width}`);
    at += 4;
    // four planes (R, G, B, E) one after the other, each a sequence of runs and literal spans
    for (let channel = 0; channel < 4; channel++) {
        let x = 0;
        while (x < width) {
            if (at >= bytes.length) throw new HdrError(name, `truncated: the file ends inside ${where} (channel ${channel}, pixel ${x})`);
            let count = bytes[at++];
            if (count > 128) {
                count -= 128;
                if (x + count > width) throw new HdrError(name, `${where}: a run of ${count} overruns the line at pixel ${x} (width ${width})`);
                if (at >= bytes.length) throw new HdrError(name, `truncated: the file ends inside ${where} (channel ${channel}, pixel ${x})`);
                const value = bytes[at++];
                for (let i = 0; i < count; i++) out[(x + i) * 4 + channel] = value;
            } else {
                if (count === 0) throw new HdrError(name, `${where}: a zero-length run at pixel ${x} (channel ${channel}): corrupt run-length data`);
                if (x + count > width) throw new HdrError(name, `${where}: a span of ${count} overruns the line at pixel ${x} (width ${width})`);
                if (at + count > bytes.length) throw new HdrError(name, `truncated: the file ends inside ${where} (channel ${channel}, pixel ${x})`);
                for (let i = 0; i < count; i++) out[(x + i) * 4 + channel] = bytes[at + i];
                at += count;
            }
            x += count;
        }
    }
    return at;
}

/** A flat scanline: 4 bytes per pixel, where (1, 1, 1, n) repeats the previous pixel (old-style RLE). */
function read_flat_scanline(bytes: Uint8Array, at: number, out: Uint8Array, width: number, where: string, name: string): number {
    let x = 0;
    let shift = 0;
    while (x < width) {
        if (at + 4 > bytes.length) throw new HdrError(name, `truncated: the file ends inside ${where} (pixel ${x} of ${width})`);
        const r = bytes[at], g = bytes[at + 1], b = bytes[at + 2], e = bytes[at + 3];
        at += 4;
        if (r === 1 && g === 1 && b === 1) {
            // repeat count, in bytes of increasing significance when several repeat markers follow each other
            if (x === 0) throw new HdrError(name, `${where}: an old-style run before any pixel`);
            const count = e << shift;
            if (count === 0) throw new HdrError(name, `${where}: a zero-length run at pixel ${x}: corrupt run-length data`);
            if (x + count > width) throw new HdrError(name, `${where}: a run of ${count} overruns the line at pixel ${x} (width ${width})`);
            for (let i = 0; i < count; i++) out.copyWithin((x + i) * 4, (x - 1) * 4, x * 4);
            x += count;
            shift += 8;
        } else {
            out[x * 4] = r;
            out[x * 4 + 1] = g;
            out[x * 4 + 2] = b;
            out[x * 4 + 3] = e;
            x++;
            shift = 0;
        }
    }
    return at;
}
