import { PerEntity } from "../../engine/PerEntity.js";

/** What `Decal.write` takes; every field is optional and falls back to `DECAL_DEFAULTS`. */
export interface DecalSpec {
    /** Box extents in world units: x and z across the mark, y the depth it projects through. Each > 0. */
    readonly size?: ArrayLike<number>;
    /** Frame of the atlas (`DECAL_FRAMES` for the built-in one), counted row by row. */
    readonly frame?: number;
    /** RGBA multiplied with the atlas texel; alpha is the opacity. */
    readonly color?: ArrayLike<number>;
    /** Radians about the projection axis (the box's local y). */
    readonly rotation?: number;
}

export const DECAL_DEFAULTS = {
    size: [1, 1, 1] as readonly number[],
    frame: 0,
    color: [1, 1, 1, 1] as readonly number[],
    rotation: 0,
} as const;

/**
 * A box-projected decal (scorch mark, selection circle) drawn by `DecalSystem`: a box of `size` at the
 * entity's `Transform` (position, rotation; the size is multiplied by its scale) projects an atlas frame
 * down its local -y onto whatever surfaces the G-buffer holds inside the box. It fades where the surface
 * turns away from the projection axis (no stretching down cliffs) and toward the top and bottom of the box.
 *
 * A bitecs component of typed arrays indexed by entity id; fields are read every update: write them in place.
 */
export const Decal = PerEntity.define({
    /** x, y, z at `eid * 3`. */
    size: PerEntity.f32(3),
    frame: PerEntity.u32(),
    /** RGBA at `eid * 4`. */
    color: PerEntity.f32(4),
    rotation: PerEntity.f32(),

    /** Fills entity `eid`'s fields from `spec` and the defaults; checks them (the message names the field). */
    write(eid: number, spec: DecalSpec = {}): void {
        const size = spec.size ?? DECAL_DEFAULTS.size;
        const color = spec.color ?? DECAL_DEFAULTS.color;
        const frame = spec.frame ?? DECAL_DEFAULTS.frame;
        const rotation = spec.rotation ?? DECAL_DEFAULTS.rotation;
        if (size.length !== 3) throw new RangeError(`Decal.size is [x, y, z] (3 numbers), got ${size.length}`);
        for (let i = 0; i < 3; i++) {
            if (!(Number.isFinite(size[i]) && size[i] > 0)) throw new RangeError(`Decal.size[${i}] must be a finite number > 0, got ${String(size[i])}`);
        }
        if (color.length !== 4) throw new RangeError(`Decal.color is RGBA (4 numbers), got ${color.length}`);
        for (let i = 0; i < 4; i++) {
            if (!Number.isFinite(color[i])) throw new RangeError(`Decal.color[${i}] must be a finite number, got ${String(color[i])}`);
        }
        if (!(Number.isInteger(frame) && frame >= 0)) throw new RangeError(`Decal.frame must be an integer >= 0, got ${String(frame)}`);
        if (!Number.isFinite(rotation)) throw new RangeError(`Decal.rotation must be a finite number of radians, got ${String(rotation)}`);
        for (let i = 0; i < 3; i++) Decal.size[eid * 3 + i] = size[i];
        for (let i = 0; i < 4; i++) Decal.color[eid * 4 + i] = color[i];
        Decal.frame[eid] = frame;
        Decal.rotation[eid] = rotation;
    },
});
