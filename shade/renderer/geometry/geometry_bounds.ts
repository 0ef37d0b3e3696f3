import type { Geometry } from "./Geometry.js";

/** A geometry's bounding sphere in model space (the centre of its box, half the box's diagonal), as of `version`. */
export interface GeometryBounds {
    version: number;
    x: number;
    y: number;
    z: number;
    radius: number;
}

const bounds_cache = new WeakMap<Geometry, GeometryBounds>();

/**
 * The geometry's bounding sphere, worked out again only when its version moved (one entry per geometry, reused:
 * nothing allocated once seen). What CPU and GPU culling test against.
 */
export function geometry_bounds(geometry: Geometry): GeometryBounds {
    let b = bounds_cache.get(geometry);
    if (b !== undefined && b.version === geometry.version) return b;
    const p = geometry.attributes.position.array;
    let min_x = Infinity, min_y = Infinity, min_z = Infinity, max_x = -Infinity, max_y = -Infinity, max_z = -Infinity;
    for (let i = 0; i + 2 < p.length; i += 3) {
        min_x = Math.min(min_x, p[i]); max_x = Math.max(max_x, p[i]);
        min_y = Math.min(min_y, p[i + 1]); max_y = Math.max(max_y, p[i + 1]);
        min_z = Math.min(min_z, p[i + 2]); max_z = Math.max(max_z, p[i + 2]);
    }
    if (b === undefined) {
        b = { version: 0, x: 0, y: 0, z: 0, radius: 0 };
        bounds_cache.set(geometry, b);
    }
    b.version = geometry.version;
    if (min_x > max_x) {
        // no vertices: nothing to draw, a point at the origin bounds it
        b.x = b.y = b.z = b.radius = 0;
        return b;
    }
    b.x = (min_x + max_x) / 2;
    b.y = (min_y + max_y) / 2;
    b.z = (min_z + max_z) / 2;
    b.radius = Math.sqrt((max_x - min_x) ** 2 + (max_y - min_y) ** 2 + (max_z - min_z) ** 2) / 2;
    return b;
}
