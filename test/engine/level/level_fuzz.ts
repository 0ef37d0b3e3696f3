// A generator of malformed level files, driven by the level schema of the registered components so that every
// case is invalid by construction (device-independent). Each case starts from a valid level of a few entities
// (each component with its schema defaults, beside the components it requires) and breaks it once.
import type { TSchema } from "@sinclair/typebox";
import type { JsonPathSegment } from "../../../engine/level/json_path.js";
import { get_at, set_at } from "./json_path_walk.js";

export type FuzzKind =
    | "wrong type"
    | "out of range"
    | "array length"
    | "missing field"
    | "unknown component"
    | "unknown field"
    | "unknown root key"
    | "NaN"
    | "huge array"
    | "too many entities"
    | "deep nesting"
    | "deep nesting text"
    | "truncated JSON"
    | "trailing garbage"
    | "infinity literal"
    | "bad root"
    | "bad entity"
    | "bad version"
    | "cross-field"
    | "missing requirement"
    | "beyond storage"
    | "beyond a system limit";

export interface FuzzCase {
    readonly index: number;
    readonly kind: FuzzKind;
    /** What load_level is given: JSON text or a parsed object. */
    readonly source: unknown;
    /** The valid level the case was broken from, and the parsed input to resolve the error's path against. */
    readonly input: unknown;
    readonly what: string;
}

