import { PerEntity } from "../../engine/PerEntity.js";

/** What `Terrain.write` takes; every field is optional and falls back to `TERRAIN_DEFAULTS`. */
export interface TerrainSpec {
    /** World units across the square terrain (x and z). > 0. */
    readonly size?: number;
    /** Height samples per side (vertices of the grid), 2..1025. */
    readonly resolution?: number;
    /** World units of a height sample of 1: the generated heightmap spans 0..height_scale. */
    readonly height_scale?: number;
    /** Seed of the generated heightmap (fbm of gradient noise). */
    readonly seed?: number;
    /** Noise octaves of the generated heightmap, 1..12. */
    readonly octaves?: number;
    /** Noise features across the terrain in the first octave. > 0. */
    readonly frequency?: number;
    /** Below this fraction of `height_scale` the ground is sand. */
    readonly sand_level?: number;
    /** Above this fraction of `height_scale` the ground is snow. */
    readonly snow_level?: number;
    /** Slope (1 - normal.y: 0 flat, 1 vertical) from which the ground is rock. */
    readonly rock_slope?: number;
    /** `resolution * resolution` heights (row by row along +x, rows along +z), in units of `height_scale`;
     * absent: generated from the seed. */
    readonly heights?: ArrayLike<number> | null;
}

export const TERRAIN_DEFAULTS = {
    size: 64,
    resolution: 129,
    height_scale: 8,
    seed: 1,
    octaves: 5,
    frequency: 3,
    sand_level: 0.12,
    snow_level: 0.85,
    rock_slope: 0.35,
} as const;

export const TERRAIN_MAX_RESOLUTION = 1025;

/**
 * A heightmap terrain, drawn into the G-buffer by `TerrainSystem`: a square of `size` world units centred on
 * the entity's world position (`WorldTransform`: its `Transform` under its parents; the component requires a `Transform`), `resolution` samples per side, heights
 * either generated (seeded fbm noise) or given (`heights`). Its ground is textured in layers chosen by height
 * and slope: sand low, grass, rock on steep slopes, snow high.
 *
 * A bitecs component of typed arrays indexed by entity id. The system rebuilds a terrain when any field
 * changes (compared every update); `Terrain.set_heights` replaces given heights.
 */
export const Terrain = PerEntity.define({
    size: PerEntity.f32(),
    resolution: PerEntity.u32(),
    height_scale: PerEntity.f32(),
    seed: PerEntity.u32(),
    octaves: PerEntity.u32(),
    frequency: PerEntity.f32(),
    sand_level: PerEntity.f32(),
    snow_level: PerEntity.f32(),
    rock_slope: PerEntity.f32(),
    /** Given heights (side data), undefined: generated. */
    heights: PerEntity.value<Float32Array | undefined>(undefined),
    /** Bumped whenever `heights` is replaced. */
    version: PerEntity.u32(),

    /** Fills entity `eid`'s fields from `spec` and the defaults; checks them (the message names the field). */
    write(eid: number, spec: TerrainSpec = {}): void {
        const size = spec.size ?? TERRAIN_DEFAULTS.size;
        const resolution = spec.resolution ?? TERRAIN_DEFAULTS.resolution;
        const height_scale = spec.height_scale ?? TERRAIN_DEFAULTS.height_scale;
        const octaves = spec.octaves ?? TERRAIN_DEFAULTS.octaves;
        const frequency = spec.frequency ?? TERRAIN_DEFAULTS.frequency;
        const seed = spec.seed ?? TERRAIN_DEFAULTS.seed;
        if (!(Number.isFinite(size) && size > 0)) throw new RangeError(`Terrain.size must be a finite number > 0, got ${String(size)}`);
        check_resolution(resolution);
        if (!Number.isFinite(height_scale)) throw new RangeError(`Terrain.height_scale must be a finite number, got ${String(height_scale)}`);
        if (!(Number.isInteger(octaves) && octaves >= 1 && octaves <= 12)) throw new RangeError(`Terrain.octaves must be an integer in 1..12, got ${String(octaves)}`);
        if (!(Number.isFinite(frequency) && frequency > 0)) throw new RangeError(`Terrain.frequency must be a finite number > 0, got ${String(frequency)}`);
        if (!(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) throw new RangeError(`Terrain.seed must be an integer in 0..2^32-1, got ${String(seed)}`);
        for (const key of ["sand_level", "snow_level", "rock_slope"] as const) {
            const v = spec[key] ?? TERRAIN_DEFAULTS[key];
            if (!Number.isFinite(v)) throw new RangeError(`Terrain.${key} must be a finite number, got ${String(v)}`);
            Terrain[key][eid] = v;
        }
        Terrain.size[eid] = size;
        Terrain.resolution[eid] = resolution;
        Terrain.height_scale[eid] = height_scale;
        Terrain.seed[eid] = seed;
        Terrain.octaves[eid] = octaves;
        Terrain.frequency[eid] = frequency;
        Terrain.set_heights(eid, spec.heights ?? null);
    },

    /**
     * Gives entity `eid` explicit heights (`resolution * resolution`, units of `height_scale`), or null to
     * generate them from the seed again. Copied; the next update rebuilds the terrain.
     */
    set_heights(eid: number, heights: ArrayLike<number> | null): void {
        if (heights === null) {
            Terrain.heights[eid] = undefined;
        } else {
            const resolution = Terrain.resolution[eid];
            if (heights.length !== resolution * resolution) {
                throw new RangeError(`Terrain.heights must hold resolution * resolution = ${resolution * resolution} numbers, got ${heights.length}`);
            }
            const copy = new Float32Array(heights.length);
            for (let i = 0; i < heights.length; i++) {
                const h = heights[i];
                if (!Number.isFinite(h)) throw new RangeError(`Terrain.heights[${i}] must be a finite number, got ${String(h)}`);
                copy[i] = h;
            }
            Terrain.heights[eid] = copy;
        }
        Terrain.version[eid] = (Terrain.version[eid] + 1) >>> 0;
    },
});

function check_resolution(resolution: number): void {
    if (!(Number.isInteger(resolution) && resolution >= 2 && resolution <= TERRAIN_MAX_RESOLUTION)) {
        throw new RangeError(`Terrain.resolution must be an integer in 2..${TERRAIN_MAX_RESOLUTION}, got ${String(resolution)}`);
    }
}
