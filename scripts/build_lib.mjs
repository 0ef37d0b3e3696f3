// Builds the published package into lib/ (gitignored):
//   lib/types/<layer>/...d.ts   declarations (tsc -p tsconfig.build.json; @internal left out)
//   lib/dev/<layer>/...js       ES modules with __SHADE_DEBUG__ = true (guards on): the "default" export condition
//   lib/prod/<layer>/...js      __SHADE_DEBUG__ = false and `DEBUG:` blocks dropped: the "production" condition
// plus one generated index per layer (lib/*/shade/index.*, engine/index.*, systems/index.*) re-exporting every
// public name of every module of that layer, so a new file is in the index without anyone listing it.
//
//   node scripts/build_lib.mjs          (npm run build:lib)
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const LIB_DIR = join(ROOT, 'lib');
export const TYPES_DIR = join(LIB_DIR, 'types');
export const LAYERS = ['shade', 'engine', 'systems'];
/** Build flavours: folder under lib/ and the value of __SHADE_DEBUG__. */
export const FLAVOURS = [
  { dir: 'dev', debug: true },
  { dir: 'prod', debug: false },
];

function walk(dir, filter, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, filter, out);
    else if (entry.isFile() && filter(entry.name)) out.push(path);
  }
  return out.sort();
}

/** Source modules of the package: every .ts under the layers (not .d.ts). */
export function source_files() {
  return LAYERS.flatMap((layer) => walk(join(ROOT, layer), (n) => n.endsWith('.ts') && !n.endsWith('.d.ts')));
}

/** Emitted declaration files, as paths relative to lib/types with forward slashes. */
export function declaration_files() {
  return walk(TYPES_DIR, (n) => n.endsWith('.d.ts')).map((p) => relative(TYPES_DIR, p).split(sep).join('/'));
}

/** Removes comments from declaration text (strings kept as they are). */
export function strip_comments(text) {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * The top-level exports of a tsc-emitted .d.ts: `{ name, value }` where `value` is false for names that are
 * only types (interfaces, type aliases, `export type { }`). Re-exports (`export ... from`) are not followed:
 * the layer index lists each module's own declarations.
 */
export function exports_of_declaration(text) {
  const code = strip_comments(text);
  const found = new Map();
  const declared_values = new Set();
  const add = (name, value) => {
    if (!found.has(name)) found.set(name, value);
  };
  for (const m of code.matchAll(/^(export )?declare (?:abstract )?(?:const enum|class|function|const|let|var|enum|namespace) ([A-Za-z_$][\w$]*)/gm)) {
    declared_values.add(m[2]);
    if (m[1]) add(m[2], true);
  }
  const declared_types = new Set();
  for (const m of code.matchAll(/^(export )?(?:declare )?(?:interface|type) ([A-Za-z_$][\w$]*)/gm)) {
    declared_types.add(m[2]);
    if (m[1]) add(m[2], false);
  }
  for (const m of code.matchAll(/^export (type )?\{([^}]*)\}(\s*from\s*['"][^'"]+['"])?/gm)) {
    if (m[3]) continue;
    for (const part of m[2].split(',')) {
      const spec = part.trim();
      if (!spec) continue;
      const type_only = !!m[1] || spec.startsWith('type ');
      const [local, alias] = spec.replace(/^type /, '').split(/\s+as\s+/);
      const name = alias ?? local;
      // `import { X } from "./X.js"; export { X };` re-exports another module's name: that module owns it
      if (name === 'default' || !(declared_values.has(local) || declared_types.has(local))) continue;
      add(name, !type_only && declared_values.has(local));
    }
  }
  return [...found].map(([name, value]) => ({ name, value }));
}

/**
 * Writes lib/types/<layer>/index.d.ts and lib/<flavour>/<layer>/index.js. A name exported by two modules of a
 * layer is a build error naming both (the index would otherwise pick one silently).
 */
export function write_layer_indexes() {
  const files = declaration_files();
  const result = {};
  for (const layer of LAYERS) {
    if (existsSync(join(ROOT, layer, 'index.ts'))) {
      throw new Error(`build_lib: ${layer}/index.ts exists; the layer index is generated (scripts/build_lib.mjs)`);
    }
    const owner = new Map();
    const lines_dts = [];
    const lines_js = [];
    for (const file of files) {
      if (!file.startsWith(`${layer}/`)) continue;
      const module = file.slice(layer.length + 1).replace(/\.d\.ts$/, '');
      // folder indexes (shade/device/graph/index.ts) only re-export modules that are listed on their own
      if (module === 'index' || module.endsWith('/index')) continue;
      const names = exports_of_declaration(readFileSync(join(TYPES_DIR, file), 'utf8'));
      if (names.length === 0) continue;
      for (const { name } of names) {
        if (owner.has(name)) {
          throw new Error(
            `build_lib: '${name}' is exported by both ${layer}/${owner.get(name)}.ts and ${layer}/${module}.ts; ` +
              'the layer index needs one owner per name (rename one, or mark one @internal)',
          );
        }
        owner.set(name, module);
      }
      const spec = `./${module}.js`;
      lines_dts.push(`export { ${names.map((n) => (n.value ? n.name : `type ${n.name}`)).join(', ')} } from '${spec}';`);
      const values = names.filter((n) => n.value).map((n) => n.name);
      if (values.length > 0) lines_js.push(`export { ${values.join(', ')} } from '${spec}';`);
    }
    const header = `// Generated by scripts/build_lib.mjs: every public name of ${layer}/.\n`;
    writeFileSync(join(TYPES_DIR, layer, 'index.d.ts'), header + lines_dts.join('\n') + '\n');
    for (const { dir } of FLAVOURS) writeFileSync(join(LIB_DIR, dir, layer, 'index.js'), header + lines_js.join('\n') + '\n');
    result[layer] = owner.size;
  }
  return result;
}

/** The repository's own tsc (TypeScript 7's native compiler), as [command, ...args] for execFileSync. */
export function tsc_command() {
  return [process.execPath, join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')];
}

export async function build_lib({ quiet = false } = {}) {
  const t0 = performance.now();
  rmSync(LIB_DIR, { recursive: true, force: true });
  const [node, tsc] = tsc_command();
  execFileSync(node, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  // Every declaration references the WebGPU types it uses (GPUDevice, GPUTexture, ...): a consumer's tsc finds
  // them through the package's @webgpu/types dependency without listing it in its own tsconfig.
  for (const file of declaration_files()) {
    const path = join(TYPES_DIR, file);
    writeFileSync(path, '/// <reference types="@webgpu/types" />\n' + readFileSync(path, 'utf8'));
  }
  const entryPoints = source_files();
  for (const { dir, debug } of FLAVOURS) {
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints,
      outbase: ROOT,
      outdir: join(LIB_DIR, dir),
      bundle: false,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      define: { __SHADE_DEBUG__: debug ? 'true' : 'false' },
      dropLabels: debug ? [] : ['DEBUG'],
      logLevel: 'warning',
    });
  }
  const counts = write_layer_indexes();
  if (!quiet) {
    const ms = Math.round(performance.now() - t0);
    console.log(
      `build_lib: ${entryPoints.length} modules -> lib/{types,dev,prod} in ${ms} ms; public names: ` +
        LAYERS.map((l) => `${l} ${counts[l]}`).join(', '),
    );
  }
  return counts;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  build_lib().catch((e) => {
    console.error(e.message ?? e);
    process.exit(1);
  });
}
