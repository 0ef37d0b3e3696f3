// Proves the package works for someone else: packs it (`npm pack`, whose prepack script builds lib/), installs
// the tarball into a scratch project in the system temp folder (its dependencies from the npm registry), then,
// in that project, type-checks the guide's game (docs/example/, which imports only `shade-ts/...`) with this
// repository's tsc, bundles it with esbuild, and runs it on Dawn (the `webgpu` package, linked from this
// repository's node_modules), checking pixels of the frame it renders.
//
//   node scripts/check_package.mjs [--keep] [--json]
//
// Exit 0: passed. Exit 1: failed (the message says at which step). Exit 3: skipped because the npm registry is
// unreachable (offline); the message says so. --keep leaves the scratch project for inspection; --json prints
// the result as one JSON line at the end (the test reads it).
import * as esbuild from 'esbuild';
import { execFile as exec_file_cb } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ROOT, tsc_command } from './build_lib.mjs';

const exec_file = promisify(exec_file_cb);
export const SKIPPED = 3;
const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

class StepError extends Error {}

async function step(name, fn, timings) {
  const t0 = performance.now();
  try {
    return await fn();
  } catch (e) {
    const detail = [e.message, e.stdout, e.stderr].filter(Boolean).join('\n');
    throw new StepError(`check_package: ${name} failed:\n${detail}`);
  } finally {
    timings[name] = Math.round(performance.now() - t0);
  }
}

