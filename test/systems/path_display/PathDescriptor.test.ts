// Path in level files (GPU-free): registered by the system's startup, validated with JSON paths, round-trips.
import { describe, expect, it } from "vitest";
import { Engine } from "../../../engine/Engine.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { save_level } from "../../../engine/level/save_level.js";
import { Path } from "../../../systems/path_display/Path.js";
import { PathDisplaySystem } from "../../../systems/path_display/PathDisplaySystem.js";

describe("Path level descriptor", () => {
    it("a level with a path loads after PathDisplaySystem's startup and saves back the same", async () => {
        const engine = new Engine();
        await engine.add_system(new PathDisplaySystem(engine.graphics));
        const level = { entities: [{ Path: { waypoints: [[0, 0, 0], [1.1, 0, 2], [3, 0.5, 2]], width: 0.25 } }] };
        const [eid] = load_level(engine, level);
        expect(Array.from(Path.waypoints[eid]!)).toEqual([0, 0, 0, Math.fround(1.1), 0, 2, 3, 0.5, 2]);
        const version = Path.version[eid];
        const saved = save_level(engine) as unknown as { entities: Record<string, { waypoints: unknown; width: number }>[] };
        expect(saved.entities[0].Path.waypoints).toEqual(level.entities[0].Path.waypoints);
        expect(saved.entities[0].Path.width).toBe(0.25);
        // a recycled id starts without the old waypoints
        engine.entityManager.remove_entity(eid);
        const again = engine.entityManager.create_entity();
        engine.entityManager.add_component(again, Path);
        expect(again).toBe(eid);
        expect(Path.waypoints[again]).toBeUndefined();
        expect(Path.version[again]).not.toBe(version);
    });

    it("bad Path values fail with the JSON path and the expected shape", async () => {
        const engine = new Engine();
        await engine.add_system(new PathDisplaySystem(engine.graphics));
        const cases: [unknown, string, RegExp][] = [
            [{ waypoints: [[0, 0, 0]] }, "entities[0].Path.waypoints", /at least 2/],
            [{ waypoints: [[0, 0, 0], [1, 0]] }, "entities[0].Path.waypoints[1]", /x, y, z/],
            [{}, "entities[0].Path.waypoints", /waypoints/],
            [{ waypoints: [[0, 0, 0], [1, 0, 0]], width: 0 }, "entities[0].Path.width", /> 0/],
        ];
        for (const [path, where, expected] of cases) {
            let error: unknown = null;
            try {
                load_level(engine, { entities: [{ Path: path }] });
            } catch (e) {
                error = e;
            }
            expect(error, JSON.stringify(path)).toBeInstanceOf(LevelError);
            expect((error as LevelError).path).toBe(where);
            expect((error as LevelError).message).toMatch(expected);
            expect(engine.entityManager.entity_count).toBe(0);
        }
    });
});
