// Terrain in level files (GPU-free): registered by TerrainSystem's startup, validated with JSON paths,
// generated or given heights, round-trips through save_level; height_at without a GPU.
import { describe, expect, it } from "vitest";
import { level_error } from "../../engine/level/level_error.js";
import { Engine } from "../../../engine/Engine.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { save_level } from "../../../engine/level/save_level.js";
import { generate_heightmap } from "../../../systems/terrain/generate_heightmap.js";
import { Terrain } from "../../../systems/terrain/Terrain.js";
import { TerrainSystem } from "../../../systems/terrain/TerrainSystem.js";


describe("Terrain level descriptor", () => {
    it("a level with a generated and a given terrain loads, builds and saves back the same", async () => {
        const engine = new Engine();
        const system = await engine.add_system(new TerrainSystem(engine.graphics));
        const [a, b] = load_level(engine, {
            entities: [
                { Transform: { position: [0, -1, 0] }, Terrain: { size: 32, resolution: 17, height_scale: 6, seed: 42 } },
                { Transform: { position: [100, 0, 0] }, Terrain: { size: 2, resolution: 2, height_scale: 1, heights: [0, 1, 0.5, 0.25] } },
            ],
        });
        expect(Terrain.size[a]).toBe(32);
        expect(Terrain.octaves[a]).toBe(5); // default
        expect(Terrain.heights[a]).toBeUndefined();
        expect(Array.from(Terrain.heights[b]!)).toEqual([0, 1, 0.5, 0.25]);
        engine.update(0);
        expect(system.build_count).toBe(2);
        // generated: the seed's heightmap, offset by the Transform
        const heights = generate_heightmap(17, 42, 5, 3);
        expect(system.height_at(-16, -16)).toBeCloseTo(-1 + heights[0] * 6, 5);
        expect(system.height_at(16, 16)).toBeCloseTo(-1 + heights[16 * 17 + 16] * 6, 5);
        // given, on the drawn triangles: (i, j) = (1, 0) is 1, (0, 1) 0.5; the diagonal between them averages
        expect(system.height_at(101, -1)).toBeCloseTo(1);
        expect(system.height_at(99, 1)).toBeCloseTo(0.5);
        expect(system.height_at(100, 0)).toBeCloseTo(0.75);
        expect(system.height_at(50, 0)).toBeNaN();
        const saved = save_level(engine) as unknown as { entities: Record<string, unknown>[] };
        expect(saved.entities[1].Terrain).toMatchObject({ size: 2, resolution: 2, heights: [0, 1, 0.5, 0.25] });
        expect(saved.entities[0].Terrain).not.toHaveProperty("heights");
        // unchanged: nothing is rebuilt; a changed field is
        engine.update(0);
        expect(system.build_count).toBe(2);
        Terrain.seed[a] = 43;
        engine.update(0);
        expect(system.build_count).toBe(3);
        expect(system.height_at(16, 16)).not.toBeCloseTo(-1 + heights[16 * 17 + 16] * 6, 5);
        // a removed terrain is gone from height_at
        engine.entityManager.remove_entity(b);
        engine.update(0);
        expect(system.height_at(101, -1)).toBeNaN();
        await engine.shutdown();
    });

    it("bad values are refused with the JSON path named", async () => {
        const engine = new Engine();
        await engine.add_system(new TerrainSystem(engine.graphics));
        expect(level_error(engine, { entities: [{ Terrain: { resolution: 1 } }] }).path).toBe("entities[0].Terrain.resolution");
        expect(level_error(engine, { entities: [{ Terrain: { size: 0 } }] }).path).toBe("entities[0].Terrain.size");
        const wrong = level_error(engine, { entities: [{}, { Terrain: { resolution: 3, heights: [0, 1] } }] });
        expect(wrong.path).toBe("entities[1].Terrain.heights");
        expect(wrong.message).toContain("resolution * resolution = 9");
        expect(engine.entityManager.entity_count).toBe(0);
        await engine.shutdown();
    });

    it("the heightmap is seeded: same arguments, same heights; another seed, others; 0..1", () => {
        const a = generate_heightmap(33, 7, 5, 3);
        expect(generate_heightmap(33, 7, 5, 3)).toEqual(a);
        const b = generate_heightmap(33, 8, 5, 3);
        let differ = 0;
        for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > 0.05) differ++;
        expect(differ).toBeGreaterThan(a.length / 4);
        expect(Math.min(...a)).toBeCloseTo(0, 6);
        expect(Math.max(...a)).toBeCloseTo(1, 5);
    });

    it("every generated height is a number in 0..1 at every resolution, small ones and many seeds included (no NaN holes)", () => {
        for (const resolution of [2, 3, 4, 5, 9, 17, 33]) {
            for (let seed = 0; seed < 40; seed++) {
                for (const octaves of [1, 5]) {
                    const heights = generate_heightmap(resolution, seed, octaves, 3);
                    const bad = heights.findIndex((h) => !(h >= 0 && h <= 1));
                    expect(bad, `resolution ${resolution}, seed ${seed}, octaves ${octaves}: heights[${bad}] = ${heights[bad]}`).toBe(-1);
                }
            }
        }
    });

    it("Terrain.write names the field it refuses", () => {
        expect(() => Terrain.write(1, { resolution: 2000 })).toThrow("Terrain.resolution must be an integer in 2..1025");
        expect(() => Terrain.write(1, { resolution: 3, heights: [1, 2] })).toThrow("Terrain.heights must hold resolution * resolution = 9 numbers, got 2");
        expect(() => Terrain.write(1, { size: -1 })).toThrow("Terrain.size must be a finite number > 0");
    });
});
