// One counter for every geometry and attribute version. A geometry's version is the largest stamp among its
// own and its attributes', so it moves whenever any of them is flagged, and, the stamps being unique and
// increasing, it never comes back to a value a renderer stored earlier (replacing an attribute included).
let stamp = 0;

/** A version no geometry or attribute has had before. */
export function next_geometry_stamp(): number {
    return ++stamp;
}

/**
 * The last stamp handed out: while it stays the same, no geometry or attribute anywhere was created, flagged or
 * given levels of detail, so a version worked out at it still holds (what `Geometry.version` caches on).
 */
export function last_geometry_stamp(): number {
    return stamp;
}
