/** Floats per terrain vertex: position xyz, normal xyz. */
export const TERRAIN_VERTEX_FLOATS = 6;

/**
 * One terrain's geometry on the CPU: the heights, the interleaved vertices (world position and normal) and
 * the triangle indices, and the height query that follows the drawn triangles exactly (so a unit standing on
 * `height_at` stands on the surface the player sees, not on a bilinear blend of it).
 *
 * Cell (i, j) is split along the diagonal from (i + 1, j) to (i, j + 1); both triangles wind counter-clockwise
 * seen from above (+y).
 */
export class TerrainGrid {
    readonly resolution: number;
    readonly size: number;
    readonly height_scale: number;
    /** World position of the centre of the square at height 0. */
    readonly origin_x: number;
    readonly origin_y: number;
    readonly origin_z: number;
    /** Heights in units of `height_scale`, `resolution * resolution`. */
    readonly heights: Float32Array;
    readonly vertices: Float32Array;
    readonly indices: Uint32Array;
    /** Lowest and highest world y of the surface. */
    readonly min_y: number;
    readonly max_y: number;

    constructor(heights: Float32Array, resolution: number, size: number, height_scale: number, origin_x: number, origin_y: number, origin_z: number) {
        if (heights.length !== resolution * resolution) throw new RangeError(`TerrainGrid: ${heights.length} heights for a ${resolution} x ${resolution} grid`);
        this.resolution = resolution;
        this.size = size;
        this.height_scale = height_scale;
        this.origin_x = origin_x;
        this.origin_y = origin_y;
        this.origin_z = origin_z;
        this.heights = heights;
        const n = resolution;
        const spacing = size / (n - 1);
        const x0 = origin_x - size / 2;
        const z0 = origin_z - size / 2;
        const vertices = new Float32Array(n * n * TERRAIN_VERTEX_FLOATS);
        let min_y = Infinity;
        let max_y = -Infinity;
        const h = (i: number, j: number): number => heights[Math.min(Math.max(j, 0), n - 1) * n + Math.min(Math.max(i, 0), n - 1)] * height_scale;
        for (let j = 0; j < n; j++) {
            for (let i = 0; i < n; i++) {
                const v = (j * n + i) * TERRAIN_VERTEX_FLOATS;
                const y = origin_y + h(i, j);
                vertices[v] = x0 + i * spacing;
                vertices[v + 1] = y;
                vertices[v + 2] = z0 + j * spacing;
                // central differences (one-sided at the border)
                const dx = (h(i + 1, j) - h(i - 1, j)) / ((Math.min(i + 1, n - 1) - Math.max(i - 1, 0)) * spacing);
                const dz = (h(i, j + 1) - h(i, j - 1)) / ((Math.min(j + 1, n - 1) - Math.max(j - 1, 0)) * spacing);
                const inv = 1 / Math.sqrt(dx * dx + 1 + dz * dz);
                vertices[v + 3] = -dx * inv;
                vertices[v + 4] = inv;
                vertices[v + 5] = -dz * inv;
                if (y < min_y) min_y = y;
                if (y > max_y) max_y = y;
            }
        }
        const indices = new Uint32Array((n - 1) * (n - 1) * 6);
        let k = 0;
        for (let j = 0; j < n - 1; j++) {
            for (let i = 0; i < n - 1; i++) {
                const a = j * n + i; // (i, j)
                const b = a + 1; // (i + 1, j)
                const c = a + n; // (i, j + 1)
                const d = c + 1; // (i + 1, j + 1)
                indices[k++] = a;
                indices[k++] = c;
                indices[k++] = b;
                indices[k++] = b;
                indices[k++] = c;
                indices[k++] = d;
            }
        }
        this.vertices = vertices;
        this.indices = indices;
        this.min_y = min_y;
        this.max_y = max_y;
    }

    /** Whether (x, z) is over the terrain. */
    contains(x: number, z: number): boolean {
        const half = this.size / 2;
        return Math.abs(x - this.origin_x) <= half && Math.abs(z - this.origin_z) <= half;
    }

    /** World height of the drawn surface at (x, z); NaN outside the square. */
    height_at(x: number, z: number): number {
        if (!this.contains(x, z)) return Number.NaN;
        const n = this.resolution;
        const cells = n - 1;
        const u = ((x - this.origin_x) / this.size + 0.5) * cells;
        const v = ((z - this.origin_z) / this.size + 0.5) * cells;
        const i = Math.min(Math.floor(u), cells - 1);
        const j = Math.min(Math.floor(v), cells - 1);
        const fx = u - i;
        const fz = v - j;
        const heights = this.heights;
        const h00 = heights[j * n + i];
        const h10 = heights[j * n + i + 1];
        const h01 = heights[(j + 1) * n + i];
        const h11 = heights[(j + 1) * n + i + 1];
        const t = fx + fz <= 1 ? h00 + fx * (h10 - h00) + fz * (h01 - h00) : h11 + (1 - fx) * (h01 - h11) + (1 - fz) * (h10 - h11);
        return this.origin_y + t * this.height_scale;
    }
}
