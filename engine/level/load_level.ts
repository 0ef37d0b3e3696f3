import type { TObject } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Name } from "../components/Name.js";
import type { EntityManager } from "../EntityManager.js";
import type { ComponentDescriptor, LevelIssue } from "./ComponentDescriptor.js";
import type { ComponentRegistry } from "./ComponentRegistry.js";
import type { FieldSpec } from "./Field.js";
import { format_json_path, join_json_path, json_path_at_offset, type JsonPathSegment } from "./json_path.js";
import { LevelError } from "./LevelError.js";
import { entity_schema, level_schema } from "./level_schema.js";
import { resolve_parents } from "./resolve_parents.js";

/** What `load_level` and `save_level` need of an engine: its entity manager. */
export interface LevelHost {
    readonly entityManager: EntityManager;
}

type LevelEntity = Readonly<Record<string, unknown>>;

interface Checkers {
    readonly version: number;
    readonly level: TypeCheck<TObject>;
    readonly entity: TypeCheck<TObject>;
}

const compiled = new WeakMap<ComponentRegistry, Checkers>();

/** The level and entity schemas of `registry` compiled once (again only after a descriptor is registered). */
function checkers(registry: ComponentRegistry): Checkers {
    const cached = compiled.get(registry);
    if (cached !== undefined && cached.version === registry.version) return cached;
    const made = { version: registry.version, level: TypeCompiler.Compile(level_schema(registry)), entity: TypeCompiler.Compile(entity_schema(registry)) };
    compiled.set(registry, made);
    return made;
}

/**
 * The first schema error of a level that failed the compiled check. TypeBox's error walk is a slow generator,
 * so it runs on the first failing entity alone (found with the fast compiled check), and on the whole level
 * only when every entity passed.
 */
function first_error(check: Checkers, level: unknown): { type: ValueErrorType; path: string; value: unknown } {
    const entities = level !== null && typeof level === "object" ? (level as { entities?: unknown }).entities : undefined;
    if (Array.isArray(entities)) {
        for (let i = 0; i < entities.length; i++) {
            if (check.entity.Check(entities[i])) continue;
            const error = check.entity.Errors(entities[i]).First()!;
            return { type: error.type, path: `/entities/${i}${error.path}`, value: error.value };
        }
    }
    return check.level.Errors(level).First()!;
}

const ROOT_EXPECTED = 'a level object { "version"?: 1, "entities": [ { "name"?: string, "parent"?: string, "<Component>": {...} } ] }';

function entity_expected(registry: ComponentRegistry): string {
    return `an entity object { name?, parent?, ${registry.descriptors.map((d) => `${d.name}?`).join(", ")} }`;
}

function component_names(registry: ComponentRegistry): string {
    return `"name", "parent" or a component: one of ${registry.descriptors.map((d) => d.name).join(", ")}`;
}

function field_expected(field: FieldSpec, rest: readonly JsonPathSegment[]): string {
    if (rest.length === 0) return field.expected;
    if (field.item !== undefined) return field_expected(field.item, rest.slice(1));
    if (field.kind === "colour") return "a number in 0..1";
    return "a finite number";
}

/** The expected shape at `segments` in words. */
function expected_at(registry: ComponentRegistry, segments: readonly JsonPathSegment[]): string {
    if (segments.length === 0) return ROOT_EXPECTED;
    if (segments[0] !== "entities") return segments[0] === "version" ? "1" : "a string";
    if (segments.length === 1) return "an array of entity objects";
    if (segments.length === 2) return entity_expected(registry);
    const key = segments[2] as string;
    if (key === "name") return "a string";
    if (key === "parent") return "a string: the name of another entity of this level";
    const descriptor = registry.get(key);
    if (descriptor === undefined) return component_names(registry);
    if (segments.length === 3) return descriptor.expected;
    const field = descriptor.fields[segments[3] as string];
    return field === undefined ? descriptor.expected : field_expected(field, segments.slice(4));
}

