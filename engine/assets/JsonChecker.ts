import { AssetError } from "./AssetError.js";

/** @internal A JSON object as the checker sees it: fields of unknown type until checked. */
export type JsonObject = { readonly [key: string]: unknown };

/**
 * @internal
 * Type checks on untrusted glTF JSON that fail as AssetErrors naming the file and the JSON path
 * (`nodes[3].children[0]`). Each getter returns the value typed, or the fallback when the field is absent.
 */
export class JsonChecker {
    readonly file: string;

    constructor(file: string) {
        this.file = file;
    }

    fail(path: string, reason: string): never {
        throw new AssetError(this.file, path, reason);
    }

    object(value: unknown, path: string): JsonObject {
        if (typeof value !== "object" || value === null || Array.isArray(value)) this.fail(path, `must be an object, got ${describe(value)}`);
        return value as JsonObject;
    }

    /** The array of objects at `owner[key]`; [] when absent. */
    objects(owner: JsonObject, key: string, path: string): JsonObject[] {
        const value = owner[key];
        if (value === undefined) return [];
        if (!Array.isArray(value)) this.fail(path, `must be an array, got ${describe(value)}`);
        for (let i = 0; i < value.length; i++) this.object(value[i], `${path}[${i}]`);
        return value as JsonObject[];
    }

    /** An optional object field (undefined when absent). */
    optional_object(owner: JsonObject, key: string, path: string): JsonObject | undefined {
        const value = owner[key];
        return value === undefined ? undefined : this.object(value, path);
    }

    integer(owner: JsonObject, key: string, path: string, min: number, fallback?: number): number {
        const value = owner[key];
        if (value === undefined && fallback !== undefined) return fallback;
        if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
            this.fail(path, `must be an integer of at least ${min}, got ${describe(value)}`);
        }
        return value;
    }

    /** An index into an array of `length` items named `target` ("nodes"); -1 when absent and optional. */
    index(owner: JsonObject, key: string, path: string, length: number, target: string, optional = true): number {
        const value = owner[key];
        if (value === undefined && optional) return -1;
        return this.index_value(value, path, length, target);
    }

    index_value(value: unknown, path: string, length: number, target: string): number {
        if (typeof value !== "number" || !Number.isInteger(value) || value < 0) this.fail(path, `must be an index into ${target}, got ${describe(value)}`);
        if (value >= length) this.fail(path, `is ${value}, but the file has ${length} ${target}`);
        return value;
    }

    /** An array of `count` finite numbers (any count when `count` is 0); undefined when absent. */
    numbers(owner: JsonObject, key: string, path: string, count: number): number[] | undefined {
        const value = owner[key];
        if (value === undefined) return undefined;
        if (!Array.isArray(value) || (count > 0 && value.length !== count) || !value.every((v) => typeof v === "number" && Number.isFinite(v))) {
            this.fail(path, `must be ${count > 0 ? `${count}` : "an array of"} finite numbers, got ${describe(value)}`);
        }
        return value as number[];
    }

    one_of<T extends string | number>(owner: JsonObject, key: string, path: string, allowed: readonly T[], fallback: T): T {
        const value = owner[key];
        if (value === undefined) return fallback;
        if (!allowed.includes(value as T)) this.fail(path, `must be one of ${allowed.join(", ")}, got ${describe(value)}`);
        return value as T;
    }

    strings(owner: JsonObject, key: string, path: string): string[] {
        const value = owner[key];
        if (value === undefined) return [];
        if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) this.fail(path, `must be an array of strings, got ${describe(value)}`);
        return value as string[];
    }
}

/** @internal A short description of a JSON value for an error message. */
export function describe(value: unknown): string {
    if (value === undefined) return "nothing";
    if (Array.isArray(value)) return value.length <= 4 ? JSON.stringify(value) : `an array of ${value.length}`;
    if (typeof value === "object" && value !== null) return "an object";
    const text = JSON.stringify(value);
    return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
