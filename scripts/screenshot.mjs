// Writes a PNG of a sample after N frames, rendered headless in Debian's Chromium on SwiftShader.
//   node scripts/screenshot.mjs [sample] [out.png] [--frames N] [--size WxH] [--prod]
// Defaults: skirmish, screenshots/<sample>.png, 90 frames, 960x540, the dev build.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build, out_dir, ROOT, static_server } from '../esbuild.mjs';

export const CHROMIUM_ARGS = [
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

/** Renders `sample` for `frames` fixed steps and writes `out`; returns the page's console errors. */
export async function screenshot({ sample = 'skirmish', out, frames = 90, width = 960, height = 540, mode = 'dev' } = {}) {
  await build({ mode });
  const server = static_server([out_dir(mode)]);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/${sample}/?frames=${frames}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const errors = [];
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.done === '1' || document.body.dataset.ready === 'no-webgpu', null, { timeout: 240_000 });
    const target = out ?? join(ROOT, 'screenshots', `${sample}.png`);
    mkdirSync(dirname(target), { recursive: true });
    await page.screenshot({ path: target });
    // what the engine reported through on_error (a sample that keeps them in window.skirmish.errors)
    errors.push(...(await page.evaluate(() => globalThis.skirmish?.errors ?? [])));
    return { path: target, errors };
  } finally {
    await browser.close();
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(name);
    if (i === -1) return undefined;
    const [value] = args.splice(i, 2).slice(1);
    return value;
  };
  const frames = Number(flag('--frames') ?? 90);
  const size = (flag('--size') ?? '960x540').split('x').map(Number);
  const prod = args.includes('--prod');
  const positional = args.filter((a) => a !== '--prod');
  const result = await screenshot({
    sample: positional[0] ?? 'skirmish',
    out: positional[1] ? resolve(positional[1]) : undefined,
    frames,
    width: size[0],
    height: size[1],
    mode: prod ? 'prod' : 'dev',
  });
  console.log(`wrote ${result.path}`);
  if (result.errors.length > 0) {
    console.error(`console errors:\n${result.errors.join('\n')}`);
    process.exit(1);
  }
}
