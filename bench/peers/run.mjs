// The peers benchmark's runner (issue 14): the same workload on this engine, three.js, PlayCanvas, Babylon.js and
// hand-written WebGPU, in Debian's headless Chromium on SwiftShader, in one run.
//   node bench/peers/run.mjs [--rounds N] [--frames N] [--warm N] [--garbage-warm N] [--garbage-frames N] [--only a,b]
//                            [--profile name] [--no-screenshots] [--no-minify] [--no-build] [--no-garbage] [--uploads] [--sites N]
//   (npm run bench:peers -- ...)
// Every bench/peers/variants/<name>.ts is bundled with page.ts (minified, production defines) into
// bench/output/peers/<name>/. Each round opens every variant in a fresh browser, in alternating order (reversed on
// odd rounds), so that warm caches and thermal drift do not favour one. The page drains the GPU between frames and
// times update (ribbon rewrite) and render/submit separately; this prints pooled medians and p90 over all rounds,
// the ratios to raw and to each three.js variant, the JS heap growth over the timed frames (garbage) and what stays
// after a gc() (retained), and checks the issue's goals. Screenshots of the last frame go to
// bench/output/peers/screenshots/<name>.png. --profile <name> records a V8 CPU profile of that variant's timed frames
// (one extra run), prints the functions with the most self time and writes it to bench/output/peers/<name>.cpuprofile.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { CHROMIUM_ARGS } from '../../scripts/screenshot.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(dirname(HERE));
const OUT = process.env.PEERS_OUT ?? join(ROOT, 'bench', 'output', 'peers');

const args = process.argv.slice(2);
function flag(name, fallback) {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
}
const ROUNDS = Number(flag('--rounds', 3));
const FRAMES = Number(flag('--frames', 120));
const WARM = Number(flag('--warm', 60));
// the garbage run: longer warm-up, so that code run once per frame (a camera's matrices) is optimized as a
// game's would be after ten seconds, then the issue's 300 frames
const GARBAGE_WARM = Number(flag('--garbage-warm', 600));
const GARBAGE_FRAMES = Number(flag('--garbage-frames', 300));
const ONLY = flag('--only', '')
  .split(',')
  .filter((s) => s !== '');
const PROFILE = flag('--profile', '');
const SCREENSHOTS = !args.includes('--no-screenshots');
// readable names in profiles and allocation sites
const MINIFY = !args.includes('--no-minify');
// --no-garbage: skip the sampled-garbage runs (a quick look, or the picture test)
const GARBAGE = !args.includes('--no-garbage');
// --uploads: one more run per variant counting queue.writeBuffer calls and bytes per timed frame, by buffer label
const UPLOADS = args.includes('--uploads');
// --sites N: how many allocation sites to print per variant (default 4)
const SITES = Number(flag('--sites', 4));

