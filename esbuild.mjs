// Builds and serves the samples.
//   node esbuild.mjs build          dev build into dist/dev and production build into dist/prod
//   node esbuild.mjs build dev|prod one of them
//   node esbuild.mjs serve          dev build, rebuilt on change, served on http://127.0.0.1:$PORT (8080)
// Every folder under samples/ with a main.ts is a sample: samples/<name>/main.ts -> dist/<mode>/<name>/main.js,
// and the folder's other files (index.html, levels, assets) are copied beside it.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = dirname(fileURLToPath(import.meta.url));
export const SAMPLES_DIR = join(ROOT, 'samples');
export const DIST_DIR = join(ROOT, 'dist');

/** Names of the folders under samples/ that have a main.ts, sorted. */
export function sample_names() {
  if (!existsSync(SAMPLES_DIR)) return [];
  return readdirSync(SAMPLES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(SAMPLES_DIR, d.name, 'main.ts')))
    .map((d) => d.name)
    .sort();
}

/** Output folder of a build mode. */
export function out_dir(mode) {
  return join(DIST_DIR, mode);
}

function check_mode(mode) {
  if (mode !== 'dev' && mode !== 'prod') throw new Error(`esbuild.mjs: mode must be 'dev' or 'prod', got '${mode}'`);
}

/** The esbuild options of a mode, writing into `outdir` (exported so tests can inspect them). */
export function esbuild_options(mode, outdir = out_dir(mode)) {
  check_mode(mode);
  const dev = mode === 'dev';
  return {
    absWorkingDir: ROOT,
    entryPoints: sample_names().map((name) => ({ in: join('samples', name, 'main.ts'), out: join(name, 'main') })),
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // the glTF loader's parts (glTF-Transform, the meshopt and Draco decoders) are dynamic imports: chunks of their
    // own, fetched when a sample first loads a model (Draco only for a file that needs it)
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Node's modules, named by code paths that run only in Node (the file reader, the image decoder's workers,
    // draco3dgltf's Node loader): never fetched in a browser
    external: ['node:*', 'fs', 'path'],
    define: { __SHADE_DEBUG__: dev ? 'true' : 'false' },
    sourcemap: dev,
    minify: !dev,
    // class names appear in API errors ("frame.get(SceneColor) at Overlay: ...") and in describe(): a minified
    // build must keep them
    keepNames: true,
    dropLabels: dev ? [] : ['DEBUG'],
    legalComments: dev ? 'inline' : 'none',
    logLevel: 'warning',
    metafile: true,
  };
}

function copy_static(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isDirectory()) {
      copy_static(src, dst);
    } else if (entry.isFile() && !entry.name.endsWith('.ts')) {
      mkdirSync(to, { recursive: true });
      copyFileSync(src, dst);
    }
  }
}

function escape_html(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

// A sample's one-line description: the <meta name="description"> of its index.html.
function sample_description(name) {
  const html = join(SAMPLES_DIR, name, 'index.html');
  if (!existsSync(html)) return '';
  const match = /<meta name="description" content="([^"]*)"/.exec(readFileSync(html, 'utf8'));
  return match ? match[1] : '';
}

