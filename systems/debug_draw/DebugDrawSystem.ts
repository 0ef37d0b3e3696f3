import { Transform } from "../../engine/components/Transform.js";
import { WorldTransform } from "../../engine/components/WorldTransform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";
import { DebugBounds } from "./DebugBounds.js";
import { DebugBoundsDescriptor } from "./DebugBoundsDescriptor.js";
import { DebugDrawExtension } from "./DebugDrawExtension.js";
import { DebugLines } from "./DebugLines.js";

export interface DebugDrawSystemOptions {
    /** Line width in pixels of the internal resolution. Default 2. */
    readonly line_width?: number;
    /** Lines hidden behind scene geometry (default true); false draws them over everything. */
    readonly depth_test?: boolean;
    /** One-frame lines reserved up front (grows x2). Default 4096. */
    readonly initial_lines?: number;
}

const TERMS = [Transform, DebugBounds];
const SPHERE_SEGMENTS = 24;
// The unit circle at SPHERE_SEGMENTS + 1 points (cos, sin), computed once: sphere() does no trigonometry per call,
// only loads and multiply-adds. (Its per-call cos/sin once compiled, on a loaded machine, into code that boxed
// every result: 1.4 KB a frame from a 24-segment sphere in test/systems/debug_draw/allocation.test.ts.)
const UNIT_CIRCLE = ((): Float64Array => {
    const circle = new Float64Array(2 * (SPHERE_SEGMENTS + 1));
    for (let i = 0; i <= SPHERE_SEGMENTS; i++) {
        const angle = (i === SPHERE_SEGMENTS ? 0 : i / SPHERE_SEGMENTS) * Math.PI * 2;
        circle[2 * i] = Math.cos(angle);
        circle[2 * i + 1] = Math.sin(angle);
    }
    return circle;
})();
/** Box corners as (x, y, z) signs, and the 12 edges between them. */
const BOX_CORNERS = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1];
const BOX_EDGES = [0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4, 0, 4, 1, 5, 2, 6, 3, 7];
const IDENTITY_ROTATION = [0, 0, 0, 1] as const;
const ONES = [1, 1, 1] as const;

type Vec3 = ArrayLike<number>;
type Rgba = ArrayLike<number>;

/** The 8 corners of a box of half extents `half` (at `h`) in the space of the affine matrix `matrix` (at `m`). */
function box_corners(matrix: Float32Array, m: number, half: Float32Array, h: number, corner: Float32Array): void {
    const hx = half[h];
    const hy = half[h + 1];
    const hz = half[h + 2];
    for (let k = 0; k < 8; k++) {
        const x = BOX_CORNERS[k * 3] * hx;
        const y = BOX_CORNERS[k * 3 + 1] * hy;
        const z = BOX_CORNERS[k * 3 + 2] * hz;
        corner[k * 3] = matrix[m] * x + matrix[m + 4] * y + matrix[m + 8] * z + matrix[m + 12];
        corner[k * 3 + 1] = matrix[m + 1] * x + matrix[m + 5] * y + matrix[m + 9] * z + matrix[m + 13];
        corner[k * 3 + 2] = matrix[m + 2] * x + matrix[m + 6] * y + matrix[m + 10] * z + matrix[m + 14];
    }
}

/**
 * Immediate-mode debug geometry, drawn as pixel-wide lines by the `DebugDrawExtension` it owns.
 *
 * `line`, `box`, `sphere` and `arrow` take world-space points and an RGBA colour (0..1, straight alpha). With
 * no `duration` (or 0) a shape lives one frame: it is drawn by the next frame rendered and gone from the one
 * after (shapes drawn again each update stay on screen). With `duration` seconds it lives that long on the
 * system's clock (the sum of `update` dts). While nothing renders, a one-frame shape goes at the second update
 * after it was made, so nothing piles up.
 *
 * Component-driven: every entity with `Transform` and `DebugBounds` gets a wire box each update.
 * Nothing allocates per call or per update once the line stores have grown to the frame's count. One-frame lines
 * are written straight into a mapped GPU staging buffer when the extension has one ready (see
 * `DebugLineStaging`), so the frame copies them on the GPU instead of uploading them again.
 */
export class DebugDrawSystem extends System {
    readonly name = "DebugDrawSystem";
    /** One-frame lines written since the last frame took them. */
    readonly frame_lines: DebugLines;
    /** The one-frame lines the last frame recorded took (swapped out of `frame_lines`, no copy). */
    readonly drawn_lines: DebugLines;
    readonly timed_lines = new DebugLines(256, true);
    line_width: number;
    readonly depth_test: boolean;

    readonly #graphics: GraphicsEngine;
    #extension: DebugDrawExtension | null = null;
    #query: EntityQuery | null = null;
    /** Seconds of updates, in a typed array: a double in an object field is boxed on each store until the JIT settles it. */
    readonly #clock = new Float64Array(1);
    #recorded = false;
    /** One-frame lines that existed at the last update. */
    #mark = 0;
    readonly #corner = new Float32Array(24);
    /** Scratch segment (a xyz, b xyz) for shapes computed here. */
    readonly #seg = new Float64Array(6);

