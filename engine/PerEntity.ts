/** The typed arrays a per-entity store field can be. */
export type PerEntityArray = Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array;

/** The constructor of a per-entity typed array (`Float32Array`, ...). */
export type PerEntityArrayType = { new (length: number): PerEntityArray };

/** How one field of a store is laid out: `stride` elements per entity id, new slots filled with `fill`. */
export interface PerEntityLayout {
    /** Elements per entity: the field of entity `eid` is `[eid * stride, eid * stride + stride)`. */
    readonly stride: number;
    /** What new slots hold (and what `PerEntity.reset` writes back). */
    readonly fill: unknown;
    /** The typed array type, or null for a plain array of values (side data). */
    readonly type: PerEntityArrayType | null;
}

/** Entity ids every store holds from the start; 1024 ids of every engine and system store come to about 0.5 MB. */
const INITIAL_CAPACITY = 1024;

let capacity = INITIAL_CAPACITY;
/** Fields made by a maker and not yet given to `define`: the array itself is the key. */
const unclaimed = new WeakMap<object, PerEntityLayout>();
const layouts = new WeakMap<object, ReadonlyMap<string, PerEntityLayout>>();
// weak: a system's private store goes with the system; the list is pruned when it grows
const stores: WeakRef<object>[] = [];

function typed<A extends PerEntityArray>(type: { new (length: number): A }, stride: number, fill: number): A {
    if (!(Number.isInteger(stride) && stride >= 1)) throw new RangeError(`PerEntity: stride must be an integer >= 1, got ${stride}`);
    const array = new type(capacity * stride);
    if (fill !== 0) array.fill(fill);
    unclaimed.set(array, { stride, fill, type });
    return array;
}

function grow(store: Record<string, unknown>, layout: ReadonlyMap<string, PerEntityLayout>, ids: number): void {
    for (const [key, field] of layout) {
        const old = store[key];
        if (field.type === null) {
            // plain arrays grow in place (pushed, so that they stay packed): a reference kept to one stays good
            const values = old as unknown[];
            while (values.length < ids) values.push(field.fill);
            continue;
        }
        const previous = old as PerEntityArray;
        if (previous.length >= ids * field.stride) continue;
        const next = new field.type(ids * field.stride);
        next.set(previous);
        if (field.fill !== 0) next.fill(field.fill as number, previous.length);
        store[key] = next;
    }
}

/**
 * Per-entity storage that grows with the entity ids. Component stores (and the per-entity arrays of systems)
 * are objects whose fields come from the makers below, given to `PerEntity.define`:
 *
 * ```ts
 * export const Marker = PerEntity.define({
 *     size: PerEntity.f32(),          // 1 float per entity at [eid]
 *     color: PerEntity.f32(4),        // RGBA at eid * 4
 *     slot: PerEntity.i32(1, -1),     // new slots hold -1
 *     label: PerEntity.value<string | undefined>(undefined), // side data
 * });
 * ```
 *
 * Every store starts with room for `PerEntity.capacity` ids; when an entity is created past it
 * (`EntityManager.create_entity`), every defined store grows (doubling, values copied) and its typed arrays
 * are replaced on the store object. So read fields through the store (`Marker.color[eid * 4]`) and never keep a
 * typed array across a call that can create an entity. Plain value arrays grow in place.
 */
