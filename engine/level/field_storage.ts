import type { LevelIssue } from "./ComponentDescriptor.js";
import type { FieldSpec } from "./Field.js";

/** @internal A typed array a component field may be bound to. */
export type TypedArray =
    | Float32Array
    | Float64Array
    | Int8Array
    | Int16Array
    | Int32Array
    | Uint8Array
    | Uint16Array
    | Uint32Array
    | Uint8ClampedArray;

/** @internal What one element of a field's storage holds: float32, float64, or integers in [min, max]. */
export interface FieldStorage {
    readonly kind: "float32" | "float64" | "integer";
    /** The typed array's name, for messages ("Uint8Array"). */
    readonly array: string;
    readonly min: number;
    readonly max: number;
}

/** Largest finite float32. */
export const FLOAT32_MAX = 3.4028234663852886e38;
/** Integers up to this magnitude are exact in a float32. */
const FLOAT32_EXACT_INTEGER = 16777216;

/** @internal */
export const FLOAT32_STORAGE: FieldStorage = { kind: "float32", array: "Float32Array", min: -FLOAT32_MAX, max: FLOAT32_MAX };

/** @internal The storage of `array`'s elements. */
export function storage_of(array: TypedArray): FieldStorage {
    const name = array.constructor.name;
    if (array instanceof Float32Array) return FLOAT32_STORAGE;
    if (array instanceof Float64Array) return { kind: "float64", array: name, min: -Number.MAX_VALUE, max: Number.MAX_VALUE };
    const bits = array.BYTES_PER_ELEMENT * 8;
    const signed = array instanceof Int8Array || array instanceof Int16Array || array instanceof Int32Array;
    return signed ? { kind: "integer", array: name, min: -(2 ** (bits - 1)), max: 2 ** (bits - 1) - 1 } : { kind: "integer", array: name, min: 0, max: 2 ** bits - 1 };
}

/** The numeric bounds of a number or integer field, as its schema states them. */
function bounds(field: FieldSpec): { min?: number; max?: number; above?: number } {
    const schema = field.schema as { minimum?: number; maximum?: number; exclusiveMinimum?: number };
    return { min: schema.minimum, max: schema.maximum, above: schema.exclusiveMinimum };
}

function within(field: FieldSpec, x: number): boolean {
    if (field.kind !== "number" && field.kind !== "integer") return true;
    const b = bounds(field);
    return !((b.min !== undefined && x < b.min) || (b.max !== undefined && x > b.max) || (b.above !== undefined && !(x > b.above)));
}

/**
 * @internal Refuses, when a descriptor is defined, a binding whose array cannot hold what the field's schema accepts: a
 * number field on an integer array (it would truncate), an enum with more values than the array counts, a
 * float32 field whose bound is not a float32 value (a value at the bound would be stored past it: write
 * `Math.fround(bound)`). Returns the problem, or null.
 */
export function binding_problem(field: FieldSpec, storage: FieldStorage): string | null {
    if (storage.kind === "integer" && field.kind !== "integer" && field.kind !== "enum" && field.kind !== "boolean") {
        return `a ${field.kind} field is bound to a ${storage.array}, which would truncate it; use Field.integer or a Float32Array`;
    }
    if (field.kind === "enum" && field.values!.length - 1 > storage.max) {
        return `${field.values!.length} enum values do not fit a ${storage.array} (at most ${storage.max + 1})`;
    }
    if (storage.kind === "float32" && (field.kind === "number" || field.kind === "integer")) {
        const b = bounds(field);
        for (const [name, value] of [["minimum", b.min], ["maximum", b.max], ["exclusive_minimum", b.above]] as const) {
            if (value !== undefined && Math.fround(value) !== value) {
                return `its ${name} ${value} is not a float32 value, and the field is stored in a Float32Array; use Math.fround(${value}) (${Math.fround(value)})`;
            }
        }
    }
    return null;
}

/** The issue with one number `x` of `field` stored in `storage`, or null. */
function number_issue(field: FieldSpec, x: number, storage: FieldStorage): string | null {
    const integer = field.kind === "integer";
    if (storage.kind === "integer") {
        return x < storage.min || x > storage.max ? `an integer in ${storage.min}..${storage.max} (what a ${storage.array} holds)` : null;
    }
    if (storage.kind !== "float32") return null;
    const stored = Math.fround(x);
    if (!Number.isFinite(stored)) return `a number a Float32Array holds (magnitude at most ${FLOAT32_MAX})`;
    if (integer && stored !== x) return `an integer a Float32Array holds exactly (magnitude at most ${FLOAT32_EXACT_INTEGER})`;
    if (!within(field, stored)) return `${field.expected} once stored as a float32 (${x} is stored as ${stored})`;
    return null;
}

/**
 * @internal The first part of `value` (a field's validated JSON value) that `storage` cannot hold as it is, so that what is
 * loaded saves back as a value the loader takes again: a float32 beyond its range (saved as null) or rounded out
 * of the field's bounds (a positive width stored as 0), an integer beyond its array type. Array fields are walked
 * item by item with the items' own storage (`item_storage`). `path` is relative to the field ("[2]", "[3][1]").
 */
export function storage_issue(field: FieldSpec, value: unknown, storage: FieldStorage | null, item_storage: FieldStorage | null = null): LevelIssue | null {
    switch (field.kind) {
        case "number":
        case "integer": {
            if (storage === null) return null;
            const expected = number_issue(field, value as number, storage);
            return expected === null ? null : { path: "", expected };
        }
        case "vec2":
        case "vec3":
        case "vec4":
        case "quaternion":
        case "colour": {
            if (storage === null) return null;
            const v = value as readonly number[];
            for (let i = 0; i < v.length; i++) {
                const expected = number_issue(field, v[i], storage);
                if (expected !== null) return { path: `[${i}]`, expected };
            }
            return null;
        }
        case "array": {
            if (item_storage === null) return null;
            const items = value as readonly unknown[];
            for (let i = 0; i < items.length; i++) {
                const issue = storage_issue(field.item!, items[i], item_storage);
                if (issue !== null) return { path: `[${i}]${issue.path}`, expected: issue.expected };
            }
            return null;
        }
        default:
            // enums, booleans and strings fit by construction
            return null;
    }
}

/** @internal `value` as saved: the shortest decimal of the float32 unless that decimal falls outside the field's bounds. */
export function saved_within(field: FieldSpec, stored: number, shortest: number): number {
    return shortest === stored || within(field, shortest) ? shortest : stored;
}
