// The JSON Schema file for level authors is generated from the component descriptors and must stay up to date.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { EntityManager } from "../../../engine/EntityManager.js";
import { level_schema_json } from "../../../engine/level/level_schema.js";
import { collect_descriptors, LEVEL_SCHEMA_FILE, level_schema_sources } from "../../../scripts/level_schema_sources.mjs";

const ROOT = resolve(__dirname, "../../..");

describe("level.schema.json", () => {
    it("is what scripts/generate_level_schema.mjs writes from today's descriptors (run it after changing one)", async () => {
        const sources = level_schema_sources(ROOT);
        expect(sources).toContain("engine/components/TransformDescriptor.ts");
        const modules: object[] = [];
        for (const file of sources) modules.push((await import(pathToFileURL(join(ROOT, file)).href)) as object);
        const registry = new EntityManager().components;
        for (const descriptor of collect_descriptors(modules)) registry.register(descriptor);
        const checked_in = readFileSync(join(ROOT, LEVEL_SCHEMA_FILE), "utf8");
        expect(checked_in, `${LEVEL_SCHEMA_FILE} is out of date: run node scripts/generate_level_schema.mjs`).toBe(level_schema_json(registry));
        const schema = JSON.parse(checked_in) as { properties: { entities: { items: { properties: Record<string, unknown> } } } };
        const components = Object.keys(schema.properties.entities.items.properties);
        expect(components).toEqual(["name", "parent", ...registry.descriptors.map((d) => d.name)]);
    });
});
