// What importing the engine and every system costs in memory, measured in a fresh Node process: every module
// under engine/ and systems/ bundled into one file (esbuild, as the benches are), then process.memoryUsage()
// after a full GC, before and after `await import(bundle)`. Device-independent (no GPU is touched at import).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const MiB = 1024 * 1024;

function modules(dir: string, out: string[] = []): string[] {
    for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) modules(path, out);
        else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
    }
    return out;
}

const MEASURE = `
const usage = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage(); };
const before = usage();
await import(process.argv[2]);
const after = usage();
console.log(JSON.stringify({ array_buffers: after.arrayBuffers - before.arrayBuffers, heap: after.heapUsed - before.heapUsed }));
`;

describe("import memory", () => {
    it("importing every module of engine/ and systems/ allocates under 2 MB of typed arrays (stores start small)", async () => {
        const dir = mkdtempSync(join(tmpdir(), "shade-import-"));
        try {
            const files = [...modules(join(ROOT, "engine")), ...modules(join(ROOT, "systems"))];
            expect(files.length).toBeGreaterThan(60);
            const entry = join(dir, "entry.ts");
            writeFileSync(entry, files.map((file, i) => `export * as m${i} from ${JSON.stringify(file)};`).join("\n"));
            const bundle = join(dir, "out", "entry.mjs");
            // split as an application's bundler would: what the engine imports dynamically (glTF-Transform with
            // the first model, its decoders) lands in chunks of its own, loaded only when used
            await esbuild.build({
                entryPoints: [entry],
                outdir: join(dir, "out"),
                splitting: true,
                outExtension: { ".js": ".mjs" },
                bundle: true,
                platform: "node",
                format: "esm",
                external: ["webgpu"],
                define: { __SHADE_DEBUG__: "true" },
                nodePaths: [join(ROOT, "node_modules")],
                logLevel: "silent",
            });
            const measure = join(dir, "measure.mjs");
            writeFileSync(measure, MEASURE);
            const run = spawnSync(process.execPath, ["--expose-gc", measure, bundle], { encoding: "utf8" });
            expect(run.status, run.stderr).toBe(0);
            const { array_buffers, heap } = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { array_buffers: number; heap: number };
            console.info(`import of ${files.length} modules: ${(array_buffers / MiB).toFixed(2)} MiB of array buffers, ${(heap / MiB).toFixed(2)} MiB of heap (code and source text included)`);
            expect(array_buffers).toBeLessThan(2 * MiB);
            // the heap holds the bundle's ~1 MB of source text and its compiled code too; a per-entity JS array
            // made at full size (65,536 slots: 0.5 MB each) would show here. About 2.8-3.0 MiB with engine/assets and
            // engine/animation (their code; glTF-Transform itself is a chunk loaded with the first model); the
            // reading varies by a few hundred KiB with GC timing under load, hence the margin
            expect(heap).toBeLessThan(4 * MiB);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
