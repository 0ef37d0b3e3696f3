// The "parent" key of level entities: resolved by name within the level, checked before anything is created,
// saved back by name. Device-independent.
import { describe, expect, it } from "vitest";
import { Name } from "../../../engine/components/Name.js";
import { Transform } from "../../../engine/components/Transform.js";
import { WorldTransform } from "../../../engine/components/WorldTransform.js";
import { Engine } from "../../../engine/Engine.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { level_to_json, save_level } from "../../../engine/level/save_level.js";

const T = (x: number, y = 0, z = 0) => ({ position: [x, y, z], rotation: [0, 0, 0, 1], scale: [1, 1, 1] });

/** A level with a child before its parent, a grandchild, and a root; every field spelled out. */
const LEVEL = {
    version: 1,
    entities: [
        { name: "turret", parent: "tank", Transform: T(0, 2, 0) },
        { name: "tank", Transform: { position: [10, 0, 0], rotation: [0, 0.7071068, 0, 0.7071068], scale: [2, 2, 2] } },
        { name: "barrel", parent: "turret", Transform: T(0, 0, 3) },
        { name: "rock", Transform: T(-4) },
    ],
};

function error_of(engine: Engine, source: unknown): LevelError {
    const before = engine.entityManager.entity_count;
    try {
        load_level(engine, source);
    } catch (error) {
        expect(error).toBeInstanceOf(LevelError);
        // nothing was created
        expect(engine.entityManager.entity_count).toBe(before);
        return error as LevelError;
    }
    throw new Error("load_level did not throw");
}

function world_position(eid: number): number[] {
    return Array.from(WorldTransform.matrix.subarray(eid * 16 + 12, eid * 16 + 15)).map((v) => Math.round(v * 1e4) / 1e4 + 0);
}

describe("level files: parent", () => {
    it("links children to parents by name (a parent may come later in the file), places them, and saves back unchanged", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const [turret, tank, barrel, rock] = load_level(engine, JSON.stringify(LEVEL));
        expect(em.parent_of(turret)).toBe(tank);
        expect(em.parent_of(barrel)).toBe(turret);
        expect(em.parent_of(tank)).toBeNull();
        expect(em.parent_of(rock)).toBeNull();
        engine.tick(0);
        // the tank turned a quarter about y and scaled 2: turret 4 up, barrel 6 along the tank's +z (world +x)
        expect(world_position(turret)).toEqual([10, 4, 0]);
        expect(world_position(barrel)).toEqual([16, 4, 0]);
        const saved = save_level(engine);
        expect(saved).toEqual(LEVEL);
        // "parent" right after "name", before the components
        expect(Object.keys(saved.entities[0])).toEqual(["name", "parent", "Transform"]);
        expect(level_to_json(engine)).toContain('"name": "turret",\n      "parent": "tank",\n');
    });

    it("a name no entity of the level has is a LevelError at the parent's path, even when the world has it", () => {
        const engine = new Engine();
        load_level(engine, { entities: [{ name: "tank", Transform: {} }] });
        const error = error_of(engine, { entities: [{ name: "a", Transform: {} }, { name: "b", parent: "tank", Transform: {} }] });
        expect(error.path).toBe("entities[1].parent");
        expect(error.message).toBe(
            'load_level: entities[1].parent: no entity of this level is named "tank"; expected the name of another entity of this level that has a Transform',
        );
    });

    it("refuses an ambiguous name, a self parent, a cycle, and a child or parent without a Transform, naming the path", () => {
        const engine = new Engine();
        const cases: [unknown[], string, string][] = [
            [
                [{ name: "x", Transform: {} }, { name: "x", Transform: {} }, { parent: "x", Transform: {} }],
                "entities[2].parent",
                'load_level: entities[2].parent: "x" names 2 entities (entities[0], entities[1]); expected a name that one entity of this level has',
            ],
            [[{ name: "me", parent: "me", Transform: {} }], "entities[0].parent", 'load_level: entities[0].parent: entities[0] ("me") names itself as its parent'],
            [
                [{ name: "root", Transform: {} }, { name: "a", parent: "c", Transform: {} }, { name: "b", parent: "a", Transform: {} }, { name: "c", parent: "b", Transform: {} }],
                "entities[1].parent",
                'load_level: entities[1].parent: the parents form a cycle: entities[1] ("a") -> entities[3] ("c") -> entities[2] ("b") -> entities[1] ("a")',
            ],
            [[{ name: "p", Transform: {} }, { name: "c", parent: "p" }], "entities[1].parent", 'load_level: entities[1].parent: entities[1] ("c") has a parent but no Transform'],
            [[{ name: "p" }, { name: "c", parent: "p", Transform: {} }], "entities[1].parent", 'load_level: entities[1].parent: the parent entities[0] ("p") has no Transform'],
            [[{ name: "c", parent: 7, Transform: {} }], "entities[0].parent", "load_level: entities[0].parent: got 7; expected a string: the name of another entity of this level"],
        ];
        for (const [entities, path, message] of cases) {
            const error = error_of(engine, { entities });
            expect(error.path).toBe(path);
            expect(error.message.startsWith(message), error.message).toBe(true);
        }
        expect(engine.entityManager.entity_count).toBe(0);
    });

    it("save_level refuses a parent it cannot name, naming both entities", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const parent = em.create_entity();
        em.add_component(parent, Transform);
        const child = em.create_entity();
        em.add_component(child, Transform);
        em.add_component(child, Name, (eid) => {
            Name.value[eid] = "child";
        });
        em.set_parent(child, parent);
        expect(() => save_level(engine)).toThrow(
            `save_level: entity ${child} ('child') has the parent entity ${parent}, which has no name; a level names a parent by its name, so give it a Name`,
        );
        em.add_component(parent, Name, (eid) => {
            Name.value[eid] = "child";
        });
        expect(() => save_level(engine)).toThrow(`save_level: entity ${child} ('child') has the parent entity ${parent} ('child'), whose name another entity has too`);
        Name.value[parent] = "parent";
        expect(save_level(engine).entities.map((e) => e.parent)).toEqual([undefined, "parent"]);
    });
});
