// Writes engine/level/level.schema.json (the JSON Schema for level authors' editors) from the component
// descriptors of engine/ and systems/. Run after adding or changing a descriptor:
//   node scripts/generate_level_schema.mjs
// test/engine/level/level_schema.test.ts fails while the file is out of date.
import { build } from "esbuild";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LEVEL_SCHEMA_FILE, level_schema_sources } from "./level_schema_sources.mjs";

const root = resolve(import.meta.dirname, "..");
const sources = level_schema_sources(root);
const entry = [
    `import { EntityManager } from "./engine/EntityManager.ts";`,
    `import { level_schema_json } from "./engine/level/level_schema.ts";`,
    `import { collect_descriptors } from "./scripts/level_schema_sources.mjs";`,
    ...sources.map((file, i) => `import * as m${i} from "./${file}";`),
    `const registry = new EntityManager().components;`,
    `for (const d of collect_descriptors([${sources.map((_, i) => `m${i}`).join(", ")}])) registry.register(d);`,
    `export const text = level_schema_json(registry);`,
].join("\n");
// inside the repository so that the bundle's bare imports (bitecs, typebox) resolve from node_modules
mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
const dir = mkdtempSync(join(root, "node_modules", ".cache", "level-schema-"));
try {
    const out = join(dir, "schema.mjs");
    await build({
        stdin: { contents: entry, resolveDir: root, loader: "ts", sourcefile: "level_schema_entry.ts" },
        bundle: true,
        platform: "node",
        format: "esm",
        outfile: out,
        define: { __SHADE_DEBUG__: "false" },
        packages: "external",
        logLevel: "error",
    });
    const { text } = await import(pathToFileURL(out).href);
    writeFileSync(join(root, LEVEL_SCHEMA_FILE), text);
    console.log(`wrote ${LEVEL_SCHEMA_FILE} from ${sources.length} module(s): ${sources.join(", ")}`);
} finally {
    rmSync(dir, { recursive: true, force: true });
}