/** A small, fast, seeded PRNG (mulberry32). */
export function make_random(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

type Schema = TSchema & Record<string, unknown>;

interface Site {
    readonly path: JsonPathSegment[];
    readonly schema: Schema;
}

/** A valid value of `schema` (its default where it has one; a plain valid value otherwise). */
function valid_value(schema: Schema): unknown {
    if ("default" in schema) return structuredClone(schema.default);
    if (schema.type === "object") {
        const out: Record<string, unknown> = {};
        for (const key of (schema.required as string[] | undefined) ?? []) out[key] = valid_value((schema.properties as Record<string, Schema>)[key]);
        return out;
    }
    if (schema.type === "array") {
        const items = schema.items;
        if (Array.isArray(items)) return items.map((s) => valid_value(s as Schema));
        const n = Math.max(Number(schema.minItems ?? 0), 0);
        return Array.from({ length: n }, (_, i) => {
            const item = valid_value(items as Schema);
            // distinct points: a path through one point twice is refused by its own checks
            return Array.isArray(item) && item.every((v) => typeof v === "number") ? item.map((v, k) => v + i * (k + 1)) : item;
        });
    }
    if (schema.type === "number" || schema.type === "integer") {
        const lo = typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 0;
        return Math.min(lo, typeof schema.maximum === "number" ? schema.maximum : lo);
    }
    if (schema.type === "boolean") return false;
    if (schema.type === "string") return "const" in schema ? schema.const : "x";
    if (Array.isArray(schema.anyOf)) return valid_value(schema.anyOf[0] as Schema);
    return null;
}

export class LevelFuzzer {
    readonly #level: Schema;
    readonly #entity: Schema;
    readonly #components: [string, Schema][];
    readonly #random: () => number;
    #index = 0;
    /** Most extra items of a "huge array" case (rejecting one costs ~3 us an item in TypeBox's error walk). */
    huge_max = 20_000;
    /** Most nesting of a "deep nesting text" case. */
    deep_max = 20_000;

    /** `level_schema(registry)` of the engine under test. */
    constructor(level_schema: TSchema, seed: number) {
        this.#level = level_schema as Schema;
        this.#entity = ((this.#level.properties as Record<string, Schema>).entities.items as Schema);
        this.#components = Object.entries(this.#entity.properties as Record<string, Schema>).filter(([name]) => name !== "name" && name !== "parent");
        this.#random = make_random(seed);
    }

    /** A valid level: 1 to 6 entities, each with 1 to 3 components at valid values. */
    valid_level(): { entities: Record<string, unknown>[] } {
        const entities: Record<string, unknown>[] = [];
        const count = 1 + this.#int(6);
        for (let i = 0; i < count; i++) {
            const entity: Record<string, unknown> = {};
            if (this.#random() < 0.5) entity.name = `entity ${i}`;
            const n = 1 + this.#int(3);
            for (let k = 0; k < n; k++) {
                const [name, schema] = this.#pick(this.#components);
                entity[name] = this.#full_value(schema);
            }
            // what the chosen components require (the entity schema's `dependencies`)
            for (const name of Object.keys(entity)) {
                for (const required of this.#requires(name)) {
                    if (entity[required] === undefined) entity[required] = this.#full_value(this.#component(required));
                }
            }
            entities.push(entity);
        }
        return { entities };
    }

    next(): FuzzCase {
        const index = this.#index++;
        const level = this.valid_level();
        const kinds: FuzzKind[] = [
            "wrong type", "wrong type", "wrong type", "out of range", "out of range", "array length", "array length",
            "missing field", "unknown component", "unknown field", "unknown root key", "NaN", "NaN", "deep nesting",
            "truncated JSON", "truncated JSON", "truncated JSON", "trailing garbage", "infinity literal", "bad root",
            "bad entity", "bad version", "deep nesting text", "cross-field", "missing requirement", "beyond storage",
            "beyond a system limit",
        ];
        // the big ones are rarer: they cost milliseconds each
        const r = this.#random();
        const kind: FuzzKind = r < 0.012 ? "huge array" : r < 0.018 ? "too many entities" : this.#pick(kinds);
        return this.#make(index, kind, level) ?? this.#make(index, "wrong type", level)!;
    }

    #make(index: number, kind: FuzzKind, level: { entities: Record<string, unknown>[] }): FuzzCase | null {
        const at = (what: string, source: unknown, input: unknown = source): FuzzCase => ({ index, kind, source, input, what });
        const sites = this.#sites(level);
        switch (kind) {
            case "wrong type": {
                const site = this.#pick(sites);
                const value = this.#wrong_type(site.schema);
                set_at(level, site.path, value);
                return at(`${JSON.stringify(site.path)} = ${JSON.stringify(value)}`, level);
            }
            case "out of range": {
                const candidates = sites.filter((s) => out_of_range(s.schema) !== undefined);
                if (candidates.length === 0) return null;
                const site = this.#pick(candidates);
                const value = out_of_range(site.schema);
                set_at(level, site.path, value);
                return at(`${JSON.stringify(site.path)} = ${JSON.stringify(value)}`, level);
            }
            case "array length": {
                const candidates = sites.filter((s) => s.schema.type === "array" && (typeof s.schema.maxItems === "number" || Number(s.schema.minItems ?? 0) > 0));
                if (candidates.length === 0) return null;
                const site = this.#pick(candidates);
                const array = get_at(level, site.path) as unknown[];
                const max = site.schema.maxItems as number | undefined;
                if (max !== undefined && (this.#random() < 0.5 || Number(site.schema.minItems ?? 0) === 0)) {
                    while (array.length <= max) array.push(array.length > 0 ? structuredClone(array[0]) : 0);
                } else {
                    array.length = this.#int(Number(site.schema.minItems));
                }
                return at(`${JSON.stringify(site.path)} has ${array.length} items`, level);
            }
            case "missing field": {
                const candidates = sites.filter((s) => s.schema.type === "object" && Array.isArray(s.schema.required) && s.schema.required.length > 0);
                if (this.#random() < 0.2 || candidates.length === 0) {
                    return at("no entities", { version: 1, names: [] });
                }
                const site = this.#pick(candidates);
                const key = this.#pick(site.schema.required as string[]);
                delete (get_at(level, site.path) as Record<string, unknown>)[key];
                return at(`${JSON.stringify(site.path)} without ${key}`, level);
            }
            case "unknown component": {
                const entity = this.#pick(level.entities);
                entity[this.#pick(["Trial3D", "Foo", "transform", "Particle Emitter", "__proto__x", "constructor"])] = {};
                return at("an unknown component", level);
            }
            case "unknown field": {
                const candidates = sites.filter((s) => s.schema.type === "object" && s.schema.additionalProperties === false && s.path.length >= 3);
                const site = this.#pick(candidates);
                (get_at(level, site.path) as Record<string, unknown>)[this.#pick(["colour_typo", "widht", "x", "", "0"])] = 1;
                return at(`an unknown key in ${JSON.stringify(site.path)}`, level);
            }
            case "unknown root key":
                return at("an unknown root key", { ...level, [this.#pick(["entity", "Entities", "meta", "levels"])]: [] });
            case "NaN": {
                const candidates = sites.filter((s) => s.schema.type === "number" || s.schema.type === "integer");
                if (candidates.length === 0) return null;
                const site = this.#pick(candidates);
                const value = this.#pick([Number.NaN, Infinity, -Infinity]);
                set_at(level, site.path, value);
                return at(`${JSON.stringify(site.path)} = ${value}`, level);
            }
            case "huge array": {
                const n = 10_000 + this.#int(this.huge_max);
                const bad = this.#int(n);
                const points: unknown[] = Array.from({ length: n }, (_, i) => [i, 0, i * 0.5]);
                points[bad] = this.#pick([[bad, Number.NaN, 0], [bad, 0], "point", null, [bad, 0, 0, 0]]);
                level.entities.push({ Path: { waypoints: points } });
                if (this.#random() < 0.5) return at(`waypoints of ${n}, bad at ${bad}`, level);
                const text = JSON.stringify(level);
                return at(`waypoints of ${n}, bad at ${bad} (text)`, text, JSON.parse(text));
            }
            case "too many entities": {
                const entities = Array.from({ length: 65_536 + this.#int(1000) }, () => ({}));
                return at(`${entities.length} entities`, { entities });
            }
            case "deep nesting": {
                const site = this.#pick(sites.filter((s) => s.path.length >= 4));
                let value: unknown = 1;
                const depth = 10 + this.#int(3000);
                const as_object = this.#random() < 0.5;
                for (let i = 0; i < depth; i++) value = as_object ? { a: value } : [value];
                set_at(level, site.path, value);
                return at(`${JSON.stringify(site.path)} nested ${depth} deep`, level);
            }
            case "deep nesting text": {
                // a value nested far deeper than any schema, as text: the parser and the checks must not overflow
                const depth = 1000 + this.#int(this.deep_max);
                const text = `{"entities":[{"Transform":{"position":${"[".repeat(depth)}1${"]".repeat(depth)}}}]}`;
                return at(`a position nested ${depth} deep (text)`, text, JSON.parse(text));
            }
            case "truncated JSON": {
                const text = JSON.stringify(level, null, this.#random() < 0.5 ? 1 : undefined);
                const cut = this.#int(text.length);
                return at(`cut at ${cut} of ${text.length}`, text.slice(0, cut), level);
            }
            case "trailing garbage": {
                const text = JSON.stringify(level);
                const garbage = this.#pick(["}", "]", ",", "x", " {}", "\u0000", "\"\"", "NaN"]);
                return at(`trailing ${JSON.stringify(garbage)}`, text + garbage, level);
            }
            case "infinity literal": {
                const candidates = sites.filter((s) => s.schema.type === "number");
                const site = this.#pick(candidates);
                set_at(level, site.path, 123456789);
                const text = JSON.stringify(level).replace("123456789", this.#pick(["1e999", "-1e999"]));
                return at(`${JSON.stringify(site.path)} = 1e999`, text, JSON.parse(JSON.stringify(level)));
            }
            case "bad root": {
                const value = this.#pick([null, 42, "level", [], true, [level]]);
                if (this.#random() < 0.5) return at(`root ${JSON.stringify(value)}`, value);
                return at(`root ${JSON.stringify(value)} (text)`, JSON.stringify(value), value);
            }
            case "bad entity": {
                const i = this.#int(level.entities.length);
                (level.entities as unknown[])[i] = this.#pick([null, 5, "entity", [], [{}], true]);
                return at(`entities[${i}] = ${JSON.stringify(level.entities[i])}`, level);
            }
            case "cross-field": {
                // values each valid alone, refused together by the component's own check
                const known: [string, Record<string, unknown>][] = [
                    ["ParticleEmitter", { lifetime_min: 3, lifetime_max: 1 }],
                    ["ParticleEmitter", { speed_min: 2, speed_max: -1 }],
                    ["ParticleEmitter", { direction: [0, 0, 0] }],
                    ["ParticleEmitter", { color_start: [1, 1, -0.5, 1] }],
                    ["Decal", { size: [1, 0, 1] }],
                    ["Terrain", { resolution: 4, heights: [0, 1, 2] }],
                ];
                const names = new Set(this.#components.map(([name]) => name));
                const usable = known.filter(([name]) => names.has(name));
                if (usable.length === 0) return null;
                const [name, values] = this.#pick(usable);
                this.#pick(level.entities)[name] = structuredClone(values);
                return at(`${name} ${JSON.stringify(values)}`, level);
            }
            case "missing requirement": {
                // a component without one it requires: taken away, or a dependent added to an entity without it
                const dependents = this.#components.map(([name]) => name).filter((name) => this.#requires(name).length > 0);
                if (dependents.length === 0) return null;
                const i = this.#int(level.entities.length);
                const entity = level.entities[i];
                const present = Object.keys(entity).filter((key) => dependents.includes(key));
                if (present.length > 0 && this.#random() < 0.5) {
                    const name = this.#pick(present);
                    const required = this.#pick(this.#requires(name));
                    for (const other of Object.keys(entity)) if (this.#requires(other).includes(required)) delete entity[other];
                    entity[name] = this.#full_value(this.#component(name));
                    delete entity[required];
                    return at(`entities[${i}].${name} without ${required}`, level);
                }
                const name = this.#pick(dependents);
                const bare: Record<string, unknown> = { [name]: this.#full_value(this.#component(name)) };
                level.entities.push(bare);
                return at(`a lone ${name}`, level);
            }
            case "beyond storage": {
                // a number every component stores in a Float32Array or an integer array: past what it holds
                const candidates = sites.filter((s) => (s.schema.type === "number" || s.schema.type === "integer") && s.schema.maximum === undefined);
                if (candidates.length === 0) return null;
                const site = this.#pick(candidates);
                const value = site.schema.type === "integer" ? this.#pick([2 ** 32, 2 ** 53, 1e39]) : this.#pick([1e39, -1e39, 3.5e38]);
                set_at(level, site.path, value);
                return at(`${JSON.stringify(site.path)} = ${value}`, level);
            }
            case "beyond a system limit": {
                // within the schema, beyond what the fuzz engine's systems serve (their default options)
                const known: [string, Record<string, unknown>][] = [
                    ["FogRevealer", { team: 4 + this.#int(12) }],
                    ["FogRevealer", { radius: this.#pick([2 ** 32, 1e9, 1e30]) }],
                    ["Decal", { frame: 8 + this.#int(1000) }],
                ];
                const names = new Set(this.#components.map(([name]) => name));
                const usable = known.filter(([name]) => names.has(name));
                if (usable.length === 0) return null;
                const [name, values] = this.#pick(usable);
                const entity = this.#pick(level.entities);
                entity[name] = { ...this.#full_value(this.#component(name)), ...values };
                for (const required of this.#requires(name)) if (entity[required] === undefined) entity[required] = this.#full_value(this.#component(required));
                return at(`${name} ${JSON.stringify(values)}`, level);
            }
            case "bad version":
                return at("version", { version: this.#pick([0, 2, "1", null, 1.5]), ...level });
        }
    }

    /** Every value of the level with its schema: entities, components, fields, array items. */
    #sites(level: { entities: Record<string, unknown>[] }): Site[] {
        const sites: Site[] = [];
        const walk = (value: unknown, schema: Schema, path: JsonPathSegment[]) => {
            sites.push({ path, schema });
            if (schema.type === "object" && value !== null && typeof value === "object") {
                const properties = (schema.properties ?? {}) as Record<string, Schema>;
                for (const key of Object.keys(value)) if (properties[key] !== undefined) walk((value as Record<string, unknown>)[key], properties[key], [...path, key]);
            } else if (schema.type === "array" && Array.isArray(value)) {
                // a few items of long arrays are enough
                for (let i = 0; i < Math.min(value.length, 4); i++) {
                    const item = Array.isArray(schema.items) ? schema.items[i] : schema.items;
                    if (item !== undefined) walk(value[i], item as Schema, [...path, i]);
                }
            }
        };
        for (let i = 0; i < level.entities.length; i++) walk(level.entities[i], this.#entity, ["entities", i]);
        return sites;
    }

    /** The components `name` requires (the entity schema's `dependencies`). */
    #requires(name: string): string[] {
        return ((this.#entity.dependencies ?? {}) as Record<string, string[]>)[name] ?? [];
    }

    #component(name: string): Schema {
        return (this.#entity.properties as Record<string, Schema>)[name];
    }

    /** A component value with every field present (defaults, or plain valid values). */
    #full_value(schema: Schema): Record<string, unknown> {
        const out: Record<string, unknown> = {};
        for (const [key, field] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
            const required = ((schema.required as string[] | undefined) ?? []).includes(key);
            if (required || "default" in field) out[key] = valid_value(field);
        }
        return out;
    }

    /** A value of another JSON type than `schema` allows. */
    #wrong_type(schema: Schema): unknown {
        if (Array.isArray(schema.anyOf)) return this.#pick([7, null, {}, "not one of them"]);
        switch (schema.type) {
            case "number":
            case "integer":
                return this.#pick(["1", null, [], {}, true]);
            case "string":
                return this.#pick([1, null, [], {}, false]);
            case "boolean":
                return this.#pick([0, 1, "true", null, []]);
            case "array":
                return this.#pick([0, "[]", null, {}, { 0: 1, length: 1 }]);
            case "object":
                return this.#pick([0, "{}", null, [], [{}], true]);
        }
        return Symbol.for("never"); // no JSON value: still invalid
    }

    #int(n: number): number {
        return Math.floor(this.#random() * n);
    }

    #pick<T>(list: readonly T[]): T {
        return list[this.#int(list.length)];
    }
}

/** A value of the right type outside the allowed range or set, or undefined when the schema has none. */
function out_of_range(schema: Schema): unknown {
    if (typeof schema.maximum === "number") return schema.maximum + 1;
    if (typeof schema.minimum === "number") return schema.minimum - 0.5;
    if (typeof schema.exclusiveMinimum === "number") return schema.exclusiveMinimum;
    if (schema.type === "integer") return 0.5;
    if ("const" in schema) return typeof schema.const === "number" ? schema.const + 1 : `${String(schema.const)}!`;
    if (Array.isArray(schema.anyOf)) return "none of them";
    return undefined;
}
