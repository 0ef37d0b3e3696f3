// Which modules define level component descriptors: every .ts file under engine/ and systems/ that calls
// define_component(. Shared by scripts/generate_level_schema.mjs and the test that checks the schema file.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** The checked-in JSON Schema for level authors, relative to the repository root. */
export const LEVEL_SCHEMA_FILE = "engine/level/level.schema.json";

function walk(dir, out) {
    for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path, out);
        else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
    }
}

/** Repository-relative paths of the modules that define descriptors, sorted. */
export function level_schema_sources(root) {
    const files = [];
    for (const layer of ["engine", "systems"]) {
        try {
            walk(join(root, layer), files);
        } catch {
            // a layer that does not exist yet
        }
    }
    return files
        .filter((file) => !file.endsWith("ComponentDescriptor.ts") && /\bdefine_component\(/.test(readFileSync(file, "utf8")))
        .map((file) => relative(root, file).split("\\").join("/"))
        .sort();
}

function is_descriptor(value) {
    return (
        value !== null &&
        typeof value === "object" &&
        typeof value.name === "string" &&
        typeof value.schema === "object" &&
        typeof value.write === "function" &&
        typeof value.read === "function" &&
        typeof value.component === "object"
    );
}

/** The descriptors exported by `modules` (module namespace objects), each once, sorted by name. */
export function collect_descriptors(modules) {
    const found = new Set();
    for (const module of modules) for (const value of Object.values(module)) if (is_descriptor(value)) found.add(value);
    return [...found].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