/** The value in words, for "got ..." (a non-finite number read from text came from a literal like 1e999). */
function describe_value(value: unknown, from_text: boolean): string {
    if (typeof value === "number") {
        if (Number.isNaN(value)) return "NaN";
        if (!Number.isFinite(value)) return from_text ? `${value} (a number literal beyond the range of a double, like 1e999)` : String(value);
        return String(value);
    }
    if (typeof value === "string") return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "..." : value);
    if (value === null) return "null";
    if (value === undefined) return "nothing";
    if (Array.isArray(value) && value.length <= 8 && value.every((v) => typeof v === "number" && Number.isFinite(v))) return JSON.stringify(value);
    if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
    if (typeof value === "object") return "an object";
    return `a ${typeof value}`;
}

/** TypeBox's JSON pointer (`/entities/3/Trail3D/width`) as segments, indices as numbers where the value is an array. */
function pointer_segments(pointer: string, root: unknown): JsonPathSegment[] {
    const segments: JsonPathSegment[] = [];
    let node: unknown = root;
    for (const raw of pointer.split("/").slice(1)) {
        const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
        const index = Array.isArray(node) && /^\d+$/.test(key) ? Number(key) : null;
        segments.push(index ?? key);
        node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[index ?? key] : undefined;
    }
    return segments;
}

function schema_error(registry: ComponentRegistry, error: { type: ValueErrorType; path: string; value: unknown }, root: unknown, from_text: boolean): LevelError {
    const segments = pointer_segments(error.path, root);
    const path = format_json_path(segments);
    const last = segments.at(-1);
    if (error.type === ValueErrorType.ObjectAdditionalProperties) {
        if (segments.length === 3) {
            return new LevelError(path, `unknown component '${String(last)}' (is its system added to the engine?)`, component_names(registry));
        }
        if (segments.length === 4) {
            return new LevelError(path, `unknown field '${String(last)}' of ${String(segments[2])}`, expected_at(registry, segments.slice(0, 3)));
        }
        return new LevelError(path, `unknown key '${String(last)}'`, expected_at(registry, segments.slice(0, -1)));
    }
    const expected = expected_at(registry, segments);
    if (error.type === ValueErrorType.ObjectRequiredProperty) return new LevelError(path, `missing required field '${String(last)}'`, expected);
    return new LevelError(path, `got ${describe_value(error.value, from_text)}`, expected);
}

function parse(text: string): unknown {
    try {
        return JSON.parse(text);
    } catch (error) {
        const message = (error as Error).message;
        const at = /position (\d+)/.exec(message);
        const offset = at !== null ? Number(at[1]) : /end of JSON input|Unexpected end/i.test(message) ? text.length : null;
        const where = offset ?? text.length;
        const before = text.slice(0, where);
        const line = before.split("\n").length;
        const column = where - before.lastIndexOf("\n");
        const path = format_json_path(json_path_at_offset(text, where));
        const problem = `the text is not valid JSON at line ${line}, column ${column} (offset ${where}): ${message}`;
        throw new LevelError(path, problem, "complete JSON text of " + ROOT_EXPECTED, where);
    }
}

function value_at(root: unknown, relative: string): unknown {
    let node = root;
    for (const match of relative.matchAll(/[^.[\]]+/g)) {
        if (node === null || typeof node !== "object") return undefined;
        node = (node as Record<string, unknown>)[match[0]];
    }
    return node;
}

/** The error for a descriptor's or a limit's `issue` with the component `value` at `base`. */
function issue_error(base: string, issue: LevelIssue, value: unknown, from_text: boolean): LevelError {
    const found = issue.found ?? `got ${describe_value(value_at(value, issue.path), from_text)}`;
    return new LevelError(join_json_path(base, issue.path), found, issue.expected);
}

