// End to end: the hello sample in headless Chromium with WebGPU on SwiftShader (TESTING.md, Path 2).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, out_dir } from '../../esbuild.mjs';
import { SUN_CORE } from '../../samples/hello/hello_extensions.js';
import { tonemapped } from '../harness/tonemap_reference.js';
import { decode_png } from '../harness/png.js';
import { TEST_OUTPUT_DIR } from '../harness/expect_pixels.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--enable-unsafe-webgpu',
  '--use-angle=swiftshader',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** A tiny static file server over `root` on a free port of 127.0.0.1. */
async function serve_dir(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path_name = new URL(req.url ?? '/', 'http://localhost').pathname;
    let file = normalize(join(root, decodeURIComponent(path_name)));
    if (path_name.endsWith('/')) file = join(file, 'index.html');
    if (!file.startsWith(root + sep) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

/**
 * Runs in the page before its scripts (page.addInitScript): every device the page requests reports its uncaptured
 * WebGPU errors (validation, out of memory, internal) as console errors, which the test fails on.
 */
function report_webgpu_errors(): void {
  if (typeof GPUAdapter === 'undefined') return;
  const request_device = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = async function (this: GPUAdapter, descriptor?: GPUDeviceDescriptor) {
    const device = await request_device.call(this, descriptor);
    device.addEventListener('uncapturederror', (event) => {
      console.error(`WebGPU uncaptured error: ${(event as GPUUncapturedErrorEvent).error.message}`);
    });
    return device;
  };
}

// Messages of the record guards: development builds keep them, production builds strip them.
const GUARD_MESSAGES = [
  'before the frame filled it in',
  'is frozen (read-only)',
  'with a superseded handle',
  'after its frame closed; records and their handles live for one frame',
];

describe('hello sample in headless Chromium (WebGPU on SwiftShader)', () => {
  const servers: Server[] = [];
  const base_urls: Record<string, string> = {};
  let browser: Browser | undefined;

  beforeAll(async () => {
    for (const mode of ['dev', 'prod'] as const) {
      // a folder of its own: the browser tests build at once
      const { outdir, samples } = await build({ mode, outdir: `${out_dir(mode)}-sample-test` });
      expect(samples).toContain('hello');
      const { server, url } = await serve_dir(outdir);
      servers.push(server);
      base_urls[mode] = url;
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('the production bundle carries none of the record guards, the development bundle all of them', () => {
    // the sample's entry and the chunks it shares with the others (the build splits shared code into chunks/)
    const bundle = (mode: 'dev' | 'prod'): string => {
      const dir = `${out_dir(mode)}-sample-test`;
      const chunks = readdirSync(join(dir, 'chunks')).filter((f) => f.endsWith('.js'));
      return [join(dir, 'hello', 'main.js'), ...chunks.map((f) => join(dir, 'chunks', f))].map((f) => readFileSync(f, 'utf8')).join('\n');
    };
    const prod = bundle('prod');
    const dev = bundle('dev');
    for (const message of GUARD_MESSAGES) {
      expect(dev, `dev bundle should keep '${message}'`).toContain(message);
      expect(prod, `prod bundle should not contain '${message}'`).not.toContain(message);
    }
  });

  for (const mode of ['dev', 'prod'] as const) {
    it(`${mode} build: the canvas shows the sun, tonemapped, with no console, page or WebGPU error, and API errors name real classes`, async () => {
      const page = await browser!.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
      const console_lines: string[] = [];
      const errors: string[] = [];
      page.on('console', (m) => {
        const line = `[${m.type()}] ${m.text()}`;
        console_lines.push(line);
        if (m.type() === 'error' || m.type() === 'assert') errors.push(line);
      });
      page.on('pageerror', (e) => {
        console_lines.push(`[pageerror] ${e.message}`);
        errors.push(`[pageerror] ${e.message}`);
      });
      // the console's "Failed to load resource" names no URL: name it
      page.on('response', (r) => {
        if (r.status() >= 400) errors.push(`[http ${r.status()}] ${r.url()}`);
      });
      await page.addInitScript(report_webgpu_errors);
      // the misuse probe: one deliberate frame.get at the wrong phase, caught by the page (see samples/hello/main.ts)
      await page.goto(`${base_urls[mode]}/hello/?probe=misuse`);

      // Wait for the first frame, or for the page to report an error in #status.
      await page
        .waitForFunction(
          () => document.body.dataset.frame === '1' || document.getElementById('status')?.classList.contains('error'),
          undefined,
          { timeout: 45_000 },
        )
        .catch(() => undefined);
      const frame = await page.evaluate(() => document.body.dataset.frame);
      if (frame !== '1') {
        const status = await page.locator('#status').textContent();
        throw new Error(`hello sample (${mode}) did not render a frame. #status: ${status}\nconsole:\n${console_lines.join('\n')}`);
      }
      // GPU errors arrive asynchronously: let a few more frames run and their work complete before judging
      await page.evaluate(() => new Promise<void>((done) => {
        let left = 3;
        const next = () => (--left === 0 ? setTimeout(done, 100) : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }));
      const status = await page.locator('#status').evaluate((e) => (e.classList.contains('error') ? e.textContent : null));
      if (status !== null) errors.push(`[#status error] ${status}`);
      expect(errors, `${mode} build: errors on the page:\n${errors.join('\n')}`).toEqual([]);

      // a production build keeps class names (esbuild keepNames): the message names SceneColor, not a mangled 'de'
      const probe = await page.evaluate(() => document.body.dataset.probe);
      expect(probe).toContain('frame.get(SceneColor) at Overlay: SceneColor is not carried at Overlay');
      const classes = await page.evaluate(() => document.body.dataset.classes);
      expect(classes?.split(',').sort()).toEqual(['FrameBorderExtension', 'MisuseProbeExtension', 'SunExtension']);

      mkdirSync(TEST_OUTPUT_DIR, { recursive: true });
      const screenshot_path = join(TEST_OUTPUT_DIR, `hello_${mode}.png`);
      await page.screenshot({ path: screenshot_path });
      const box = await page.locator('#view').boundingBox();
      expect(box).not.toBeNull();
      const shot = decode_png(readFileSync(screenshot_path));
      const cx = Math.round(box!.x + box!.width / 2);
      const cy = Math.round(box!.y + box!.height / 2);
      const i = (cy * shot.width + cx) * 4;
      const actual = Array.from(shot.rgba.subarray(i, i + 3));
      const expected = SUN_CORE.map((c) => Math.round(tonemapped(c)));
      const ok = actual.every((v, k) => Math.abs(v - expected[k]!) <= 4);
      expect(ok, `canvas centre (${cx}, ${cy}) is [${actual}], expected [${expected}] +/- 4; see ${screenshot_path}`).toBe(true);
      await page.close();
    });
  }
});