const all = readdirSync(join(HERE, 'variants'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => f.slice(0, -3))
  .sort();
for (const name of ONLY) if (!all.includes(name)) throw new Error(`peers: no variant '${name}' (have: ${all.join(', ')})`);
const variants = ONLY.length > 0 ? ONLY : all;

// --- build -------------------------------------------------------------------------------------------------------
async function build(name) {
  const dir = join(OUT, name);
  mkdirSync(dir, { recursive: true });
  const variant_file = join(HERE, 'variants', `${name}.ts`);
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [join(HERE, 'page.ts')],
    outfile: join(dir, 'page.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: MINIFY,
    keepNames: true,
    define: { __SHADE_DEBUG__: 'false', 'process.env.NODE_ENV': '"production"' },
    dropLabels: ['DEBUG'],
    conditions: ['production'],
    logLevel: 'error',
    plugins: [
      {
        name: 'peers-variant',
        setup(b) {
          b.onResolve({ filter: /^@variant$/ }, () => ({ path: variant_file }));
        },
      },
    ],
  });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>peers: ${name}</title><link rel="icon" href="data:,"><body><script type="module" src="./page.js"></script></body>\n`,
  );
}

// Cross-origin isolated (COOP + COEP), so that performance.now() has 5 us resolution instead of 100 us.
function server_for(root) {
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, {
      'content-type': file.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8',
      'cache-control': 'no-store',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    res.end(await readFile(file));
  });
}

// --- run ---------------------------------------------------------------------------------------------------------
const BROWSER_ARGS = [...CHROMIUM_ARGS, '--js-flags=--expose-gc', '--enable-precise-memory-info'];

async function run_one(base, name, { screenshot = false, profile = false, garbage = false, uploads = false } = {}) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    const query = garbage ? `warm=${GARBAGE_WARM}&frames=${GARBAGE_FRAMES}&hold=1` : `warm=${WARM}&frames=${FRAMES}${profile ? '&hold=1' : ''}`;
    await page.goto(`${base}/${name}/?${query}${uploads ? '&uploads=1' : ''}`);
    let cdp = null;
    if (profile || garbage) {
      await page.waitForFunction(() => window.peers?.held === true || window.peers?.done === true, null, { timeout: 600_000, polling: 100 });
      cdp = await page.context().newCDPSession(page);
      if (profile) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
      } else {
        // every sampled allocation, also those a GC collected before the end: the garbage of the timed frames
        await cdp.send('HeapProfiler.enable');
        await cdp.send('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      }
      await page.evaluate(() => window.peers_resume?.());
    }
    await page.waitForFunction(() => window.peers?.done === true, null, { timeout: 600_000, polling: 200 });
    const result = await page.evaluate(() => window.peers);
    let hot = null;
    let allocated = NaN;
    if (profile) {
      const recorded = (await cdp.send('Profiler.stop')).profile;
      // the whole profile too, for a look at inclusive times (Chrome's DevTools opens it)
      writeFileSync(join(OUT, `${name}.cpuprofile`), JSON.stringify(recorded));
      hot = summarize_profile(recorded);
    }
    let sites = null;
    if (garbage) {
      const head = (await cdp.send('HeapProfiler.stopSampling')).profile.head;
      allocated = sampled_bytes(head);
      sites = allocation_sites(head);
    }
    if (result.error !== null) throw new Error(`peers: ${name} failed in the page: ${result.error}`);
    if (errors.length > 0) console.warn(`peers: ${name} console errors:\n  ${errors.slice(0, 5).join('\n  ')}`);
    if (screenshot) {
      mkdirSync(join(OUT, 'screenshots'), { recursive: true });
      await page.screenshot({ path: join(OUT, 'screenshots', `${name}.png`) });
    }
    return { ...result, hot, allocated, sites };
  } finally {
    await browser.close();
  }
}

/** Self time per function (ms) from a V8 CPU profile, the top 25, with the total sampled time. */
function summarize_profile(profile) {
  const self = new Map();
  const by_id = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  let total = 0;
  for (const [id, ms] of dt) {
    const n = by_id.get(id);
    const f = n.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const file = f.url.split('/').slice(-2).join('/');
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    total += ms;
  }
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return { total, top };
}

/** Estimated bytes allocated: the sampling heap profiler's self sizes are already scaled to the allocations they stand for. */
function sampled_bytes(node) {
  let sum = node.selfSize;
  for (const child of node.children) sum += sampled_bytes(child);
  return sum;
}

/** The SITES allocation sites with the most sampled bytes, each as 'bytes function file:line <- caller'. */
function allocation_sites(head) {
  const rows = [];
  const walk = (node, stack) => {
    const f = node.callFrame;
    const here = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    const next = [here, ...stack];
    if (node.selfSize > 0) rows.push([node.selfSize, next.slice(0, SITES > 4 ? 5 : 3).join(' <- ')]);
    for (const child of node.children) walk(child, next);
  };
  walk(head, []);
  return rows.sort((a, b) => b[0] - a[0]).slice(0, SITES);
}

// --- statistics --------------------------------------------------------------------------------------------------
function quantile(values, q) {
  const s = Float64Array.from(values).sort();
  if (s.length === 0) return NaN;
  const i = Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))));
  return s[i];
}
const ms = (x) => (Number.isFinite(x) ? x.toFixed(3).padStart(8) : '       -');
const kb = (x) => (Number.isFinite(x) ? (x / 1024).toFixed(0).padStart(7) : '      -');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : '-');

// --- main --------------------------------------------------------------------------------------------------------
const started = Date.now();
// --no-build: run the bundles as they are (to try an edit in a bundle)
if (!args.includes('--no-build')) for (const name of new Set([...variants, ...(PROFILE ? [PROFILE] : [])])) await build(name);
const server = server_for(OUT);
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const pooled = new Map(variants.map((v) => [v, { update: [], render: [], total: [], garbage: [], retained: [], allocated: NaN, round_render: [] }]));
try {
  console.log(`peers: ${variants.length} variants x ${ROUNDS} rounds, ${WARM} warm + ${FRAMES} timed frames each, Chromium on SwiftShader`);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const name of order) {
      const r = await run_one(base, name, { screenshot: SCREENSHOTS && round === 0 });
      const p = pooled.get(name);
      p.update.push(...r.update);
      p.render.push(...r.render);
      for (let i = 0; i < r.update.length; i++) p.total.push(r.update[i] + r.render[i]);
      p.round_render.push(quantile(r.render, 0.5));
      if (r.heap_start >= 0) {
        p.garbage.push(r.heap_end - r.heap_start);
        p.retained.push(r.heap_after_gc - r.heap_start);
      }
      console.log(`  round ${round + 1} ${name.padEnd(18)} update ${ms(quantile(r.update, 0.5))}  render ${ms(quantile(r.render, 0.5))} ms (medians)`);
    }
  }
  // one more run each with the sampling heap profiler on (it slows allocation, so never in the timed rounds)
  const sites = new Map();
  for (const name of GARBAGE ? variants : []) {
    const r = await run_one(base, name, { garbage: true });
    pooled.get(name).allocated = r.allocated;
    sites.set(name, r.sites);
  }
  if (GARBAGE) console.log(`\nwhere the garbage of ${GARBAGE_FRAMES} frames (after ${GARBAGE_WARM} warm) is allocated (sampled, KiB):`);
  for (const [name, rows] of sites) {
    console.log(`  ${name}`);
    for (const [bytes, where] of rows) console.log(`    ${(bytes / 1024).toFixed(1).padStart(9)}  ${where}`);
  }
  if (UPLOADS) console.log(`\nqueue.writeBuffer per timed frame (${FRAMES} frames): calls, KiB, and by buffer label`);
  for (const name of UPLOADS ? variants : []) {
    const r = await run_one(base, name, { uploads: true });
    const rows = r.uploads.sort((a, b) => b.bytes - a.bytes);
    const calls = rows.reduce((s, u) => s + u.calls, 0) / FRAMES;
    const bytes = rows.reduce((s, u) => s + u.bytes, 0) / FRAMES;
    console.log(`  ${name.padEnd(18)} ${calls.toFixed(2).padStart(7)} calls ${(bytes / 1024).toFixed(1).padStart(9)} KiB`);
    for (const u of rows) console.log(`    ${(u.calls / FRAMES).toFixed(2).padStart(7)} calls ${(u.bytes / FRAMES / 1024).toFixed(1).padStart(9)} KiB  ${u.label || '(no label)'}`);
  }
  if (PROFILE) {
    const r = await run_one(base, PROFILE, { profile: true });
    console.log(`\nCPU profile of ${PROFILE}'s ${FRAMES} timed frames (self time, ${r.hot.total.toFixed(0)} ms sampled, GPU drain waits included as idle):`);
    for (const [key, t] of r.hot.top) console.log(`  ${t.toFixed(1).padStart(8)} ms  ${((100 * t) / r.hot.total).toFixed(1).padStart(5)}%  ${key}`);
  }
} finally {
  server.close();
}

