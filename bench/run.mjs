// Runs the benchmarks: `npm run bench` (all) or `npm run bench -- <filter>...` (those whose file name contains
// one of the filters: `frame_graph` runs both frame graph benches, `frame_graph.bench` only the Dawn one).
// Each bench/*.bench.ts is bundled with esbuild into bench/output/<name>.mjs (webgpu left external,
// __SHADE_DEBUG__ false, as in the production build) and run with node, one after another.
// VK_ICD_FILENAMES defaults to Chromium's SwiftShader when neither it nor VK_DRIVER_FILES is set.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BENCH_DIR);
const OUT_DIR = join(BENCH_DIR, 'output');
const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = readdirSync(BENCH_DIR)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .map((file) => file.slice(0, -'.bench.ts'.length))
  .sort();
if (names.length === 0) {
  console.error(`bench: no bench/*.bench.ts matches ${filters.map((f) => `'${f}'`).join(', ')}`);
  process.exit(1);
}

mkdirSync(OUT_DIR, { recursive: true });
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: names.map((name) => ({ in: join('bench', `${name}.bench.ts`), out: name })),
  outdir: OUT_DIR,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['webgpu'],
  define: { __SHADE_DEBUG__: 'false' },
  dropLabels: ['DEBUG'],
  sourcemap: 'linked',
  logLevel: 'warning',
});

const env = { ...process.env };
if (!env.VK_ICD_FILENAMES && !env.VK_DRIVER_FILES) env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;

let failed = 0;
for (const name of names) {
  const file = join(OUT_DIR, `${name}.mjs`);
  console.log(`\n=== ${name} (node --expose-gc ${file}) ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', file], { cwd: ROOT, env, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failed++;
    console.error(`=== ${name} failed (${result.signal ?? `exit ${result.status}`}) after ${seconds} s ===`);
  } else {
    console.log(`=== ${name} done in ${seconds} s ===`);
  }
}
process.exit(failed === 0 ? 0 : 1);
