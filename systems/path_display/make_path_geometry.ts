import { Geometry } from "../../shade/renderer/geometry/Geometry.js";

/** Most direction markers one path may have (path length / marker spacing): beyond it the mesh is refused. */
export const MAX_PATH_MARKERS = 65536;

/** Sides of the tube and of the markers' cones. */
const SIDES = 8;
/** Marker cone size in tube widths. */
export const MARKER_RADIUS = 1.5;
export const MARKER_LENGTH = 3;

export interface PathGeometrySpec {
    /** Flat xyz, at least 2 points. */
    readonly waypoints: Float32Array;
    /** Tube diameter. */
    readonly width: number;
    readonly marker_spacing: number;
    readonly color: ArrayLike<number>;
    readonly marker_color: ArrayLike<number>;
}

/**
 * The geometry of a displayed path (world space, per-vertex colour): a closed tube of `SIDES` sides through
 * the waypoints (one ring per waypoint, oriented along the mean of its segments) and an arrowhead cone every
 * `marker_spacing` along the arc length (the first half a spacing in), its base `MARKER_RADIUS` widths
 * across, pointing `MARKER_LENGTH` widths along its segment. Waypoints closer than 1e-6 are merged. More than
 * `MAX_PATH_MARKERS` markers throw.
 */
export function make_path_geometry(spec: PathGeometrySpec): Geometry {
    const { waypoints, width, marker_spacing } = spec;
    // merge repeated points: a zero-length segment has no direction
    const points: number[] = [];
    for (let i = 0; i < waypoints.length; i += 3) {
        const n = points.length;
        if (n >= 3 && Math.hypot(waypoints[i] - points[n - 3], waypoints[i + 1] - points[n - 2], waypoints[i + 2] - points[n - 1]) < 1e-6) continue;
        points.push(waypoints[i], waypoints[i + 1], waypoints[i + 2]);
    }
    const count = points.length / 3;
    const directions: number[] = [];
    const lengths: number[] = [];
    let total = 0;
    for (let i = 0; i + 1 < count; i++) {
        const dx = points[i * 3 + 3] - points[i * 3];
        const dy = points[i * 3 + 4] - points[i * 3 + 1];
        const dz = points[i * 3 + 5] - points[i * 3 + 2];
        const l = Math.hypot(dx, dy, dz);
        directions.push(dx / l, dy / l, dz / l);
        lengths.push(l);
        total += l;
    }
    if (total / marker_spacing > MAX_PATH_MARKERS) {
        throw new RangeError(
            `make_path_geometry: a path ${total} long with a marker every ${marker_spacing} needs more than ${MAX_PATH_MARKERS} markers; space them wider`,
        );
    }
    const markers: { at: number[]; dir: number[] }[] = [];
    if (count >= 2) {
        let segment = 0;
        let start = 0;
        for (let s = marker_spacing / 2; s < total; s += marker_spacing) {
            while (segment < lengths.length - 1 && start + lengths[segment] < s) start += lengths[segment++];
            const t = s - start;
            const d = directions.slice(segment * 3, segment * 3 + 3);
            markers.push({ at: [points[segment * 3] + d[0] * t, points[segment * 3 + 1] + d[1] * t, points[segment * 3 + 2] + d[2] * t], dir: d });
        }
    }
    const tube_vertices = count >= 2 ? count * SIDES : 0;
    const cone_vertices = SIDES + 2;
    const vertices = tube_vertices + markers.length * cone_vertices;
    const position = new Float32Array(vertices * 3);
    const color = new Float32Array(vertices * 4);
    const index: number[] = [];
    const ring = (center: ArrayLike<number>, dir: ArrayLike<number>, radius: number, first: number): void => {
        const [ux, uy, uz] = perpendicular(dir);
        // v = dir x u
        const vx = dir[1] * uz - dir[2] * uy;
        const vy = dir[2] * ux - dir[0] * uz;
        const vz = dir[0] * uy - dir[1] * ux;
        for (let k = 0; k < SIDES; k++) {
            const a = (k / SIDES) * Math.PI * 2;
            const c = Math.cos(a) * radius;
            const s = Math.sin(a) * radius;
            const at = (first + k) * 3;
            position[at] = center[0] + ux * c + vx * s;
            position[at + 1] = center[1] + uy * c + vy * s;
            position[at + 2] = center[2] + uz * c + vz * s;
        }
    };
    const paint = (first: number, n: number, rgba: ArrayLike<number>): void => {
        for (let v = first; v < first + n; v++) for (let k = 0; k < 4; k++) color[v * 4 + k] = rgba[k];
    };
    if (tube_vertices > 0) {
        const radius = width / 2;
        for (let i = 0; i < count; i++) {
            // the mean direction of the segments meeting here, so that rings do not pinch at a bend
            const a = Math.max(0, i - 1);
            const b = Math.min(count - 2, i);
            const dir = normalize([directions[a * 3] + directions[b * 3], directions[a * 3 + 1] + directions[b * 3 + 1], directions[a * 3 + 2] + directions[b * 3 + 2]]);
            ring(points.slice(i * 3, i * 3 + 3), dir, radius, i * SIDES);
        }
        paint(0, tube_vertices, spec.color);
        for (let i = 0; i + 1 < count; i++) {
            for (let k = 0; k < SIDES; k++) {
                const a = i * SIDES + k;
                const b = i * SIDES + ((k + 1) % SIDES);
                index.push(a, b, b + SIDES, a, b + SIDES, a + SIDES);
            }
        }
    }
    for (let m = 0; m < markers.length; m++) {
        const { at, dir } = markers[m];
        const first = tube_vertices + m * cone_vertices;
        ring(at, dir, width * MARKER_RADIUS, first);
        const apex = first + SIDES;
        const base = apex + 1;
        const l = width * MARKER_LENGTH;
        position.set([at[0] + dir[0] * l, at[1] + dir[1] * l, at[2] + dir[2] * l], apex * 3);
        position.set(at, base * 3);
        paint(first, cone_vertices, spec.marker_color);
        for (let k = 0; k < SIDES; k++) {
            const a = first + k;
            const b = first + ((k + 1) % SIDES);
            index.push(a, b, apex, b, a, base);
        }
    }
    return new Geometry({
        position,
        color,
        index: vertices > 65536 ? Uint32Array.from(index) : Uint16Array.from(index),
    });
}

function normalize(v: number[]): number[] {
    const l = Math.hypot(v[0], v[1], v[2]);
    return l < 1e-9 ? [1, 0, 0] : [v[0] / l, v[1] / l, v[2] / l];
}

/** A unit vector perpendicular to unit `d`. */
function perpendicular(d: ArrayLike<number>): number[] {
    // cross with the axis least aligned with d
    const ax = Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    return normalize([d[1] * ax[2] - d[2] * ax[1], d[2] * ax[0] - d[0] * ax[2], d[0] * ax[1] - d[1] * ax[0]]);
}
