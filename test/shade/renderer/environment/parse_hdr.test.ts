// The Radiance .hdr reader on files written by hand, byte by byte: exact values and every refusal.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HdrError } from "../../../../shade/renderer/environment/HdrError.js";
import { parse_hdr } from "../../../../shade/renderer/environment/parse_hdr.js";

function file(header: string, ...body: number[][]): Uint8Array {
    const text = new TextEncoder().encode(header);
    const bytes = body.flat();
    const out = new Uint8Array(text.length + bytes.length);
    out.set(text);
    out.set(bytes, text.length);
    return out;
}

const HEADER_8x2 = "#?RADIANCE\n# written by hand\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1.0\n\n-Y 2 +X 8\n";

/** One new-style RLE scanline of 8 pixels: R a run of 8 x 128, G literals, B a run of 4 then a span of 4, E 129 or 0. */
const RLE_LINE = [
    2, 2, 0, 8,
    128 + 8, 128, // R: run of 8 x 128
    8, 0, 32, 64, 96, 128, 160, 192, 224, // G: 8 literals
    128 + 4, 255, 4, 1, 2, 3, 4, // B: run of 4 x 255, span of 4
    128 + 7, 129, 1, 0, // E: 7 x 129 (2^-7), then a span of 1: 0 (black)
];

function expect_refused(bytes: Uint8Array, pattern: RegExp): void {
    let caught: unknown = null;
    try {
        parse_hdr(bytes, "hand.hdr");
    } catch (e) {
        caught = e;
    }
    expect(caught).toBeInstanceOf(HdrError);
    expect((caught as HdrError).file).toBe("hand.hdr");
    expect((caught as Error).message).toMatch(/^hand\.hdr: /);
    expect((caught as Error).message).toMatch(pattern);
}

