import { Type, type TSchema } from "@sinclair/typebox";

/** What a field holds; the kinds with a `width` can be bound to a typed array of the component by name. */
export type FieldKind =
    | "number"
    | "integer"
    | "vec2"
    | "vec3"
    | "vec4"
    | "quaternion"
    | "colour"
    | "enum"
    | "boolean"
    | "string"
    | "array";

/**
 * One field of a component in level JSON: its JSON Schema (a TypeBox schema), whether it may be left out and
 * with which default, and how it is stored. Build one with `Field.*`; `T` is its JSON value.
 */
/** Whether a field must be in the level, has a default, or may be absent (side data only). */
export type FieldPresence = "required" | "default" | "optional";

export interface FieldSpec<T = unknown, P extends FieldPresence = FieldPresence> {
    readonly kind: FieldKind;
    readonly schema: TSchema;
    /** True when the field may be left out (it has a default, or the descriptor's own `write` handles absence). */
    readonly presence: P;
    /** Written when the field is left out of the level (and by `reset` on add); absent for required fields. */
    readonly default: T | undefined;
    /** The expected shape in words, quoted by level errors: "[x, y, z]: 3 finite numbers". */
    readonly expected: string;
    /**
     * Floats (or integers) per entity in a typed array bound by name, 0 when the field is side data that the
     * descriptor's own `write`/`read` must handle (strings, arrays).
     */
    readonly width: number;
    /** Array fields: the spec of each item. */
    readonly item?: FieldSpec;
    /** Enum fields: the allowed strings; the typed array stores the index. */
    readonly values?: readonly string[];
    /**
     * Side data the descriptor keeps in a Float32Array (`{ float32: true }`): the loader refuses what a float32
     * cannot hold, as it does for fields bound to a Float32Array. (A bound field's storage is its array's.)
     */
    readonly float32?: boolean;
    /** Checks beyond the schema (a zero quaternion); returns the expected shape when `value` fails. */
    check?(value: T): string | null;
}

export interface FieldOptions<T> {
    /** Makes the field optional; written when the level leaves it out. */
    readonly default?: T;
    /** Optional without a default: the descriptor's `write` sees `undefined` (side-data fields only). */
    readonly optional?: boolean;
    /** For editors (the JSON Schema `description`). */
    readonly description?: string;
    /** Side data stored as float32 by the descriptor's `write` (see `FieldSpec.float32`). */
    readonly float32?: boolean;
}

export interface NumberFieldOptions extends FieldOptions<number> {
    readonly minimum?: number;
    readonly maximum?: number;
    /** The value must be greater than this (a width > 0). */
    readonly exclusive_minimum?: number;
}

type Spec<T, O> = O extends { default: unknown } ? FieldSpec<T, "default"> : O extends { optional: true } ? FieldSpec<T, "optional"> : FieldSpec<T, "required">;

export type Vec2Value = [number, number];
export type Vec3Value = [number, number, number];
export type Vec4Value = [number, number, number, number];

/** The JSON value type of a field. */
export type FieldValue<F> = F extends FieldSpec<infer T, infer P> ? (P extends "optional" ? T | undefined : T) : never;

const FINITE = "a finite number";

function make<T>(
    kind: FieldKind,
    schema: TSchema,
    expected: string,
    width: number,
    options: FieldOptions<T>,
    extra: { values?: readonly string[]; item?: FieldSpec; check?: (value: T) => string | null } = {},
): FieldSpec<T> {
    const presence: FieldPresence = options.default !== undefined ? "default" : options.optional === true ? "optional" : "required";
    if (options.description !== undefined) schema.description = options.description;
    if (options.default !== undefined) schema.default = options.default;
    return Object.freeze({
        kind,
        schema,
        presence,
        default: options.default,
        expected,
        width,
        ...(options.float32 === true ? { float32: true } : {}),
        ...extra,
    }) as FieldSpec<T>;
}

function bounds(options: NumberFieldOptions): { text: string; schema: Record<string, number> } {
    const parts: string[] = [];
    const schema: Record<string, number> = {};
    if (options.minimum !== undefined) {
        parts.push(`>= ${options.minimum}`);
        schema.minimum = options.minimum;
    }
    if (options.exclusive_minimum !== undefined) {
        parts.push(`> ${options.exclusive_minimum}`);
        schema.exclusiveMinimum = options.exclusive_minimum;
    }
    if (options.maximum !== undefined) {
        parts.push(`<= ${options.maximum}`);
        schema.maximum = options.maximum;
    }
    return { text: parts.length === 0 ? "" : ` ${parts.join(" and ")}`, schema };
}

function numbers(count: number, names: string, kind: FieldKind, options: FieldOptions<number[]>, element = Type.Number()): FieldSpec<number[]> {
    const items: TSchema[] = [];
    for (let i = 0; i < count; i++) items.push(element);
    return make(kind, Type.Tuple(items), `[${names}]: ${count} finite numbers`, count, options);
}

