// Engine.run() on the browser's requestAnimationFrame, in headless Chromium with WebGPU on SwiftShader
// (TESTING.md, Path 2): frames advance the systems with real frame times, stop_running stops them, the system's
// extension draws on the canvas, and level loading (TypeBox's compiled validator) works in the browser.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode_png } from "../harness/png.js";
import { TEST_OUTPUT_DIR } from "../harness/expect_pixels.js";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
    "--enable-unsafe-webgpu",
    "--use-angle=swiftshader",
    "--enable-features=Vulkan",
    "--use-vulkan=swiftshader",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
];
const OUT = join(TEST_OUTPUT_DIR, "engine_browser");
const HTML = `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;background:#000}canvas{display:block;width:64px;height:64px}</style></head>
<body><canvas id="view"></canvas><script type="module" src="./page.js"></script></body></html>`;

describe("Engine.run in headless Chromium (WebGPU on SwiftShader)", () => {
    let server: Server | undefined;
    let url = "";
    let browser: Browser | undefined;

    beforeAll(async () => {
        mkdirSync(OUT, { recursive: true });
        await build({
            entryPoints: [join(__dirname, "browser", "engine_run_page.ts")],
            outfile: join(OUT, "page.js"),
            bundle: true,
            format: "esm",
            platform: "browser",
            target: "es2022",
            define: { __SHADE_DEBUG__: "true" },
            logLevel: "error",
        });
        writeFileSync(join(OUT, "index.html"), HTML);
        server = createServer((req, res) => {
            const file = req.url?.startsWith("/page.js") ? "page.js" : "index.html";
            res.writeHead(200, { "content-type": file === "page.js" ? "text/javascript" : "text/html" }).end(readFileSync(join(OUT, file)));
        });
        await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
        url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    });

    afterAll(async () => {
        await browser?.close();
        if (server !== undefined) await new Promise<void>((resolve) => server!.close(() => resolve()));
    });

    it("run() updates the systems every animation frame until stop_running, and the system's extension is on the canvas", async () => {
        const page = await browser!.newPage({ viewport: { width: 64, height: 64 }, deviceScaleFactor: 1 });
        const errors: string[] = [];
        page.on("console", (m) => {
            if (m.type() === "error") errors.push(m.text());
        });
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto(url);
        await page.waitForFunction(() => document.body.dataset.drawn !== undefined || document.body.dataset.done !== undefined, undefined, {
            timeout: 45_000,
        });
        expect(errors).toEqual([]);
        expect(await page.evaluate(() => document.body.dataset.done)).toBeUndefined();

        const path = join(OUT, "engine_run.png");
        await page.screenshot({ path });
        const shot = decode_png(readFileSync(path));
        const at = (x: number, y: number): number[] => Array.from(shot.rgba.subarray((y * shot.width + x) * 4, (y * shot.width + x) * 4 + 3));
        const top = at(32, 6);
        const bottom = at(32, 58);
        expect(top[1] > 200 && top[0] < 40 && top[2] < 40, `top of the canvas [${top}] should be the green stripe; see ${path}`).toBe(true);
        expect(bottom[1] < 150, `bottom of the canvas [${bottom}] should be the sky, not the stripe; see ${path}`).toBe(true);

        await page.evaluate(async () => (globalThis as unknown as { stop_engine: () => Promise<void> }).stop_engine());
        const data = await page.evaluate(() => ({ ...document.body.dataset }));
        expect(errors).toEqual([]);
        expect(data.done).toBe("1");
        expect(Number(data.running_updates)).toBeGreaterThanOrEqual(10);
        expect(Number(data.updates)).toBeGreaterThanOrEqual(Number(data.running_updates));
        expect(Number(data.seconds)).toBeGreaterThan(0);
        expect(data.running).toBe("false");
        expect(data.updates_later).toBe(data.updates);
        expect(JSON.parse(data.saved!)).toEqual({
            version: 1,
            entities: [{ name: "a", Transform: { position: [1.5, 2, 3], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }],
        });
        expect(data.error).toBe('load_level: entities[0].Transform.scale[1]: got "x"; expected a finite number');
        await page.close();
    });
});
