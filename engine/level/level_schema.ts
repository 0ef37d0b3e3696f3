import { Type, type TObject, type TSchema } from "@sinclair/typebox";
import type { ComponentRegistry } from "./ComponentRegistry.js";

/** The level format version this engine reads and writes. */
export const LEVEL_VERSION = 1;

/**
 * The JSON Schema (TypeBox) of a level file with the components of `registry`:
 * `{ "version"?: 1, "entities": [ { "name"?: string, "parent"?: string, "<Component>"?: {...} } ] }`.
 */
export function level_schema(registry: ComponentRegistry): TObject {
    return Type.Object(
        {
            $schema: Type.Optional(Type.String()),
            version: Type.Optional(Type.Literal(LEVEL_VERSION, { description: "The level format version" })),
            entities: Type.Array(entity_schema(registry)),
        },
        { additionalProperties: false, title: "Shade-TS level" },
    );
}

/**
 * The schema of one level entity: an optional name and parent name and any registered components, nothing else.
 * A component's `requires` is stated as JSON Schema `dependencies` (for editors; the loader checks it itself,
 * naming the path).
 */
export function entity_schema(registry: ComponentRegistry): TObject {
    const components: Record<string, TSchema> = {
        name: Type.Optional(Type.String({ description: "The entity's name" })),
        parent: Type.Optional(
            Type.String({ description: "The name of the entity's parent, another entity of this level; the entity's Transform then counts from the parent's" }),
        ),
    };
    const dependencies: Record<string, string[]> = {};
    for (const descriptor of registry.descriptors) {
        components[descriptor.name] = Type.Optional(descriptor.schema);
        if (descriptor.requires.length > 0) dependencies[descriptor.name] = descriptor.requires.map((d) => d.name);
    }
    const options = { additionalProperties: false, description: "An entity and its components" };
    return Type.Object(components, Object.keys(dependencies).length > 0 ? { ...options, dependencies } : options);
}

/** `level_schema` as JSON Schema text for editors (`"$schema": "./level.schema.json"` in a level file). */
export function level_schema_json(registry: ComponentRegistry): string {
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", ...level_schema(registry) };
    return JSON.stringify(schema, null, 2) + "\n";
}