export const PerEntity = {
    f32: (stride = 1, fill = 0): Float32Array => typed(Float32Array, stride, fill),
    f64: (stride = 1, fill = 0): Float64Array => typed(Float64Array, stride, fill),
    i8: (stride = 1, fill = 0): Int8Array => typed(Int8Array, stride, fill),
    i16: (stride = 1, fill = 0): Int16Array => typed(Int16Array, stride, fill),
    i32: (stride = 1, fill = 0): Int32Array => typed(Int32Array, stride, fill),
    u8: (stride = 1, fill = 0): Uint8Array => typed(Uint8Array, stride, fill),
    u16: (stride = 1, fill = 0): Uint16Array => typed(Uint16Array, stride, fill),
    u32: (stride = 1, fill = 0): Uint32Array => typed(Uint32Array, stride, fill),

    /**
     * One value per entity id (side data: strings, arrays, objects), `fill` in every new slot. The one `fill`
     * value is shared by every slot it is in: make it `undefined`, `null` or a primitive, never an object to mutate.
     */
    value<T>(fill: T): T[] {
        const values: T[] = [];
        for (let i = 0; i < capacity; i++) values.push(fill);
        unclaimed.set(values, { stride: 1, fill, type: null });
        return values;
    },

    /**
     * Makes `store` grow with the entity ids and returns it. Its fields made by the makers above are its
     * per-entity fields; other members (methods, constants) are left alone. A typed array that no maker made
     * (a fixed `new Float32Array(n)` would never grow), or one already in another store, throws, naming it.
     */
    define<T extends object>(store: T): T {
        if (layouts.has(store)) throw new Error("PerEntity.define: this store is already defined");
        const layout = new Map<string, PerEntityLayout>();
        for (const [key, value] of Object.entries(store)) {
            if (value === null || typeof value !== "object") continue;
            const field = unclaimed.get(value);
            if (field !== undefined) {
                unclaimed.delete(value);
                layout.set(key, field);
            } else if (ArrayBuffer.isView(value)) {
                throw new Error(
                    `PerEntity.define: field '${key}' is a typed array that no PerEntity maker made (or one already in another store); ` +
                        `make it with PerEntity.${key_hint(value)}(stride) so that it grows with the entity ids`,
                );
            }
        }
        if (layout.size === 0) throw new Error(`PerEntity.define: the store has no per-entity field (make fields with PerEntity.f32(), PerEntity.value(), ...)`);
        layouts.set(store, layout);
        stores.push(new WeakRef(store));
        return store;
    },

    /** Entity ids every store has room for now: ids `[0, capacity)`. */
    get capacity(): number {
        return capacity;
    },

    /**
     * Grows every store to hold ids `[0, ids)` (at least doubling). `EntityManager.create_entity` calls it before
     * it returns an id; a store defined later is made at the grown size.
     */
    reserve(ids: number): void {
        if (ids <= capacity) return;
        const target = Math.max(ids, capacity * 2);
        try {
            let live = 0;
            for (let i = 0; i < stores.length; i++) {
                const store = stores[i].deref();
                if (store === undefined) continue;
                stores[live++] = stores[i];
                grow(store as Record<string, unknown>, layouts.get(store)!, target);
            }
            stores.length = live;
        } catch (error) {
            throw new RangeError(`PerEntity.reserve: the entity stores cannot grow to ${target} ids: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        capacity = target;
    },

    /** The layout of `store`'s field `key`, or undefined when it is not a per-entity field of a defined store. */
    layout(store: object, key: string): PerEntityLayout | undefined {
        return layouts.get(store)?.get(key);
    },

    /** Whether `store` was given to `PerEntity.define`. */
    is_defined(store: object): boolean {
        return layouts.has(store);
    },

    /** Puts every field of `store` back to its fill value for entity `eid` (a recycled id starts clean). */
    reset(store: object, eid: number): void {
        const layout = layouts.get(store);
        if (layout === undefined) return;
        const fields = store as Record<string, unknown>;
        for (const [key, field] of layout) {
            if (field.type === null) (fields[key] as unknown[])[eid] = field.fill;
            else (fields[key] as PerEntityArray).fill(field.fill as number, eid * field.stride, eid * field.stride + field.stride);
        }
    },
};

function key_hint(array: ArrayBufferView): string {
    if (array instanceof Float32Array) return "f32";
    if (array instanceof Float64Array) return "f64";
    if (array instanceof Int8Array) return "i8";
    if (array instanceof Int16Array) return "i16";
    if (array instanceof Int32Array) return "i32";
    if (array instanceof Uint16Array) return "u16";
    if (array instanceof Uint32Array) return "u32";
    return "u8";
}
