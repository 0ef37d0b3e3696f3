import { PerEntity } from "../../engine/PerEntity.js";

/** What `Trail3D.write` takes; every field is optional and falls back to `TRAIL3D_DEFAULTS`. */
export interface Trail3DSpec {
    /** Seconds a point of the trail lives; the trail is this long in time. > 0. */
    readonly max_age?: number;
    /** World units across the ribbon. >= 0. */
    readonly width?: number;
    /** RGBA, straight alpha: the ribbon's colour. */
    readonly color?: ArrayLike<number>;
    /** RGBA multiplier at the head (the entity) of the trail. */
    readonly head?: ArrayLike<number>;
    /** RGBA multiplier at the tail (the oldest point); between head and tail it is interpolated. */
    readonly tail?: ArrayLike<number>;
    /** Whether the trail grows behind the entity; off, the existing points age out. */
    readonly spawning?: boolean;
}

export const TRAIL3D_DEFAULTS = {
    max_age: 1,
    width: 0.1,
    color: [1, 1, 1, 1] as readonly number[],
    head: [1, 1, 1, 1] as readonly number[],
    tail: [1, 1, 1, 0] as readonly number[],
    spawning: true,
} as const;

/**
 * A trail behind a moving entity (with `Transform`): a camera-facing ribbon through the entity's recent
 * positions, drawn by `Trail3DSystem`. A bitecs component of typed arrays indexed by entity id; the colour of
 * a point is `color * mix(head, tail, position along the trail)`, its alpha faded further by its age over
 * `max_age`. Fields are read every frame: write them in place. `spawning` going from 0 to 1 starts a fresh
 * trail (no segment bridges the pause).
 *
 * `entityManager.add_component(eid, Trail3D)` starts it with the defaults (its level descriptor,
 * `Trail3DDescriptor`, resets it; a bare bitecs `addComponent` leaves zeros: an invisible trail);
 * `Trail3D.write(eid, spec)` sets every field at once.
 */
export const Trail3D = PerEntity.define({
    max_age: PerEntity.f32(),
    width: PerEntity.f32(),
    /** RGBA at `eid * 4`. */
    color: PerEntity.f32(4),
    /** RGBA at `eid * 4`. */
    head: PerEntity.f32(4),
    /** RGBA at `eid * 4`. */
    tail: PerEntity.f32(4),
    /** 1: the trail grows; 0: it does not. */
    spawning: PerEntity.u8(),
    /** Bumped by `clear`; the system empties a trail whose count it has not seen. */
    clear_count: PerEntity.u32(),

    /** Fills entity `eid`'s fields from `spec` and the defaults; checks them (the message names the field). */
    write(eid: number, spec: Trail3DSpec = {}): void {
        const max_age = spec.max_age ?? TRAIL3D_DEFAULTS.max_age;
        const width = spec.width ?? TRAIL3D_DEFAULTS.width;
        if (!(Number.isFinite(max_age) && max_age > 0)) throw new RangeError(`Trail3D.max_age must be a finite number > 0, got ${String(max_age)}`);
        if (!(Number.isFinite(width) && width >= 0)) throw new RangeError(`Trail3D.width must be a finite number >= 0, got ${String(width)}`);
        Trail3D.max_age[eid] = max_age;
        Trail3D.width[eid] = width;
        write_rgba("color", Trail3D.color, eid, spec.color ?? TRAIL3D_DEFAULTS.color);
        write_rgba("head", Trail3D.head, eid, spec.head ?? TRAIL3D_DEFAULTS.head);
        write_rgba("tail", Trail3D.tail, eid, spec.tail ?? TRAIL3D_DEFAULTS.tail);
        Trail3D.spawning[eid] = (spec.spawning ?? TRAIL3D_DEFAULTS.spawning) ? 1 : 0;
    },

    /** Empties entity `eid`'s trail: from the next update it starts again at the entity. */
    clear(eid: number): void {
        Trail3D.clear_count[eid] = (Trail3D.clear_count[eid] + 1) >>> 0;
    },
});

function write_rgba(field: string, array: Float32Array, eid: number, rgba: ArrayLike<number>): void {
    if (rgba.length !== 4) throw new RangeError(`Trail3D.${field} is RGBA (4 numbers), got ${rgba.length}`);
    for (let i = 0; i < 4; i++) {
        const v = rgba[i];
        if (!Number.isFinite(v)) throw new RangeError(`Trail3D.${field}[${i}] must be a finite number, got ${String(v)}`);
        array[eid * 4 + i] = v;
    }
}