/**
 * Builders of the field kinds a level component can have. Numbers are finite (NaN and Infinity are refused).
 *
 * ```ts
 * width: Field.number({ default: 1, exclusive_minimum: 0 }),   // optional, > 0
 * colour: Field.colour(),                                       // required [r, g, b, a] in 0..1
 * waypoints: Field.array(Field.vec3(), { min_items: 2 }),        // side data: the descriptor writes it
 * ```
 */
export const Field = {
    number<O extends NumberFieldOptions>(options: O = {} as O): Spec<number, O> {
        const b = bounds(options);
        return make("number", Type.Number(b.schema), FINITE + b.text, 1, options) as Spec<number, O>;
    },

    integer<O extends NumberFieldOptions>(options: O = {} as O): Spec<number, O> {
        const b = bounds(options);
        return make("integer", Type.Integer(b.schema), "an integer" + b.text, 1, options) as Spec<number, O>;
    },

    vec2<O extends FieldOptions<Vec2Value>>(options: O = {} as O): Spec<Vec2Value, O> {
        return numbers(2, "x, y", "vec2", options as FieldOptions<number[]>) as unknown as Spec<Vec2Value, O>;
    },

    vec3<O extends FieldOptions<Vec3Value>>(options: O = {} as O): Spec<Vec3Value, O> {
        return numbers(3, "x, y, z", "vec3", options as FieldOptions<number[]>) as unknown as Spec<Vec3Value, O>;
    },

    vec4<O extends FieldOptions<Vec4Value>>(options: O = {} as O): Spec<Vec4Value, O> {
        return numbers(4, "x, y, z, w", "vec4", options as FieldOptions<number[]>) as unknown as Spec<Vec4Value, O>;
    },

    /** A rotation [x, y, z, w], not all zero; normalised when written. */
    quaternion<O extends FieldOptions<Vec4Value>>(options: O = {} as O): Spec<Vec4Value, O> {
        const items = [Type.Number(), Type.Number(), Type.Number(), Type.Number()];
        const expected = "[x, y, z, w]: a quaternion of 4 finite numbers, not all zero";
        return make<Vec4Value>("quaternion", Type.Tuple(items), expected, 4, options, {
            check: (q) => (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-12 ? null : expected),
        }) as Spec<Vec4Value, O>;
    },

    /** A colour [r, g, b, a], each in 0..1 (linear). */
    colour<O extends FieldOptions<Vec4Value>>(options: O = {} as O): Spec<Vec4Value, O> {
        const c = Type.Number({ minimum: 0, maximum: 1 });
        return make("colour", Type.Tuple([c, c, c, c]), "[r, g, b, a]: 4 numbers in 0..1", 4, options) as Spec<Vec4Value, O>;
    },

    /** One of `values`; a bound typed array stores its index. */
    enum<const V extends readonly string[], O extends FieldOptions<V[number]>>(values: V, options: O = {} as O): Spec<V[number], O> {
        const schema = Type.Union(values.map((v) => Type.Literal(v)));
        const expected = `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
        return make("enum", schema, expected, 1, options, { values }) as Spec<V[number], O>;
    },

    /** A bound typed array stores 1 or 0. */
    boolean<O extends FieldOptions<boolean>>(options: O = {} as O): Spec<boolean, O> {
        return make("boolean", Type.Boolean(), "true or false", 1, options) as Spec<boolean, O>;
    },

    /** Side data: the descriptor's `write`/`read` store it. */
    string<O extends FieldOptions<string> & { readonly max_length?: number }>(options: O = {} as O): Spec<string, O> {
        const schema = options.max_length === undefined ? Type.String() : Type.String({ maxLength: options.max_length });
        const expected = options.max_length === undefined ? "a string" : `a string of at most ${options.max_length} characters`;
        return make("string", schema, expected, 0, options) as Spec<string, O>;
    },

    /** Side data (waypoints, gradient stops): the descriptor's `write`/`read` store it. */
    array<T, O extends FieldOptions<T[]> & { readonly min_items?: number; readonly max_items?: number }>(
        item: FieldSpec<T>,
        options: O = {} as O,
    ): Spec<T[], O> {
        const limits: Record<string, number> = {};
        const words: string[] = [];
        if (options.min_items !== undefined) {
            limits.minItems = options.min_items;
            words.push(`at least ${options.min_items}`);
        }
        if (options.max_items !== undefined) {
            limits.maxItems = options.max_items;
            words.push(`at most ${options.max_items}`);
        }
        const expected = `an array of ${words.length === 0 ? "" : words.join(" and ") + " "}items, each ${item.expected}`;
        const check = item.check;
        return make<T[]>("array", Type.Array(item.schema, limits), expected, 0, options, {
            item: item as FieldSpec,
            check:
                check === undefined
                    ? undefined
                    : (values) => {
                          for (const value of values) {
                              const failed = check(value);
                              if (failed !== null) return `${expected} (${failed})`;
                          }
                          return null;
                      },
        }) as Spec<T[], O>;
    },
};
