import { Type, type TObject, type TSchema } from "@sinclair/typebox";
import type { EntityManager } from "../EntityManager.js";
import { PerEntity } from "../PerEntity.js";
import type { FieldSpec, FieldValue } from "./Field.js";
import { binding_problem, FLOAT32_STORAGE, saved_within, storage_issue, storage_of, type FieldStorage, type TypedArray } from "./field_storage.js";

/** The fields of a component, by JSON name (also the name of the typed array a field is bound to). */
export type FieldMap = Readonly<Record<string, FieldSpec>>;

/** A component's JSON value as `write` receives it: defaults filled in; only `optional` fields may be undefined. */
export type ComponentValue<F extends FieldMap> = { -readonly [K in keyof F]: FieldValue<F[K]> };

/** A problem a descriptor's `check` found, beyond what the schema says. */
export interface LevelIssue {
    /** Relative to the component: "gradient[1]", "" for the whole component. */
    readonly path: string;
    /** The expected shape in words. */
    readonly expected: string;
    /** What was found, in words; default: the value at `path` ("got 5"). */
    readonly found?: string;
}

/**
 * What `define_component` needs. Fields whose kind has a width (numbers, vectors, colours, enums, booleans)
 * are bound by name to a per-entity typed array of `component` (`PerEntity.f32(width)`, ...) and are written,
 * read and reset without code. Side data (strings, arrays such as waypoints) needs `write` and `read`.
 */
export interface ComponentDescriptorSpec<F extends FieldMap> {
    /** The component's key in level JSON ("Transform", "Trail3D"). */
    readonly name: string;
    /** The bitecs component (an object of per-entity typed arrays, made with `PerEntity.define`). */
    readonly component: object;
    readonly fields: F;
    readonly description?: string;
    /**
     * Components the entity must have beside this one (every component that reads the entity's `Transform`
     * requires `TransformDescriptor`): a level entity without one is refused naming its path, and
     * `EntityManager.add_component` refuses to add this component before them (or to remove them under it).
     */
    readonly requires?: readonly ComponentDescriptor[];
    /** Stores what the bound arrays do not hold; runs after the bound fields are written. */
    write?(eid: number, value: ComponentValue<F>, entityManager: EntityManager): void;
    /** Reads back what `write` stored, as JSON values; merged over the bound fields. */
    read?(eid: number, entityManager: EntityManager): { readonly [K in keyof F]?: unknown };
    /**
     * Runs when the component is added (after the bound arrays are zeroed and the defaults written), so that a
     * recycled entity id never sees the previous entity's values: put side data and slot indices (-1) back here.
     */
    reset?(eid: number): void;
    /** Checks across fields that the schema cannot say (stops sorted); runs before anything is created. */
    check?(value: ComponentValue<F>): LevelIssue | null;
}

/**
 * How a component appears in level files: its JSON name, its fields and schema, how a validated JSON value is
 * written into the component's typed arrays and read back. Build one with `define_component`.
 */
export interface ComponentDescriptor<V extends object = object> {
    readonly name: string;
    readonly component: object;
    readonly fields: FieldMap;
    /** The JSON Schema (TypeBox) of the component's value; unknown fields are refused. */
    readonly schema: TObject;
    /** "a Trail3D object { width?, colour, ... }" for error messages. */
    readonly expected: string;
    /** Components the entity must have beside this one (see `ComponentDescriptorSpec.requires`). */
    readonly requires: readonly ComponentDescriptor[];
    /** Back to the defaults: bound arrays zeroed, defaults written, then the spec's `reset`. */
    reset(eid: number): void;
    /** `value` as validated, defaults not yet filled in. */
    write(eid: number, value: Readonly<Record<string, unknown>>, entityManager: EntityManager): void;
    read(eid: number, entityManager: EntityManager): V;
    /**
     * Field checks (`FieldSpec.check`), then what the storage cannot hold (a float32 beyond its range or rounded
     * out of the field's bounds, an integer beyond its array type), then the spec's `check`; null when fine.
     */
    check(value: Readonly<Record<string, unknown>>): LevelIssue | null;
    /** `value` (as validated) with its left-out fields' defaults filled in, as `write` and limits see it. */
    complete(value: Readonly<Record<string, unknown>>): V;
}

interface Binding {
    readonly key: string;
    readonly field: FieldSpec;
    /** The component, whose typed array `key` is read at each use: a store's arrays are replaced when it grows. */
    readonly store: Readonly<Record<string, TypedArray>>;
    readonly float32: boolean;
    readonly storage: FieldStorage;
}

// the descriptor of each bitecs component, wherever it is registered: add_component refuses a component whose
// required components are missing even before the system that registers its descriptor has started
const descriptor_of_component = new WeakMap<object, ComponentDescriptor>();

// the components some descriptor requires: removing any other needs no look at the entity's other components
const required_components = new WeakSet<object>();

