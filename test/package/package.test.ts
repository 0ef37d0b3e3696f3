// The package works for someone else: scripts/check_package.mjs builds it, packs it, installs the tarball
// into a scratch project outside the repository, type-checks and bundles the guide's game (docs/example/) that
// imports only `shade-ts/...`, and runs it on Dawn. This test runs that check and keeps its frames as PNGs.
import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { write_png, write_readback_png } from "../harness/index.js";
// @ts-expect-error plain JavaScript module without declarations
import { judge } from "../../scripts/check_package.mjs";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");
const SIZE = 64;
const GUIDE_IMAGES = join(ROOT, "docs", "images");

/** `rgba` (SIZE x SIZE) scaled up `k` times, nearest texel: the guide shows the 64 px frame at 256 px. */
function upscale(rgba: Uint8Array, k: number): Uint8Array {
    const out = new Uint8Array(SIZE * k * SIZE * k * 4);
    for (let y = 0; y < SIZE * k; y++) {
        for (let x = 0; x < SIZE * k; x++) {
            const from = (Math.floor(y / k) * SIZE + Math.floor(x / k)) * 4;
            out.set(rgba.subarray(from, from + 4), (y * SIZE * k + x) * 4);
        }
    }
    return out;
}

interface CheckOutput {
    skipped?: string;
    ok?: boolean;
    failures?: string[];
    scratch?: string | null;
    result?: Record<string, unknown>;
}

describe("the packed package, installed in a scratch project (npm pack + npm install + tsc + esbuild + Dawn)", () => {
    it("type-checks, bundles and runs the guide's game: the marker, the trail, and the trail gone after Trail3DSystem.shutdown", async (ctx) => {
        let stdout: string;
        try {
            ({ stdout } = await run(process.execPath, [join(ROOT, "scripts", "check_package.mjs"), "--json", "--keep"], {
                cwd: ROOT,
                timeout: 170_000,
                maxBuffer: 16 << 20,
            }));
        } catch (e) {
            const err = e as { code?: number; stdout?: string; stderr?: string };
            if (err.code === 3) {
                console.warn(`SKIPPED: ${err.stderr}`);
                ctx.skip();
            }
            throw new Error(`check_package failed (exit ${err.code}):\n${err.stderr}`);
        }
        const out = JSON.parse(stdout.trim().split("\n").pop()!) as CheckOutput;
        try {
            if (out.scratch) {
                for (const name of ["frame", "after"]) {
                    const data = new Uint8Array(readFileSync(join(out.scratch, `${name}.rgba`)));
                    write_readback_png({ width: SIZE, height: SIZE, format: "rgba8unorm", data, channels: 4 }, `package_game_${name}`);
                    // UPDATE_GUIDE_IMAGES=1 npx vitest run test/package/package.test.ts refreshes the guide's pictures
                    if (process.env.UPDATE_GUIDE_IMAGES === "1" && out.ok) {
                        write_png(join(GUIDE_IMAGES, `guide_${name}.png`), SIZE * 4, SIZE * 4, upscale(data, 4));
                    }
                }
            }
            expect(out.failures, JSON.stringify(out.result)).toEqual([]);
            expect(out.ok).toBe(true);
        } finally {
            if (out.scratch) rmSync(out.scratch, { recursive: true, force: true });
        }
    }, 180_000);
});

describe("check_package's verdict on a frame (device-independent)", () => {
    const good = {
        systems_on: 2,
        systems_after_shutdown: 1,
        marker: [232, 149, 0, 255],
        trail: [91, 150, 182, 255],
        sky: [60, 78, 101, 255],
        trail_after_shutdown: [60, 78, 101, 255],
        marker_after_shutdown: [232, 149, 0, 255],
        errors: [] as string[],
    };
    it("accepts the frames the game renders", () => {
        expect(judge(good)).toEqual([]);
    });
    it("names each thing that is wrong", () => {
        expect(judge({ ...good, systems_after_shutdown: 2 })[0]).toMatch(/Trail3DSystem.shutdown left 2/);
        expect(judge({ ...good, trail: good.sky })[0]).toMatch(/trail pixel/);
        expect(judge({ ...good, marker: good.sky })[0]).toMatch(/marker pixel/);
        expect(judge({ ...good, trail_after_shutdown: good.trail })[0]).toMatch(/after the trail system's shutdown/);
        expect(judge({ ...good, errors: ["Validation error"] })[0]).toMatch(/Validation error/);
    });
});