const stat = new Map(
  [...pooled].map(([name, p]) => [
    name,
    {
      update: quantile(p.update, 0.5),
      update90: quantile(p.update, 0.9),
      render: quantile(p.render, 0.5),
      render90: quantile(p.render, 0.9),
      total: quantile(p.total, 0.5),
      total90: quantile(p.total, 0.9),
      garbage: quantile(p.garbage, 0.5),
      retained: quantile(p.retained, 0.5),
      allocated: p.allocated,
      spread: `${Math.min(...p.round_render).toFixed(2)}-${Math.max(...p.round_render).toFixed(2)}`,
    },
  ]),
);
const get = (name, key) => stat.get(name)?.[key] ?? NaN;
const threes = variants.filter((v) => v.startsWith('three'));
console.log(`\nper frame, main-thread JS, ms: median and p90 over ${ROUNDS} rounds x ${FRAMES} frames; KiB: allocated over ${GARBAGE_FRAMES} frames after ${GARBAGE_WARM} warm (sampled: the garbage), heap growth and retained after gc() over the ${FRAMES} timed frames`);
console.log(
  `${'variant'.padEnd(18)}   update      p90   render      p90    total      p90  render/raw  ${threes.map((t) => `total/${t}`.padStart(18)).join('')}  allocated  growth retained  render per round`,
);
for (const name of variants) {
  console.log(
    `${name.padEnd(18)} ${ms(get(name, 'update'))} ${ms(get(name, 'update90'))} ${ms(get(name, 'render'))} ${ms(get(name, 'render90'))} ${ms(get(name, 'total'))} ${ms(get(name, 'total90'))} ${ratio(get(name, 'render'), get('raw', 'render')).padStart(11)}  ${threes.map((t) => ratio(get(name, 'total'), get(t, 'total')).padStart(18)).join('')}  ${kb(get(name, 'allocated')).padStart(9)} ${kb(get(name, 'garbage'))} ${kb(get(name, 'retained'))}   ${stat.get(name).spread}`,
  );
}

