// The models sample in headless Chromium (WebGPU on SwiftShader): DamagedHelmet loaded with its five textures
// (decoded by the browser), the Royal Esplanade HDR prefiltered on the GPU, AO and bloom on. The picture has the
// helmet in the middle and the environment around it, and nothing is reported as an error.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, out_dir, static_server } from '../../esbuild.mjs';
import { CHROMIUM_ARGS } from '../../scripts/screenshot.mjs';
import { decode_png } from '../harness/png.js';
import { TEST_OUTPUT_DIR } from '../harness/expect_pixels.js';

describe('models sample in headless Chromium', () => {
  let server: Server;
  let base = '';
  let browser: Browser;

  beforeAll(async () => {
    // a folder of its own: the browser tests build at once
    const { outdir } = await build({ mode: 'dev', outdir: `${out_dir('dev')}-models-test` });
    server = static_server([outdir]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('draws the helmet under the environment after a few frames, with no console, page, HTTP or engine error', async () => {
    const page = await browser.newPage({ viewport: { width: 320, height: 240 }, deviceScaleFactor: 1 });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'assert') errors.push(`[${m.type()}] ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`[pageerror] ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`[http ${r.status()}] ${r.url()}`);
    });
    await page.goto(`${base}/models/?frames=4&still&inspector=0`);
    // a page error ends the wait at once, naming itself (rather than as a 180 s timeout)
    const failed = new Promise<never>((_, reject) => page.on('pageerror', (e) => reject(new Error(`models page error before done: ${e.message}`))));
    await Promise.race([
      page.waitForFunction(() => document.body.dataset.done === '1' || document.body.dataset.ready === 'no-webgpu', null, { timeout: 180_000 }),
      failed,
    ]);
    expect(await page.evaluate(() => document.body.dataset.ready)).toBe('1');
    const bytes = await page.locator('#view').screenshot();
    writeFileSync(join(TEST_OUTPUT_DIR, 'models_sample.png'), bytes);
    const image = decode_png(new Uint8Array(bytes));
    const mean = (x0: number, y0: number, x1: number, y1: number) => {
      let sum = 0;
      let n = 0;
      for (let y = Math.floor(y0 * image.height); y < Math.floor(y1 * image.height); y++) {
        for (let x = Math.floor(x0 * image.width); x < Math.floor(x1 * image.width); x++) {
          const i = (y * image.width + x) * 4;
          sum += image.rgba[i] + image.rgba[i + 1] + image.rgba[i + 2];
          n += 3;
        }
      }
      return sum / n;
    };
    // the helmet fills the middle; the environment's hall (not the flat sky colour, ~20/255) fills the edges
    expect(mean(0.4, 0.4, 0.6, 0.6)).toBeGreaterThan(20);
    expect(mean(0, 0, 0.15, 1)).toBeGreaterThan(40);
    expect(await page.evaluate(() => (window as unknown as { models: { errors: string[] } }).models.errors)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