describe("parse_hdr", () => {
    it("decodes new-style run-length scanlines to exact values (m * 2^(e - 136), e = 0 black)", () => {
        const image = parse_hdr(file(HEADER_8x2, RLE_LINE, RLE_LINE), "hand.hdr");
        expect(image.width).toBe(8);
        expect(image.height).toBe(2);
        const scale = 2 ** (129 - 136);
        const g = [0, 32, 64, 96, 128, 160, 192, 224];
        const b = [255, 255, 255, 255, 1, 2, 3, 4];
        for (let y = 0; y < 2; y++) {
            for (let x = 0; x < 7; x++) {
                const o = (y * 8 + x) * 4;
                expect([...image.data.subarray(o, o + 4)]).toEqual([128 * scale, g[x] * scale, b[x] * scale, 1]);
            }
            const o = (y * 8 + 7) * 4;
            expect([...image.data.subarray(o, o + 4)]).toEqual([0, 0, 0, 1]);
        }
        expect(image.data[0]).toBe(1); // 128 * 2^-7
    });

    it("reads flat scanlines and old-style runs, and the #?RGBE magic with no FORMAT line, rows top to bottom", () => {
        // 3 wide (too narrow for new-style RLE): row 0 flat, row 1 one pixel repeated by an old-style run of 2
        const bytes = file("#?RGBE\n\n-Y 2 +X 3\n", [64, 128, 192, 128, 1, 2, 3, 130, 0, 0, 0, 0], [10, 20, 30, 140, 1, 1, 1, 2]);
        const image = parse_hdr(bytes, "flat.hdr");
        expect([...image.data.subarray(0, 12)]).toEqual([64 / 256, 128 / 256, 192 / 256, 1, 4 / 256 * 1, 8 / 256, 12 / 256, 1, 0, 0, 0, 1]);
        for (let x = 0; x < 3; x++) {
            expect([...image.data.subarray(12 + x * 4, 16 + x * 4)]).toEqual([10 * 16, 20 * 16, 30 * 16, 1]);
        }
        // a flat line in an image wide enough for RLE (the first pixel is not 2, 2, ...)
        const wide = file("#?RADIANCE\n\n-Y 1 +X 8\n", ...Array.from({ length: 8 }, (_, i) => [i, 0, 0, 136]));
        expect(Array.from({ length: 8 }, (_, i) => parse_hdr(wide, "wide.hdr").data[i * 4])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    });

    it("refuses a file without the magic", () => {
        expect_refused(file("P6\n8 2\n255\n", [0, 0, 0]), /not a Radiance HDR file.*"P6"/);
        expect_refused(new Uint8Array(0), /not a Radiance HDR file.*no header line/);
    });

    it("refuses a zero-length run", () => {
        const line = [2, 2, 0, 8, 0, ...RLE_LINE.slice(4)];
        expect_refused(file(HEADER_8x2, line, RLE_LINE), /scanline 0 of 2: a zero-length run at pixel 0 \(channel 0\)/);
        // old-style: a repeat of 0
        expect_refused(file("#?RADIANCE\n\n-Y 1 +X 3\n", [1, 2, 3, 130, 1, 1, 1, 0, 1, 2, 3, 130]), /scanline 0 of 1: a zero-length run at pixel 1/);
    });

    it("refuses a truncated scanline, naming the scanline", () => {
        const bytes = file(HEADER_8x2, RLE_LINE, RLE_LINE.slice(0, 20));
        expect_refused(bytes, /truncated: the file ends inside scanline 1 of 2/);
        expect_refused(file(HEADER_8x2, RLE_LINE), /truncated: the file ends at the start of scanline 1 of 2/);
        expect_refused(file("#?RADIANCE\n\n-Y 1 +X 3\n", [1, 2, 3, 130, 1, 2]), /truncated: the file ends inside scanline 0 of 1/);
    });

    it("refuses runs that overrun the line and a scanline of the wrong width", () => {
        const overrun = [2, 2, 0, 8, 128 + 9, 1, ...RLE_LINE.slice(6)];
        expect_refused(file(HEADER_8x2, overrun, RLE_LINE), /scanline 0 of 2: a run of 9 overruns the line/);
        const wrong = [2, 2, 0, 9, ...RLE_LINE.slice(4)];
        expect_refused(file(HEADER_8x2, wrong, RLE_LINE), /scanline 0 of 2 says it is 9 pixels wide, the image is 8/);
    });

    it("refuses an unsupported orientation or pixel format, and a header that never ends", () => {
        expect_refused(file("#?RADIANCE\n\n+Y 2 +X 8\n", RLE_LINE, RLE_LINE), /unsupported orientation "\+Y 2 \+X 8"/);
        expect_refused(file("#?RADIANCE\n\n-Y 2 -X 8\n", RLE_LINE, RLE_LINE), /unsupported orientation/);
        expect_refused(file("#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 2 +X 8\n", RLE_LINE, RLE_LINE), /unsupported pixel format "32-bit_rle_xyze"/);
        expect_refused(file("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n"), /header does not end/);
        expect_refused(file("#?RADIANCE\n\n-Y two +X 8\n"), /unreadable resolution line/);
    });

    it("reads the royal esplanade (1024 x 512): finite, non-negative, the sky above brighter than the ground", () => {
        const image = parse_hdr(readFileSync(new URL("../../../../samples/assets/royal_esplanade/royal_esplanade_1k.hdr", import.meta.url)), "royal_esplanade_1k.hdr");
        expect([image.width, image.height]).toEqual([1024, 512]);
        let bad = 0;
        for (let i = 0; i < image.data.length; i++) if (!(Number.isFinite(image.data[i]) && image.data[i] >= 0)) bad++;
        expect(bad).toBe(0);
        // weighted by solid angle (sin of the polar angle), the upper hemisphere holds several times the light
        let top = 0;
        let bottom = 0;
        for (let y = 0; y < 512; y++) {
            const w = Math.sin(((y + 0.5) / 512) * Math.PI);
            for (let x = 0; x < 1024; x++) {
                if (y < 256) top += image.data[(y * 1024 + x) * 4 + 1] * w;
                else bottom += image.data[(y * 1024 + x) * 4 + 1] * w;
            }
        }
        expect(top).toBeGreaterThan(3 * bottom);
    });
});
