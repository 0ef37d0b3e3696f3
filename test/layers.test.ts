// Layering: shade/ imports nothing above it, engine/ nothing from systems/ or samples/, systems/ nothing from samples/.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");
const ORDER = ["shade", "engine", "systems", "samples"];

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
    it("a lower layer never imports a higher one", () => {
        const violations: string[] = [];
        for (const [rank, layer] of ORDER.entries()) {
            for (const file of files(join(ROOT, layer))) {
                const source = readFileSync(file, "utf8");
                for (const match of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
                    const spec = match[1];
                    if (!spec.startsWith(".")) continue;
                    const target = relative(ROOT, resolve(file, "..", spec)).split(/[\\/]/)[0];
                    const target_rank = ORDER.indexOf(target);
                    if (target_rank > rank) violations.push(`${relative(ROOT, file)} imports ${spec} (${target} is above ${layer})`);
                }
            }
        }
        expect(violations).toEqual([]);
    });
});