/** The descriptor `define_component` made for `component` (the first one, if several describe it). */
export function descriptor_of(component: object): ComponentDescriptor | undefined {
    return descriptor_of_component.get(component);
}

/** Whether some descriptor lists `component`'s descriptor in its `requires`. */
export function is_required_by_some(component: object): boolean {
    return required_components.has(component);
}

function is_typed_array(value: unknown): value is TypedArray {
    return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

/** The shortest decimal that reads back as the same float32, so that 1.1 saves as 1.1, not 1.100000023841858. */
export function shortest_float32(value: number): number {
    if (Number.isInteger(value) || !Number.isFinite(value)) return value;
    // arithmetic rounding to p significant digits (toPrecision is a string round trip, several times slower);
    // each candidate is verified, so an inexact log10 or product only costs a digit, never a wrong value
    const exponent = Math.floor(Math.log10(Math.abs(value)));
    for (let digits = 1; digits <= 9; digits++) {
        const k = digits - 1 - exponent;
        let candidate: number;
        if (k >= 0) {
            const scale = 10 ** k;
            candidate = Math.round(value * scale) / scale;
        } else {
            const scale = 10 ** -k;
            candidate = Math.round(value / scale) * scale;
        }
        if (Math.fround(candidate) === value) return candidate;
    }
    return value;
}

function write_bound(binding: Binding, eid: number, value: unknown): void {
    const field = binding.field;
    const array = binding.store[binding.key];
    const width = field.width;
    const base = eid * width;
    switch (field.kind) {
        case "number":
        case "integer":
            array[base] = value as number;
            return;
        case "boolean":
            array[base] = value === true ? 1 : 0;
            return;
        case "enum":
            array[base] = field.values!.indexOf(value as string);
            return;
        case "quaternion": {
            const q = value as readonly number[];
            const length = Math.hypot(q[0], q[1], q[2], q[3]);
            // a nearly unit quaternion is kept as written so that it saves back unchanged
            const scale = Math.abs(length - 1) < 1e-6 ? 1 : 1 / length;
            for (let i = 0; i < 4; i++) array[base + i] = q[i] * scale;
            return;
        }
        default: {
            const v = value as readonly number[];
            for (let i = 0; i < width; i++) array[base + i] = v[i];
        }
    }
}

function read_bound(binding: Binding, eid: number): unknown {
    const { field, float32 } = binding;
    const array = binding.store[binding.key];
    const width = field.width;
    const base = eid * width;
    const number = (i: number): number => (float32 ? saved_within(field, array[base + i], shortest_float32(array[base + i])) : array[base + i]);
    switch (field.kind) {
        case "number":
        case "integer":
            return number(0);
        case "boolean":
            return array[base] !== 0;
        case "enum":
            return field.values![array[base]];
        default: {
            const out: number[] = [];
            for (let i = 0; i < width; i++) out.push(number(i));
            return out;
        }
    }
}

/**
 * Describes a component for level files. A system registers its descriptor in `startup`
 * (`entityManager.components.register(Trail3DDescriptor)`, a no-op the second time). Example:
 *
 * ```ts
 * export const Trail3D = PerEntity.define({
 *     width: PerEntity.f32(),
 *     colour: PerEntity.f32(4),
 *     spawning: PerEntity.u8(),
 *     slot: PerEntity.i32(1, -1),          // not in the level: reset below
 * });
 * export const Trail3DDescriptor = define_component({
 *     name: "Trail3D",
 *     component: Trail3D,
 *     fields: {
 *         width: Field.number({ default: 0.1, exclusive_minimum: 0 }),
 *         colour: Field.colour({ default: [1, 1, 1, 1] }),
 *         spawning: Field.boolean({ default: true }),
 *         gradient: Field.array(Field.colour(), { default: [] }),   // side data
 *     },
 *     write(eid, value) { gradients[eid] = value.gradient.map((c) => [...c]); },
 *     read(eid) { return { gradient: gradients[eid].map((c) => [...c]) }; },
 *     reset(eid) { Trail3D.slot[eid] = -1; gradients[eid] = []; },
 * });
 * ```
 *
 * Definition errors (a field with no typed array and no `write`) throw here, naming the component and field.
 */
export function define_component<const F extends FieldMap>(spec: ComponentDescriptorSpec<F>): ComponentDescriptor<ComponentValue<F>> {
    const { name, component, fields } = spec;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`define_component: '${name}' is not a valid component name (letters, digits, _)`);
    const bindings: Binding[] = [];
    const defaults: { key: string; value: unknown }[] = [];
    const properties: Record<string, TSchema> = {};
    const words: string[] = [];
    for (const key of Object.keys(fields)) {
        const field = fields[key];
        properties[key] = field.presence === "required" ? field.schema : Type.Optional(field.schema);
        words.push(field.presence === "required" ? key : `${key}?`);
        if (field.default !== undefined) defaults.push({ key, value: field.default });
        const array = (component as Record<string, unknown>)[key];
        if (field.width > 0 && is_typed_array(array)) {
            const layout = PerEntity.layout(component, key);
            if (layout === undefined) {
                throw new Error(
                    `define_component: ${name}.${key} is a typed array that does not grow with the entity ids; ` +
                        `declare the component with PerEntity.define({ ${key}: PerEntity.f32(${field.width}), ... })`,
                );
            }
            if (layout.stride !== field.width) {
                throw new Error(`define_component: ${name}.${key} holds ${layout.stride} element(s) per entity; a ${field.kind} field needs ${field.width}`);
            }
            const storage = storage_of(array);
            const problem = binding_problem(field, storage);
            if (problem !== null) throw new Error(`define_component: ${name}.${key}: ${problem}`);
            bindings.push({ key, field, store: component as Readonly<Record<string, TypedArray>>, float32: array instanceof Float32Array, storage });
        } else if (spec.write === undefined || spec.read === undefined) {
            const why = field.width === 0 ? `${field.kind === "array" ? "an" : "a"} ${field.kind} field is side data` : `the component has no typed array '${key}'`;
            throw new Error(`define_component: ${name}.${key}: ${why}; give the descriptor write() and read() that store it`);
        }
        if (field.presence === "optional" && field.width > 0 && bindings.at(-1)?.key === key) {
            throw new Error(`define_component: ${name}.${key}: a field bound to a typed array needs a default to be optional`);
        }
    }
    const requires = [...(spec.requires ?? [])];
    for (const required of requires) {
        if (required === undefined || typeof required.name !== "string") {
            throw new Error(`define_component: ${name}.requires must list component descriptors (is one imported in a cycle?)`);
        }
    }
    const schema = Type.Object(properties, { additionalProperties: false, description: spec.description });
    const expected = `a ${name} object { ${words.join(", ")} }`;
    const keys = Object.keys(fields);
    const bound_defaults = bindings.filter((b) => b.field.default !== undefined);
    const by_key = new Map(bindings.map((b) => [b.key, b]));
    // what each field is stored in: a bound field its array, side data what its spec says
    const storage = new Map<string, { own: FieldStorage | null; items: FieldStorage | null }>();
    for (const key of keys) {
        const field = fields[key];
        const bound = by_key.get(key);
        storage.set(key, {
            own: bound !== undefined ? bound.storage : field.float32 === true ? FLOAT32_STORAGE : null,
            items: field.item?.float32 === true ? FLOAT32_STORAGE : null,
        });
    }
    const complete = (value: Readonly<Record<string, unknown>>): ComponentValue<F> => {
        const full: Record<string, unknown> = {};
        for (const key of keys) full[key] = value[key] ?? fields[key].default;
        return full as ComponentValue<F>;
    };

    const descriptor: ComponentDescriptor<ComponentValue<F>> = {
        name,
        component,
        fields,
        schema,
        expected,
        requires,
        reset(eid: number): void {
            for (const binding of bindings) {
                const width = binding.field.width;
                const array = binding.store[binding.key];
                for (let i = eid * width, end = i + width; i < end; i++) array[i] = 0;
            }
            for (const binding of bound_defaults) write_bound(binding, eid, binding.field.default);
            spec.reset?.(eid);
        },
        write(eid, value, entityManager): void {
            for (const binding of bindings) write_bound(binding, eid, value[binding.key] ?? binding.field.default);
            if (spec.write !== undefined) spec.write(eid, complete(value), entityManager);
        },
        read(eid, entityManager): ComponentValue<F> {
            const out: Record<string, unknown> = {};
            const side = spec.read?.(eid, entityManager) as Record<string, unknown> | undefined;
            for (const key of keys) {
                const binding = by_key.get(key);
                const value = binding !== undefined ? read_bound(binding, eid) : side?.[key];
                if (value !== undefined) out[key] = value;
            }
            return out as ComponentValue<F>;
        },
        check(value): LevelIssue | null {
            for (const key of keys) {
                const field = fields[key];
                const v = value[key];
                if (v === undefined || field.check === undefined) continue;
                const failed = field.check(v);
                if (failed !== null) return { path: key, expected: failed };
            }
            for (const key of keys) {
                const v = value[key];
                if (v === undefined) continue;
                const kept = storage.get(key)!;
                const issue = storage_issue(fields[key], v, kept.own, kept.items);
                if (issue !== null) return { path: key + issue.path, expected: issue.expected };
            }
            return spec.check === undefined ? null : spec.check(complete(value));
        },
        complete,
    };
    if (!descriptor_of_component.has(component)) descriptor_of_component.set(component, descriptor);
    for (const required of requires) required_components.add(required.component);
    return Object.freeze(descriptor);
}