function index_page(names, mode) {
  const items = names
    .map((n) => {
      const about = sample_description(n);
      return `      <li><a href="./${encodeURIComponent(n)}/">${escape_html(n)}</a>${about ? ` <span>${escape_html(about)}</span>` : ''}</li>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Shade-TS samples</title>
    <link rel="icon" href="data:," />
    <style>
      body { margin: 0; min-height: 100vh; background: #111318; color: #d8dde6; font: 16px/1.5 system-ui, sans-serif;
             display: flex; flex-direction: column; align-items: center; justify-content: center; }
      h1 { font-weight: 600; letter-spacing: 0.02em; }
      a { color: #7fb2ff; }
      small, li span { color: #7c8594; }
      li { margin: 6px 0; }
    </style>
  </head>
  <body>
    <h1>Shade-TS samples</h1>
    <ul>
${items}
    </ul>
    <small>${mode} build</small>
  </body>
</html>
`;
}

function write_statics(mode, outdir = out_dir(mode)) {
  const names = sample_names();
  for (const name of names) copy_static(join(SAMPLES_DIR, name), join(outdir, name));
  // the third-party models the samples load (samples/assets/, with their licences), beside the samples
  if (existsSync(join(SAMPLES_DIR, 'assets'))) copy_static(join(SAMPLES_DIR, 'assets'), join(outdir, 'assets'));
  mkdirSync(outdir, { recursive: true });
  writeFileSync(join(outdir, 'index.html'), index_page(names, mode));
  return names;
}

/**
 * Builds every sample in one mode: 'dev' (debug checks on, source maps) into dist/dev, or 'prod'
 * (`__SHADE_DEBUG__` false, `DEBUG:` blocks dropped, minified) into dist/prod; into `outdir` instead where given
 * (the browser tests run at once, each with a folder of its own: one build emptying a folder another test's
 * page is loading from had hung that page). Returns the output folder and the sample names.
 */
export async function build({ mode = 'dev', outdir = out_dir(mode) } = {}) {
  check_mode(mode);
  rmSync(outdir, { recursive: true, force: true });
  const names = sample_names();
  if (names.length > 0) await esbuild.build(esbuild_options(mode, outdir));
  write_statics(mode, outdir);
  return { mode, outdir, samples: names };
}

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wgsl': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.bin': 'application/octet-stream',
};

/** Resolves a URL path inside `root`, or null if it escapes it or does not exist. Directories give index.html. */
function resolve_file(root, url_path) {
  const p = normalize(join(root, decodeURIComponent(url_path)));
  if (p !== root && !p.startsWith(root + sep)) return null;
  if (!existsSync(p)) return null;
  const st = statSync(p);
  if (st.isDirectory()) {
    const index = join(p, 'index.html');
    return existsSync(index) ? index : null;
  }
  return st.isFile() ? p : null;
}

/** A static file server over several roots, first match wins. */
export function static_server(roots) {
  return createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      // A folder URL without a trailing slash would break relative links in its index.html.
      for (const root of roots) {
        const p = normalize(join(root, decodeURIComponent(url.pathname)));
        if (!url.pathname.endsWith('/') && existsSync(p) && statSync(p).isDirectory()) {
          res.writeHead(301, { location: `${url.pathname}/${url.search}` });
          res.end();
          return;
        }
      }
      for (const root of roots) {
        const file = resolve_file(root, url.pathname);
        if (!file) continue;
        const body = await readFile(file);
        res.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(body);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`404 ${url.pathname}\n`);
    } catch (e) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(String(e));
    }
  });
}

/** Dev build with watch, served from dist/dev (then samples/ for static files). Resolves once listening. */
export async function serve({ port = Number(process.env.PORT ?? 8080), host = process.env.HOST ?? '127.0.0.1' } = {}) {
  const mode = 'dev';
  rmSync(out_dir(mode), { recursive: true, force: true });
  const ctx = await esbuild.context({
    ...esbuild_options(mode),
    plugins: [
      {
        name: 'shade-statics',
        setup(b) {
          b.onEnd((result) => {
            write_statics(mode);
            const time = new Date().toLocaleTimeString();
            if (result.errors.length === 0) console.log(`[${time}] built ${sample_names().join(', ') || '(no samples)'}`);
            else console.log(`[${time}] build failed with ${result.errors.length} error(s)`);
          });
        },
      },
    ],
  });
  await ctx.watch();
  const server = static_server([out_dir(mode), SAMPLES_DIR]);
  await new Promise((resolve_listen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve_listen(undefined));
  });
  const url = `http://${host}:${port}/`;
  console.log(`Shade-TS samples: ${url}`);
  for (const name of sample_names()) console.log(`  ${url}${name}/`);
  console.log('Open in a browser with WebGPU. Without a GPU on Linux, e.g.:');
  console.log(
    `  chromium --enable-unsafe-webgpu --use-angle=swiftshader --enable-features=Vulkan --use-vulkan=swiftshader ${url}`,
  );
  const stop = async () => {
    server.close();
    await ctx.dispose();
  };
  return { url, stop };
}

async function main(argv) {
  const [command, mode] = argv;
  if (command === 'build') {
    const modes = mode ? [mode] : ['dev', 'prod'];
    for (const m of modes) {
      const t0 = performance.now();
      const r = await build({ mode: m });
      console.log(`built ${m}: ${r.samples.join(', ') || '(no samples)'} -> ${relative(ROOT, r.outdir)} (${Math.round(performance.now() - t0)} ms)`);
    }
  } else if (command === 'serve') {
    const { stop } = await serve();
    const shutdown = () => void stop().then(() => process.exit(0));
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  } else {
    console.error('usage: node esbuild.mjs build [dev|prod] | serve');
    process.exit(2);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