/** Adds `descriptor`'s component of the level `entity` to `eid`, after the components it requires (in any key order). */
function add_with_requirements(entityManager: EntityManager, eid: number, entity: LevelEntity, descriptor: ComponentDescriptor): void {
    if (entityManager.has_component(eid, descriptor.component)) return;
    for (const required of descriptor.requires) add_with_requirements(entityManager, eid, entity, required);
    const value = entity[descriptor.name] as Readonly<Record<string, unknown>>;
    // written before the on_add observers run, so that a system's observer sees the level's values
    entityManager.add_component(eid, descriptor.component, (id) => descriptor.write(id, value, entityManager));
}

/**
 * Validates a whole level (JSON text or a parsed object) against the schema generated from the registered
 * component descriptors, what their storage holds, the components each requires and the limits the systems put
 * on them (`ComponentLimit`), then creates its entities and returns their ids in level order. An entity's
 * `"parent"` names another entity of the same level (`EntityManager.set_parent` links them once all exist).
 * Throws `LevelError` (naming the JSON path and the expected shape) before creating anything: on a throw the
 * world is as before.
 */
export function load_level(engine: LevelHost, source: unknown): number[] {
    const entityManager = engine.entityManager;
    const registry = entityManager.components;
    const from_text = typeof source === "string";
    const level = from_text ? parse(source) : source;

    const check = checkers(registry);
    if (!check.level.Check(level)) throw schema_error(registry, first_error(check, level), level, from_text);
    const entities = (level as { entities: LevelEntity[] }).entities;
    // per descriptor: how many of the level's entities so far have it (a limit's ordinal)
    const seen = new Map<ComponentDescriptor, number>();
    for (let i = 0; i < entities.length; i++) {
        const entity = entities[i];
        for (const key of Object.keys(entity)) {
            if (key === "name" || key === "parent") continue;
            const descriptor = registry.get(key)!;
            const value = entity[key] as Readonly<Record<string, unknown>>;
            const base = `entities[${i}].${key}`;
            const issue = descriptor.check(value);
            if (issue !== null) throw issue_error(base, issue, value, from_text);
            for (const required of descriptor.requires) {
                if (entity[required.name] !== undefined) continue;
                throw new LevelError(base, `${key} needs ${required.name} on the same entity, which has none`, `an entity with ${required.name} beside ${key}`);
            }
            const limits = registry.limits_of(descriptor);
            if (limits.length === 0) continue;
            const ordinal = seen.get(descriptor) ?? 0;
            seen.set(descriptor, ordinal + 1);
            const complete = descriptor.complete(value) as Readonly<Record<string, unknown>>;
            for (const limit of limits) {
                const over = limit.check(complete, ordinal);
                if (over !== null) throw issue_error(base, { ...over, expected: `${over.expected} (the limit of ${limit.owner})` }, complete, from_text);
            }
        }
    }
    const parents = resolve_parents(entities);
    const room = entityManager.max_entities - entityManager.entity_count;
    if (entities.length > room) {
        throw new LevelError(
            "entities",
            `${entities.length} entities do not fit beside the ${entityManager.entity_count} alive in a world of capacity ${entityManager.max_entities}`,
            `at most ${room} entities (new Engine({ max_entities }) sets the capacity)`,
        );
    }

    const created: number[] = [];
    try {
        for (const entity of entities) {
            const eid = entityManager.create_entity();
            created.push(eid);
            for (const key of Object.keys(entity)) {
                if (key === "parent") continue;
                if (key === "name") {
                    entityManager.add_component(eid, Name, (id) => {
                        Name.value[id] = entity.name as string;
                    });
                    continue;
                }
                add_with_requirements(entityManager, eid, entity, registry.get(key)!);
            }
        }
        // once every entity exists: a parent may come after its children in the file
        if (parents !== null) for (let i = 0; i < parents.length; i++) if (parents[i] >= 0) entityManager.set_parent(created[i], created[parents[i]]);
    } catch (error) {
        // only a descriptor's own write() can throw here; take the half-made level back out (a parent takes its
        // children, which are entities of this level too)
        for (const eid of created) if (entityManager.has_entity(eid)) entityManager.remove_entity(eid);
        throw error;
    }
    return created;
}