    constructor(graphics: GraphicsEngine, options: DebugDrawSystemOptions = {}) {
        super();
        this.#graphics = graphics;
        this.line_width = options.line_width ?? 2;
        if (!(Number.isFinite(this.line_width) && this.line_width > 0)) {
            throw new RangeError(`DebugDrawSystem: line_width must be a finite number of pixels > 0, got ${String(options.line_width)}`);
        }
        this.depth_test = options.depth_test ?? true;
        const initial = Math.max(16, options.initial_lines ?? 4096);
        this.frame_lines = new DebugLines(initial, false);
        this.drawn_lines = new DebugLines(initial, false);
    }

    /** The extension while started up, else null. */
    get extension(): DebugDrawExtension | null {
        return this.#extension;
    }

    /** Seconds on the system's clock. */
    get now(): number {
        return this.#clock[0];
    }

    /** Lines waiting to be drawn: timed plus one-frame. */
    get line_count(): number {
        return this.timed_lines.count + this.frame_lines.count;
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#extension !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(DebugBoundsDescriptor);
        this.#query = entityManager.register_query(TERMS);
        this.#extension = this.#graphics.add_extension(new DebugDrawExtension(this));
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        this.#query = null;
        this.clear();
    }

    override update(dt: number): void {
        this.#clock[0] += dt;
        if (!this.#recorded && this.#mark > 0) {
            // no frame since the last update: what existed then had its frame
            this.frame_lines.drop_front(this.#mark);
        }
        this.#recorded = false;
        this.timed_lines.expire(this.#clock);
        if (this.#query !== null) this.#bounds(this.#query.entities);
        this.#mark = this.frame_lines.count;
    }

    /** One-frame boxes around every DebugBounds entity, in its world matrix. */
    #bounds(entities: readonly number[]): void {
        const half = DebugBounds.half_extents;
        const color = DebugBounds.color;
        // the world matrix: the box sits, turns and scales with the entity and its parents
        const world = WorldTransform.matrix;
        const corner = this.#corner;
        for (let i = 0; i < entities.length; i++) {
            const eid = entities[i];
            box_corners(world, eid * 16, half, eid * 3, corner);
            const c = eid * 4;
            for (let e = 0; e < 24; e += 2) this.frame_lines.push(corner, BOX_EDGES[e] * 3, corner, BOX_EDGES[e + 1] * 3, color, c);
        }
    }

    /** @internal the extension took the one-frame lines for a frame */
    frame_recorded(): void {
        this.drawn_lines.count = 0;
        this.drawn_lines.swap(this.frame_lines);
        this.#mark = 0;
        this.#recorded = true;
    }

    /** A line from `a` to `b`. */
    line(a: Vec3, b: Vec3, color: Rgba, duration = 0): void {
        // the one-frame case straight into the store (a mapped staging range, usually): its own monomorphic copy
        this.#push(a, 0, b, 0, color, 0, duration);
    }

    /**
     * Many lines of one colour at once: `points` holds six floats per line (a xyz, b xyz). The bulk form of
     * `line`, for drawing straight from the caller's arrays.
     */
    lines(points: ArrayLike<number>, color: Rgba, duration = 0): void {
        if (points.length % 6 !== 0) throw new RangeError(`DebugDrawSystem.lines: points hold 6 numbers per line (a xyz, b xyz); ${points.length} is not a multiple of 6`);
        const n = points.length / 6;
        if (duration > 0) {
            for (let i = 0; i < n; i++) this.#push(points, i * 6, points, i * 6 + 3, color, 0, duration);
            return;
        }
        this.frame_lines.push_many(points, n, color);
    }

    /** A wire box centred at `center` with `half_extents`, turned by the quaternion `rotation` (x, y, z, w). */
    box(center: Vec3, half_extents: Vec3, color: Rgba, duration = 0, rotation: ArrayLike<number> = IDENTITY_ROTATION): void {
        this.#box(center, 0, half_extents, 0, ONES, 0, rotation, 0, color, 0, duration);
    }

    /** A wire sphere: three great circles of `radius` around `center`. */
    sphere(center: Vec3, radius: number, color: Rgba, duration = 0): void {
        const cx = center[0];
        const cy = center[1];
        const cz = center[2];
        const circle = UNIT_CIRCLE;
        // the segment's ends are stored straight into #seg: no double crosses a call that might not be inlined
        const seg = this.#seg;
        for (let i = 0; i < SPHERE_SEGMENTS; i++) {
            const c0 = circle[2 * i] * radius;
            const s0 = circle[2 * i + 1] * radius;
            const c1 = circle[2 * i + 2] * radius;
            const s1 = circle[2 * i + 3] * radius;
            seg[0] = cx + c0;
            seg[1] = cy + s0;
            seg[2] = cz;
            seg[3] = cx + c1;
            seg[4] = cy + s1;
            seg[5] = cz;
            this.#push(seg, 0, seg, 3, color, 0, duration);
            seg[0] = cx + c0;
            seg[1] = cy;
            seg[2] = cz + s0;
            seg[3] = cx + c1;
            seg[4] = cy;
            seg[5] = cz + s1;
            this.#push(seg, 0, seg, 3, color, 0, duration);
            seg[0] = cx;
            seg[1] = cy + c0;
            seg[2] = cz + s0;
            seg[3] = cx;
            seg[4] = cy + c1;
            seg[5] = cz + s1;
            this.#push(seg, 0, seg, 3, color, 0, duration);
        }
    }

    /** An arrow from `from` to `to` with a four-line head a fifth of its length. */
    arrow(from: Vec3, to: Vec3, color: Rgba, duration = 0): void {
        const fx = from[0];
        const fy = from[1];
        const fz = from[2];
        const tx = to[0];
        const ty = to[1];
        const tz = to[2];
        this.#push(from, 0, to, 0, color, 0, duration);
        const dx = tx - fx;
        const dy = ty - fy;
        const dz = tz - fz;
        const length = Math.sqrt(dx * dx + dy * dy + dz * dz); // Math.hypot allocates (it is variadic)
        if (length < 1e-9) return;
        const head = length * 0.2;
        // two unit vectors across the shaft
        // crossed with the axis least aligned with the shaft: x, or y for a shaft along x
        const along_x = Math.abs(dx) >= 0.9 * length;
        let ux = along_x ? -dz : 0;
        let uy = along_x ? 0 : dz;
        let uz = along_x ? dx : -dy;
        const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        ux /= ul;
        uy /= ul;
        uz /= ul;
        const vx = (dy * uz - dz * uy) / length;
        const vy = (dz * ux - dx * uz) / length;
        const vz = (dx * uy - dy * ux) / length;
        const bx = tx - (dx / length) * head;
        const by = ty - (dy / length) * head;
        const bz = tz - (dz / length) * head;
        const w = head * 0.5;
        // the head's four lines from the tip: stored straight into #seg (as in sphere)
        const seg = this.#seg;
        seg[0] = tx;
        seg[1] = ty;
        seg[2] = tz;
        for (let k = 0; k < 4; k++) {
            const sign = (k & 1) === 0 ? w : -w;
            const use_u = k < 2;
            seg[3] = bx + (use_u ? ux : vx) * sign;
            seg[4] = by + (use_u ? uy : vy) * sign;
            seg[5] = bz + (use_u ? uz : vz) * sign;
            this.#push(seg, 0, seg, 3, color, 0, duration);
        }
    }

    /** Forgets every shape, timed or not. */
    clear(): void {
        this.frame_lines.clear();
        this.drawn_lines.clear();
        this.timed_lines.clear();
        this.#mark = 0;
    }

    #push(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, color: Rgba, c: number, duration: number): void {
        if (duration > 0) {
            const timed = this.timed_lines;
            const i = timed.push(a, ai, b, bi, color, c);
            timed.expiry[i] = this.#clock[0] + duration;
            timed.version++;
        } else {
            this.frame_lines.push(a, ai, b, bi, color, c);
        }
    }

    #box(
        center: ArrayLike<number>,
        p: number,
        half: ArrayLike<number>,
        h: number,
        scale: ArrayLike<number>,
        sc: number,
        rotation: ArrayLike<number>,
        r: number,
        color: Rgba,
        c: number,
        duration: number,
    ): void {
        const hx = half[h] * scale[sc];
        const hy = half[h + 1] * scale[sc + 1];
        const hz = half[h + 2] * scale[sc + 2];
        const qx = rotation[r];
        const qy = rotation[r + 1];
        const qz = rotation[r + 2];
        const qw = rotation[r + 3];
        const corner = this.#corner;
        for (let k = 0; k < 8; k++) {
            const x = BOX_CORNERS[k * 3] * hx;
            const y = BOX_CORNERS[k * 3 + 1] * hy;
            const z = BOX_CORNERS[k * 3 + 2] * hz;
            // v + 2 q.xyz x (q.xyz x v + w v)
            const tx = qy * z - qz * y + qw * x;
            const ty = qz * x - qx * z + qw * y;
            const tz = qx * y - qy * x + qw * z;
            corner[k * 3] = center[p] + x + 2 * (qy * tz - qz * ty);
            corner[k * 3 + 1] = center[p + 1] + y + 2 * (qz * tx - qx * tz);
            corner[k * 3 + 2] = center[p + 2] + z + 2 * (qx * ty - qy * tx);
        }
        for (let e = 0; e < 24; e += 2) this.#push(corner, BOX_EDGES[e] * 3, corner, BOX_EDGES[e + 1] * 3, color, c, duration);
    }
}
