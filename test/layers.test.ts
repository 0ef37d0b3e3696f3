// Layering: every "never" of the layer map (DESIGN.md), the top folders and the parts inside shade/. Type-only
// imports, re-exports and dynamic import() count too: a type import still ties one layer's API to another's.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");

/** A part of the tree (a folder ending in "/", or one file) and what it must never import. */
interface LayerRule {
    readonly part: string;
    readonly never: readonly string[];
    readonly why: string;
}

const RULES: readonly LayerRule[] = [
    { part: "shade/", never: ["engine/", "systems/", "samples/"], why: "shade/ imports nothing of ours above it" },
    { part: "engine/", never: ["systems/", "samples/"], why: "engine/ imports only shade/" },
    { part: "systems/", never: ["samples/"], why: "systems/ import engine/ and shade/, never samples/" },
    { part: "shade/device/", never: ["shade/renderer/"], why: "the device layer knows nothing of the renderer" },
    {
        part: "shade/device/graph/",
        never: ["shade/renderer/extension/", "shade/renderer/"],
        why: "the frame graph knows nothing of extensions or the renderer",
    },
    {
        part: "shade/renderer/extension/",
        never: ["shade/renderer/steps/", "shade/renderer/Renderer.ts"],
        why: "the extension API knows nothing of the renderer's steps or the Renderer",
    },
];

// a file under several parts is reported against the narrowest rule it breaks, whose reason says most
const MOST_SPECIFIC_FIRST = [...RULES].sort((a, b) => b.part.length - a.part.length);

const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g;

/** Repository-relative, "/"-separated; a ".js" specifier names the ".ts" file beside it. */
function target_of(file: string, spec: string): string {
    const target = posix.normalize(posix.join(posix.dirname(file), spec));
    return target.endsWith(".js") ? `${target.slice(0, -3)}.ts` : target;
}

/** Every import in `source` (the text of repository file `file`) that a rule forbids, as "file: import 'x' ...". */
function layer_violations(file: string, source: string): string[] {
    const out: string[] = [];
    for (const match of source.matchAll(IMPORT)) {
        const spec = match[1];
        if (!spec.startsWith(".")) continue; // packages; our own code is imported by relative paths only
        const target = target_of(file, spec);
        for (const rule of MOST_SPECIFIC_FIRST) {
            if (!file.startsWith(rule.part)) continue;
            const hit = rule.never.find((never) => target === never || target.startsWith(never));
            if (hit !== undefined) {
                const line = source.slice(0, match.index).split("\n").length;
                out.push(`${file}:${line}: import '${spec}' reaches ${target}; ${rule.why} (never ${hit})`);
                break;
            }
        }
    }
    return out;
}

function files(dir: string): string[] {
    const out: string[] = [];
    let entries: string[] = [];
    try {
        entries = readdirSync(dir);
    } catch {
        return out;
    }
    for (const name of entries) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) out.push(...files(path));
        else if (name.endsWith(".ts")) out.push(path);
    }
    return out;
}

describe("layers", () => {
    it("no part of the tree imports what the layer map says it never imports (shade/ parts included)", () => {
        const violations: string[] = [];
        for (const top of ["shade", "engine", "systems", "samples"]) {
            for (const path of files(join(ROOT, top))) {
                const file = relative(ROOT, path).split(sep).join("/");
                violations.push(...layer_violations(file, readFileSync(path, "utf8")));
            }
        }
        expect(violations, `layer violations:\n${violations.join("\n")}`).toEqual([]);
    });

    it("the checker sees type-only imports, re-exports, side-effect and dynamic imports, and names file, line and import", () => {
        const graph_file = "shade/device/graph/FrameGraph.ts";
        expect(layer_violations(graph_file, `import type { FrameContext } from "../../renderer/extension/FrameContext.js";`)).toEqual([
            `${graph_file}:1: import '../../renderer/extension/FrameContext.js' reaches shade/renderer/extension/FrameContext.ts; ` +
                `the frame graph knows nothing of extensions or the renderer (never shade/renderer/extension/)`,
        ]);
        expect(layer_violations(graph_file, `\nexport { Renderer } from "../../renderer/Renderer.js";`)).toHaveLength(1);
        expect(layer_violations(graph_file, `import "../../renderer/steps/GBufferStep.js";`)).toHaveLength(1);
        expect(layer_violations(graph_file, `type R = typeof import("../../renderer/Renderer.js");`)).toHaveLength(1);
        expect(layer_violations(graph_file, `import {\n    IndexList,\n} from "./IndexList.js";`)).toEqual([]);

        const api = "shade/renderer/extension/FrameContext.ts";
        expect(layer_violations(api, `import type { Renderer } from "../Renderer.js";`)[0]).toContain(
            "the extension API knows nothing of the renderer's steps or the Renderer (never shade/renderer/Renderer.ts)",
        );
        expect(layer_violations(api, `import { LightingStep } from "../steps/LightingStep.js";`)[0]).toContain("never shade/renderer/steps/");
        expect(layer_violations(api, `import { FrameGraph } from "../../device/graph/FrameGraph.js";`)).toEqual([]);
        expect(layer_violations("shade/renderer/Renderer.ts", `import { LightingStep } from "./steps/LightingStep.js";`)).toEqual([]);

        expect(layer_violations("engine/Engine.ts", `import type { S } from "../systems/fog/FogSystem.js";`)).toHaveLength(1);
        expect(layer_violations("engine/Engine.ts", `import { x } from "../samples/hello/main.js";`)).toHaveLength(1);
        expect(layer_violations("systems/fog/FogSystem.ts", `import { x } from "../../samples/hello/main.js";`)).toHaveLength(1);
        expect(layer_violations("systems/fog/FogSystem.ts", `import { Engine } from "../../engine/Engine.js";`)).toEqual([]);
        expect(layer_violations("shade/renderer/Renderer.ts", `import type { Engine } from "../../engine/Engine.js";`)).toHaveLength(1);
    });
});
