// Trail3D in level files (GPU-free): registered by the system's startup, validated with JSON paths, round-trips.
import { describe, expect, it } from "vitest";
import { level_error } from "../../engine/level/level_error.js";
import { Engine } from "../../../engine/Engine.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { save_level } from "../../../engine/level/save_level.js";
import { Trail3D } from "../../../systems/trails/Trail3D.js";
import { Trail3DSystem } from "../../../systems/trails/Trail3DSystem.js";

const LEVEL = {
    entities: [
        { Transform: { position: [1, 2, 3] }, Trail3D: { max_age: 2, width: 0.25, color: [1, 0.5, 0, 1], tail: [1, 1, 1, 0.5] } },
        { Transform: {}, Trail3D: { spawning: false } },
    ],
};


describe("Trail3D level descriptor", () => {
    it("a level with trails loads after Trail3DSystem's startup and saves back the same", async () => {
        const engine = new Engine();
        await engine.add_system(new Trail3DSystem(engine.graphics));
        const [a, b] = load_level(engine, LEVEL);
        expect(Trail3D.max_age[a]).toBe(2);
        expect(Trail3D.width[a]).toBeCloseTo(0.25);
        expect(Array.from(Trail3D.color.subarray(a * 4, a * 4 + 4))).toEqual([1, 0.5, 0, 1]);
        expect(Array.from(Trail3D.head.subarray(a * 4, a * 4 + 4))).toEqual([1, 1, 1, 1]); // default
        expect(Trail3D.spawning[b]).toBe(0);
        expect(Trail3D.width[b]).toBeCloseTo(0.1); // default
        const saved = save_level(engine) as unknown as { entities: Record<string, unknown>[] };
        expect(saved.entities[0].Trail3D).toEqual({ max_age: 2, width: 0.25, color: [1, 0.5, 0, 1], head: [1, 1, 1, 1], tail: [1, 1, 1, 0.5], spawning: true });
    });

    it("bad Trail3D values fail with the JSON path and the expected shape, and the world is unchanged", async () => {
        const engine = new Engine();
        await engine.add_system(new Trail3DSystem(engine.graphics));
        const before = engine.entityManager.entity_count;
        const cases: [unknown, string, RegExp][] = [
            [{ width: -1 }, "entities[1].Trail3D.width", />= 0/],
            [{ max_age: 0 }, "entities[1].Trail3D.max_age", /> 0/],
            [{ color: [1, 1, 1] }, "entities[1].Trail3D.color", /\[r, g, b, a\]/],
            [{ spawning: "yes" }, "entities[1].Trail3D.spawning", /true or false/],
            [{ widht: 1 }, "entities[1].Trail3D.widht", /Trail3D/],
        ];
        for (const [trail, path, expected] of cases) {
            const error = level_error(engine, { entities: [{ Transform: {} }, { Transform: {}, Trail3D: trail }] });
            expect(error.path).toBe(path);
            expect(error.message).toContain(path);
            expect(error.message).toMatch(expected);
            expect(engine.entityManager.entity_count).toBe(before);
        }
    });
});
