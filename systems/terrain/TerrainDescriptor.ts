import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component, shortest_float32 } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { Terrain, TERRAIN_DEFAULTS, TERRAIN_MAX_RESOLUTION } from "./Terrain.js";

/**
 * `Terrain` in level files: `{ "Terrain": { "size": 64, "resolution": 129, "height_scale": 8, "seed": 7 } }`
 * generates the heights; `"heights": [...]` (resolution * resolution numbers, row by row along +x) gives them.
 */
export const TerrainDescriptor = define_component({
    name: "Terrain",
    component: Terrain,
    requires: [TransformDescriptor],
    description: "A heightmap terrain centred on the entity's Transform, drawn into the G-buffer by TerrainSystem",
    fields: {
        size: Field.number({ default: TERRAIN_DEFAULTS.size, exclusive_minimum: 0, description: "world units across (x and z)" }),
        resolution: Field.integer({ default: TERRAIN_DEFAULTS.resolution, minimum: 2, maximum: TERRAIN_MAX_RESOLUTION, description: "height samples per side" }),
        height_scale: Field.number({ default: TERRAIN_DEFAULTS.height_scale, description: "world units of a height of 1" }),
        seed: Field.integer({ default: TERRAIN_DEFAULTS.seed, minimum: 0, maximum: 0xffffffff, description: "seed of the generated heightmap" }),
        octaves: Field.integer({ default: TERRAIN_DEFAULTS.octaves, minimum: 1, maximum: 12, description: "noise octaves of the generated heightmap" }),
        frequency: Field.number({ default: TERRAIN_DEFAULTS.frequency, exclusive_minimum: 0, description: "noise features across the terrain (first octave)" }),
        sand_level: Field.number({ default: TERRAIN_DEFAULTS.sand_level, description: "below this fraction of height_scale: sand" }),
        snow_level: Field.number({ default: TERRAIN_DEFAULTS.snow_level, description: "above this fraction of height_scale: snow" }),
        rock_slope: Field.number({ default: TERRAIN_DEFAULTS.rock_slope, description: "slope (1 - normal.y) from which the ground is rock" }),
        heights: Field.array(Field.number({ float32: true }), {
            optional: true,
            description: "resolution * resolution heights in units of height_scale, row by row along +x; absent: generated",
        }),
    },
    check(value) {
        const heights = value.heights;
        if (heights === undefined) return null;
        const n = value.resolution * value.resolution;
        if (heights.length !== n) return { path: "heights", expected: `resolution * resolution = ${n} numbers (got ${heights.length})` };
        return null;
    },
    write(eid, value) {
        Terrain.set_heights(eid, value.heights ?? null);
    },
    read(eid) {
        const heights = Terrain.heights[eid];
        if (heights === undefined) return {};
        const out: number[] = new Array(heights.length);
        for (let i = 0; i < heights.length; i++) out[i] = shortest_float32(heights[i]);
        return { heights: out };
    },
    reset(eid) {
        Terrain.heights[eid] = undefined;
        Terrain.version[eid] = (Terrain.version[eid] + 1) >>> 0;
    },
});