// --- the issue's goals -------------------------------------------------------------------------------------------
const ours = variants.filter((v) => v.startsWith('ours'));
const peers_taught = variants.filter((v) => v.endsWith('_taught') && !v.startsWith('ours'));
const peers_best = variants.filter((v) => v.endsWith('_best') && !v.startsWith('ours'));
const fastest = (list, key) => list.reduce((best, v) => (get(v, key) < get(best, key) ? v : best), list[0]);
if (ours.length > 0) {
  console.log('\ngoals (render/submit medians unless named):');
  const goal = (text, value, limit) => console.log(`  ${value <= limit ? 'met   ' : 'MISSED'} ${text}: ${Number.isFinite(value) ? value.toFixed(2) : '-'}x (goal <= ${limit}x)`);
  // like against like: ours as taught against the peers as taught, ours at its best against their best and raw
  for (const o of ours) {
    const taught = o.endsWith('_taught');
    if (taught && peers_taught.length > 0) {
      const f = fastest(peers_taught, 'render');
      goal(`${o} vs the fastest peer as taught (${f})`, get(o, 'render') / get(f, 'render'), 0.1);
    }
    if (!taught && peers_best.length > 0) {
      const f = fastest(peers_best.filter((v) => !v.startsWith('ours')), 'render');
      goal(`${o} vs the fastest peer at its best (${f})`, get(o, 'render') / get(f, 'render'), 0.8);
    }
    if (!taught && variants.includes('raw')) goal(`${o} vs raw hand-written WebGPU`, get(o, 'render') / get('raw', 'render'), 1.3);
    if (variants.includes('three_taught')) goal(`${o} total frame vs three_taught total`, get(o, 'total') / get('three_taught', 'total'), 0.33);
    if (GARBAGE && variants.includes('raw')) {
      const g = get(o, 'allocated');
      const r = get('raw', 'allocated');
      console.log(`  ${g <= r ? 'met   ' : 'MISSED'} ${o} garbage (allocated) per ${GARBAGE_FRAMES} frames ${kb(g).trim()} KiB vs raw ${kb(r).trim()} KiB (goal: no more than raw)`);
    }
  }
}
if (SCREENSHOTS) console.log(`\nscreenshots: ${join(OUT, 'screenshots')}/<variant>.png`);
console.log(`peers: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (!existsSync(OUT)) process.exit(1);
