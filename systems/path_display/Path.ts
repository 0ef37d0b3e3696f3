import { PerEntity } from "../../engine/PerEntity.js";

/** What `Path.write` takes; omitted fields fall back to `PATH_DEFAULTS`. */
export interface PathSpec {
    /** World-space points, at least 2: `[[x, y, z], ...]` or a flat xyz array. */
    readonly waypoints: ArrayLike<number> | readonly (readonly number[])[];
    /** Tube diameter, world units. > 0. */
    readonly width?: number;
    /** RGBA of the tube (straight alpha). */
    readonly color?: ArrayLike<number>;
    /** RGBA of the direction markers. */
    readonly marker_color?: ArrayLike<number>;
    /** World units between direction markers along the path. > 0. */
    readonly marker_spacing?: number;
}

export const PATH_DEFAULTS = {
    width: 0.1,
    color: [0.2, 0.8, 1, 0.8] as readonly number[],
    marker_color: [1, 1, 1, 1] as readonly number[],
    marker_spacing: 1,
} as const;

/**
 * A path shown by `PathDisplaySystem`: a tube through world-space waypoints with arrowhead markers pointing
 * the way. A bitecs component; waypoints are side data (`Path.waypoints[eid]`, a flat xyz array): replace them
 * with `Path.write` or `Path.set_waypoints`, or rewrite the array in place and call `Path.changed(eid)`. The
 * other fields are read every frame and may be written in place.
 */
export const Path = PerEntity.define({
    width: PerEntity.f32(),
    /** RGBA at `eid * 4`. */
    color: PerEntity.f32(4),
    /** RGBA at `eid * 4`. */
    marker_color: PerEntity.f32(4),
    marker_spacing: PerEntity.f32(),
    /** Bumped whenever the waypoints change; the system rebuilds a path whose version it has not built. */
    version: PerEntity.u32(),
    /** Flat xyz per entity, or undefined (nothing drawn). */
    waypoints: PerEntity.value<Float32Array | undefined>(undefined),

    /** Sets every field of `eid`'s path (checked: the message names the field). */
    write(eid: number, spec: PathSpec): void {
        const width = spec.width ?? PATH_DEFAULTS.width;
        const spacing = spec.marker_spacing ?? PATH_DEFAULTS.marker_spacing;
        if (!(Number.isFinite(width) && width > 0)) throw new RangeError(`Path.width must be a finite number > 0, got ${String(width)}`);
        if (!(Number.isFinite(spacing) && spacing > 0)) throw new RangeError(`Path.marker_spacing must be a finite number > 0, got ${String(spacing)}`);
        Path.set_waypoints(eid, spec.waypoints);
        Path.width[eid] = width;
        Path.marker_spacing[eid] = spacing;
        write_rgba("color", Path.color, eid, spec.color ?? PATH_DEFAULTS.color);
        write_rgba("marker_color", Path.marker_color, eid, spec.marker_color ?? PATH_DEFAULTS.marker_color);
    },

    /** Replaces `eid`'s waypoints (copied): `[[x, y, z], ...]` or flat xyz, at least 2 points, finite. */
    set_waypoints(eid: number, waypoints: ArrayLike<number> | readonly (readonly number[])[]): void {
        const flat = flatten(waypoints);
        if (flat.length < 6) throw new RangeError(`Path.waypoints needs at least 2 points, got ${flat.length / 3}`);
        Path.waypoints[eid] = flat;
        Path.changed(eid);
    },

    /** Says that `eid`'s waypoints array was rewritten in place. */
    changed(eid: number): void {
        Path.version[eid] = (Path.version[eid] + 1) >>> 0;
    },
});

function flatten(waypoints: ArrayLike<number> | readonly (readonly number[])[]): Float32Array {
    const first = waypoints.length > 0 ? (waypoints as ArrayLike<unknown>)[0] : 0;
    let flat: Float32Array;
    if (typeof first === "number") {
        if (waypoints.length % 3 !== 0) throw new RangeError(`Path.waypoints as a flat array holds xyz triples; ${waypoints.length} numbers is not a multiple of 3`);
        flat = Float32Array.from(waypoints as ArrayLike<number>);
    } else {
        const points = waypoints as readonly (readonly number[])[];
        flat = new Float32Array(points.length * 3);
        for (let i = 0; i < points.length; i++) {
            const p = points[i];
            if (p.length !== 3) throw new RangeError(`Path.waypoints[${i}] must be [x, y, z], got ${p.length} numbers`);
            flat.set(p, i * 3);
        }
    }
    for (let i = 0; i < flat.length; i++) {
        if (!Number.isFinite(flat[i])) throw new RangeError(`Path.waypoints[${Math.floor(i / 3)}][${i % 3}] must be a finite number`);
    }
    return flat;
}

function write_rgba(field: string, array: Float32Array, eid: number, rgba: ArrayLike<number>): void {
    if (rgba.length !== 4) throw new RangeError(`Path.${field} is RGBA (4 numbers), got ${rgba.length}`);
    for (let i = 0; i < 4; i++) {
        const v = rgba[i];
        if (!Number.isFinite(v)) throw new RangeError(`Path.${field}[${i}] must be a finite number, got ${String(v)}`);
        array[eid * 4 + i] = v;
    }
}
