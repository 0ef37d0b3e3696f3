// End to end: the hello sample in headless Chromium with WebGPU on SwiftShader (TESTING.md, Path 2).
import { existsSync, readFileSync } from 'node:fs';
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
      const { outdir, samples } = await build({ mode });
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
    const prod = readFileSync(join(out_dir('prod'), 'hello', 'main.js'), 'utf8');
    const dev = readFileSync(join(out_dir('dev'), 'hello', 'main.js'), 'utf8');
    for (const message of GUARD_MESSAGES) {
      expect(dev, `dev bundle should keep '${message}'`).toContain(message);
      expect(prod, `prod bundle should not contain '${message}'`).not.toContain(message);
    }
  });

  for (const mode of ['dev', 'prod'] as const) {
    it(`${mode} build: renders through the GraphicsEngine and the canvas shows the sun, tonemapped`, async () => {
      const page = await browser!.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
      const console_lines: string[] = [];
      page.on('console', (m) => console_lines.push(`[${m.type()}] ${m.text()}`));
      page.on('pageerror', (e) => console_lines.push(`[pageerror] ${e.message}`));
      await page.goto(`${base_urls[mode]}/hello/`);

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
