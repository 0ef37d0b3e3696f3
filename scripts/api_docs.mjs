// API reference from the doc comments: emits the package's declarations (tsc -p tsconfig.build.json, @internal
// left out) into a temp folder and turns each module's exported declarations and their /** */ comments into
// Markdown under docs/api/ (one page per source folder, an index in docs/api/README.md).
//
//   node scripts/api_docs.mjs        (npm run docs)
//
// A small script rather than TypeDoc: TypeDoc drives the TypeScript 5 compiler API, which TypeScript 7 (the
// repository's compiler, a native binary) does not provide.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, tsc_command } from './build_lib.mjs';

export const DOCS_API = join(ROOT, 'docs', 'api');

/** Brace depth change of a line, ignoring braces inside string literals. */
function brace_delta(line) {
  let d = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '{') d++;
    else if (c === '}') d--;
  }
  return d;
}

/** The text of a /** *\/ comment without its markers; @param/@returns turned into a list. */
export function doc_text(lines) {
  const body = lines
    .join('\n')
    .replace(/^\s*\/\*\*\s?/, '')
    .replace(/\s*\*\/\s*$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
  return body
    .replace(/^@param\s+(?:\{[^}]*\}\s*)?(\[?[\w$.]+\]?)\s*/gm, '- `$1`: ')
    .replace(/^@returns?\s+(?:\{[^}]*\}\s*)?/gm, '- returns: ')
    .replace(/^@(deprecated)\s*/gm, '**Deprecated.** ');
}

const shorten = (s) => s.replace(/"(?:[^"\\]|\\.)*"/g, (q) => (q.length > 60 ? 'string' : q));

/**
 * The exported declarations of one emitted .d.ts: `{ kind, name, doc, signature, members: [{ doc, signature }] }`.
 * Relies on tsc's declaration layout: top-level declarations at column 0, one member per line (or per balanced
 * group of lines) at four spaces.
 */
export function parse_declarations(text) {
  const lines = text.split('\n');
  const out = [];
  let doc = null;
  let current = null; // the class/interface/enum being read
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed.startsWith('/**')) {
      const block = [line];
      while (!lines[i].includes('*/')) block.push(lines[++i]);
      doc = doc_text(block);
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('///') || trimmed.startsWith('//')) continue;
    // a statement, possibly over several lines (object types in a signature)
    const start = i;
    let depth = brace_delta(line);
    const opens_body = current === null && /^(export )?declare (abstract )?(class|enum|const enum|namespace)\b|^(export )?interface\b/.test(line) && line.trimEnd().endsWith('{');
    if (!opens_body) {
      while (depth > 0 && i + 1 < lines.length) depth += brace_delta(lines[++i]);
    }
    const statement = lines.slice(start, i + 1).join('\n');
    if (current !== null) {
      if (trimmed === '}') {
        out.push(current);
        current = null;
      } else if (trimmed !== '#private;' && !trimmed.startsWith('private ')) {
        current.members.push({ doc, signature: shorten(statement.replace(/^ {4}/gm, '')) });
      }
    } else if (opens_body) {
      const m = /(class|interface|enum|namespace) ([\w$]+)/.exec(line);
      current = { kind: m[1], name: m[2], doc, signature: line.replace(/\s*\{\s*$/, ''), members: [], exported: line.startsWith('export') };
    } else if (line.startsWith('export ') && !line.startsWith('export {') && !line.startsWith('export *')) {
      const m = /^export (?:declare )?(?:abstract )?(function|const|let|var|type|class|interface|enum) ([\w$]+)/.exec(line);
      if (m) out.push({ kind: m[1], name: m[2], doc, signature: shorten(statement), members: [], exported: true });
    }
    doc = null;
  }
  return out.filter((d) => d.exported);
}

const anchor = (name) => name.toLowerCase().replace(/[^\w-]/g, '');

function render_module(module, decls) {
  const parts = [`## ${module}\n`, '```ts', `import { ${decls.map((d) => (d.kind === 'type' || d.kind === 'interface' ? `type ${d.name}` : d.name)).join(', ')} } from "shade-ts/${module}";`, '```\n'];
  for (const d of decls) {
    parts.push(`### ${d.name}\n`);
    parts.push(`*${d.kind}*\n`);
    if (d.doc) parts.push(`${d.doc}\n`);
    parts.push('```ts', d.signature, '```\n');
    const documented = d.members.filter((m) => !/^(import|export)\b/.test(m.signature));
    if (documented.length > 0) {
      parts.push('| member | |', '| --- | --- |');
      for (const m of documented) {
        const sig = m.signature.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
        const text = (m.doc ?? '').replace(/\n+/g, ' ').replace(/\|/g, '\\|');
        parts.push(`| \`${sig}\` | ${text} |`);
      }
      parts.push('');
    }
  }
  return parts.join('\n');
}

function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export function api_docs() {
  const out = mkdtempSync(join(tmpdir(), 'shade-ts-docs-'));
  try {
    const [node, tsc] = tsc_command();
    const run = spawnSync(node, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out], { cwd: ROOT, encoding: 'utf8' });
    if (run.error) throw run.error;
    if (!existsSync(join(out, 'shade'))) throw new Error(`api_docs: tsc emitted no declarations:\n${run.stdout}${run.stderr}`);
    const pages = new Map(); // folder -> [module markdown]
    const index = new Map(); // folder -> [[name, module]]
    for (const file of walk(out).map((p) => relative(out, p).split(sep).join('/')).sort()) {
      if (file === 'globals.d.ts' || file.endsWith('/index.d.ts')) continue;
      const decls = parse_declarations(readFileSync(join(out, file), 'utf8'));
      if (decls.length === 0) continue;
      const module = file.replace(/\.d\.ts$/, '.js');
      const folder = dirname(file);
      if (!pages.has(folder)) pages.set(folder, []);
      pages.get(folder).push(render_module(module, decls));
      if (!index.has(folder)) index.set(folder, []);
      for (const d of decls) index.get(folder).push([d.name, d.kind]);
    }
    rmSync(DOCS_API, { recursive: true, force: true });
    mkdirSync(DOCS_API, { recursive: true });
    const readme = [
      '# Shade-TS API reference',
      '',
      'Generated from the doc comments of the published declarations by `npm run docs` (scripts/api_docs.mjs); do',
      'not edit. Every module is imported as `shade-ts/<path>.js`; each layer also has an index (`shade-ts/shade`,',
      '`shade-ts/engine`, `shade-ts/systems`). Start with the [Guide](../guide.md).',
      '',
    ];
    for (const [folder, modules] of pages) {
      const page = `${folder.replace(/\//g, '.')}.md`;
      writeFileSync(join(DOCS_API, page), `# ${folder}/\n\n[API index](README.md)\n\n${modules.join('\n')}`);
      const names = index.get(folder).map(([n]) => `[${n}](${page}#${anchor(n)})`);
      readme.push(`## [${folder}/](${page})`, '', names.join(', '), '');
    }
    writeFileSync(join(DOCS_API, 'README.md'), readme.join('\n'));
    return { pages: pages.size, names: [...index.values()].reduce((n, v) => n + v.length, 0) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { pages, names } = api_docs();
  console.log(`api_docs: ${names} names on ${pages} pages under ${relative(ROOT, DOCS_API)}/`);
}
