// The peers benchmark draws one picture (issue 14): runs bench/peers/run.mjs for a few frames of the hand-written
// WebGPU floor and of this engine's two variants in headless Chromium (SwiftShader), and compares their
// screenshots with raw's. This engine tonemaps (ACES) while raw writes colours straight, so the comparison is of
// what is where: the sky (the variant's own sky colour, read at the top of the frame) must cover the same pixels,
// and the rest must be a busy scene, not a blank or a cleared frame.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decode_png } from "../harness/png.js";
import { TEST_OUTPUT_DIR } from "../harness/expect_pixels.js";

const OUT = join(TEST_OUTPUT_DIR, "peers");
const VARIANTS = ["raw", "ours_taught", "ours_best"];

function sky_mask(name: string): { mask: Uint8Array; colours: number } {
    const png = decode_png(readFileSync(join(OUT, "screenshots", `${name}.png`)));
    const { width, height, rgba: data } = png;
    const s = (width * 2 + width / 2) * 4; // row 2, centre: sky in every variant
    const sky = [data[s], data[s + 1], data[s + 2]];
    const mask = new Uint8Array(width * height);
    const seen = new Set<number>();
    for (let i = 0; i < width * height; i++) {
        const r = data[i * 4];
        const g = data[i * 4 + 1];
        const b = data[i * 4 + 2];
        mask[i] = Math.abs(r - sky[0]) <= 3 && Math.abs(g - sky[1]) <= 3 && Math.abs(b - sky[2]) <= 3 ? 1 : 0;
        seen.add((r << 16) | (g << 8) | b);
    }
    return { mask, colours: seen.size };
}

describe("peers benchmark (Chromium, SwiftShader)", () => {
    it("raw, ours_taught and ours_best draw the same scene: the same sky pixels, and a busy picture below", () => {
        const run = spawnSync(
            process.execPath,
            ["bench/peers/run.mjs", "--rounds", "1", "--warm", "2", "--frames", "3", "--no-garbage", "--only", VARIANTS.join(",")],
            { encoding: "utf8", env: { ...process.env, PEERS_OUT: OUT }, timeout: 240_000 },
        );
        expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
        const raw = sky_mask("raw");
        const sky_pixels = raw.mask.reduce((a, b) => a + b, 0);
        // the sky is the top ~quarter of the frame; the ground, boxes and ribbons the rest
        expect(sky_pixels / raw.mask.length).toBeGreaterThan(0.15);
        expect(sky_pixels / raw.mask.length).toBeLessThan(0.45);
        for (const name of VARIANTS.slice(1)) {
            const ours = sky_mask(name);
            let differ = 0;
            for (let i = 0; i < raw.mask.length; i++) if (raw.mask[i] !== ours.mask[i]) differ++;
            expect(differ / raw.mask.length, `${name}: pixels where the sky is in one picture and not the other`).toBeLessThan(0.005);
            expect(ours.colours, `${name}: distinct colours`).toBeGreaterThan(2000);
        }
    }, 300_000);
});