/** True when the npm registry answers (a short `npm ping`). */
async function registry_reachable() {
  try {
    await exec_file(NPM, ['ping', '--fetch-timeout=8000', '--fetch-retries=0'], { cwd: ROOT, timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/** What the game's frames must show; returns the failures (empty when it works). */
export function judge(result) {
  const failures = [];
  const near = (a, b, tol) => a.slice(0, 3).every((v, i) => Math.abs(v - b[i]) <= tol);
  const sky = result.sky;
  if (result.errors.length > 0) failures.push(`GPU or engine errors: ${result.errors.join(' | ')}`);
  if (result.systems_after_shutdown !== result.systems_on - 1) {
    failures.push(`Trail3DSystem.shutdown left ${result.systems_after_shutdown} AfterTransparency extensions, expected ${result.systems_on - 1}`);
  }
  const [r, g, b] = result.marker;
  if (!(r > 200 && g < 175 && b < 60)) failures.push(`marker pixel ${result.marker} is not the marker's orange-red`);
  const [tr, , tb] = result.trail;
  if (!(tb > tr + 40 && !near(result.trail, sky, 10))) failures.push(`trail pixel ${result.trail} is not the trail's blue (sky ${sky})`);
  if (!near(result.trail_after_shutdown, sky, 4)) failures.push(`after the trail system's shutdown the trail pixel is ${result.trail_after_shutdown}, not the sky ${sky}`);
  if (!(result.marker_after_shutdown[0] > 200 && result.marker_after_shutdown[2] < 60)) failures.push(`after the trail system's shutdown the marker is gone (${result.marker_after_shutdown})`);
  return failures;
}

export async function check_package({ keep = false } = {}) {
  const timings = {};
  const t0 = performance.now();
  if (!(await registry_reachable())) {
    return { skipped: 'the npm registry is unreachable (offline): the pack-install-run check of the package was not run', timings };
  }
  const scratch = mkdtempSync(join(tmpdir(), 'shade-ts-package-'));
  try {
    const packed = await step(
      'npm pack (its prepack script builds lib/)',
      async () => {
        const { stdout } = await exec_file(NPM, ['pack', '--json', '--pack-destination', scratch], { cwd: ROOT, maxBuffer: 64 << 20 });
        // the prepack script's output comes first
        const [info] = JSON.parse(stdout.slice(stdout.search(/^\[/m)));
        const files = info.files.map((f) => f.path);
        for (const needed of ['lib/dev/shade/index.js', 'lib/prod/engine/Engine.js', 'lib/types/systems/index.d.ts', 'package.json']) {
          if (!files.includes(needed)) throw new Error(`the tarball lacks ${needed}`);
        }
        const stray = files.filter((f) => !f.startsWith('lib/') && !/^(package\.json|README\.md|LICENSE)$/i.test(f));
        if (stray.length > 0) throw new Error(`the tarball holds files outside lib/: ${stray.slice(0, 5).join(', ')}`);
        return { tarball: join(scratch, info.filename), files: files.length, size: info.size };
      },
      timings,
    );
    const project = join(scratch, 'game');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'scratch-game', private: true, type: 'module', dependencies: { 'shade-ts': `file:${packed.tarball}` } }, null, 2),
    );
    await step(
      'npm install of the tarball',
      () => exec_file(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: project, timeout: 120_000 }),
      timings,
    );
    // the consumer sees the package as installed, not this repository
    if (existsSync(join(project, 'node_modules', 'shade-ts', 'shade'))) throw new StepError('check_package: the installed package has TypeScript sources');
    // Dawn is a 40 MB native addon: link the repository's copy rather than download it again
    symlinkSync(join(ROOT, 'node_modules', 'webgpu'), join(project, 'node_modules', 'webgpu'), 'dir');
    for (const f of readdirSync(join(ROOT, 'docs', 'example'))) cpSync(join(ROOT, 'docs', 'example', f), join(project, 'src', f));
    // A game's strict tsconfig that lists no types: the package's declarations bring the WebGPU types themselves.
    // skipLibCheck as every template has it: TypeScript 7's lib.dom declares WebGPU as well, and @webgpu/types
    // (which TypeScript 5 consumers need) redeclares its type aliases; the game's own use of ours is checked.
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2022', 'DOM'],
            types: [],
            strict: true,
            noEmit: true,
            skipLibCheck: true,
          },
          include: ['src/**/*.ts'],
        },
        null,
        2,
      ),
    );
    await step(
      'type-check of the game (tsc)',
      () => {
        const [node, tsc] = tsc_command();
        return exec_file(node, [tsc, '-p', project], { cwd: project, timeout: 60_000 });
      },
      timings,
    );
    await step(
      'esbuild bundle of the game',
      () =>
        esbuild.build({
          absWorkingDir: project,
          // game.ts for run_node.mjs; main.ts is the browser page's entry
          entryPoints: [join(project, 'src', 'game.ts'), join(project, 'src', 'main.ts')],
          outdir: join(project, 'src'),
          bundle: true,
          format: 'esm',
          platform: 'browser',
          target: 'es2022',
          logLevel: 'silent',
        }),
      timings,
    );
    const run_game = async (conditions, out_dir) => {
      const env = { ...process.env };
      if (!env.VK_ICD_FILENAMES && !env.VK_DRIVER_FILES) env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
      const args = [...conditions, join(project, 'src', 'run_node.mjs'), out_dir];
      const { stdout } = await exec_file(process.execPath, args, { cwd: project, env, timeout: 60_000 });
      const line = stdout.trim().split('\n').pop();
      return JSON.parse(line);
    };
    const result = await step('run on Dawn', () => run_game([], scratch), timings);
    // the "production" export condition resolves lib/prod/ (guards stripped): the same game must draw the same
    const production_dir = join(scratch, 'production');
    mkdirSync(production_dir);
    const production = await step('run on Dawn, production build', () => run_game(['--conditions=production'], production_dir), timings);
    const failures = [...judge(result), ...judge(production).map((f) => `production build: ${f}`)];
    if (!String(result.resolved).includes('/lib/dev/')) failures.push(`the default conditions resolved ${result.resolved}, not lib/dev/`);
    if (!String(production.resolved).includes('/lib/prod/')) failures.push(`--conditions=production resolved ${production.resolved}, not lib/prod/`);
    timings.total = Math.round(performance.now() - t0);
    return { ok: failures.length === 0, failures, result, production, packed, scratch: keep ? scratch : null, frames_dir: keep ? scratch : null, timings };
  } finally {
    if (!keep) rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const keep = process.argv.includes('--keep');
  const json = process.argv.includes('--json');
  check_package({ keep })
    .then((out) => {
      if (json) console.log(JSON.stringify(out));
      if (out.skipped) {
        console.error(`check_package: SKIPPED: ${out.skipped}`);
        process.exit(SKIPPED);
      }
      if (!out.ok) {
        console.error(`check_package: FAILED:\n  ${out.failures.join('\n  ')}\n${JSON.stringify(out.result)}`);
        process.exit(1);
      }
      if (!json) {
        console.log(
          `check_package: ok: ${out.packed.files} files (${out.packed.size} bytes packed) installed, type-checked, bundled and run on Dawn ` +
            `in ${out.timings.total} ms (${Object.entries(out.timings).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${v} ms`).join(', ')})` +
            (out.scratch ? `; scratch project kept at ${out.scratch}` : ''),
        );
      }
    })
    .catch((e) => {
      console.error(e.message ?? e);
      process.exit(1);
    });
}
