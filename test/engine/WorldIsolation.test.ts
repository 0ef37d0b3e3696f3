// Two engines in one process keep to themselves: entity data, component membership, queries and observers.
// Device-independent: the graphics engines stay stopped (the systems register their extensions without a device).
import { Not } from "bitecs";
import { describe, expect, it } from "vitest";
import { Name } from "../../engine/components/Name.js";
import { Transform } from "../../engine/components/Transform.js";
import { Engine } from "../../engine/Engine.js";
import { load_level } from "../../engine/level/load_level.js";
import { level_to_json, save_level, type LevelJson } from "../../engine/level/save_level.js";
import { FogOfWarSystem } from "../../systems/fog_of_war/FogOfWarSystem.js";
import { FogCellState } from "../../systems/fog_of_war/FogCellState.js";
import { Trail3DSystem } from "../../systems/trails/Trail3DSystem.js";
import { Trail3D } from "../../systems/trails/Trail3D.js";

/** A level of `count` entities, every field spelled out (so that it saves back equal to itself), from `seed`. */
function make_level(seed: number, count: number): LevelJson {
    let state = seed;
    // hundredths in [offset, offset + 10): short decimals, so that float32 storage saves them back as written
    const random = (offset = 0): number => {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        return (Math.floor((state / 2 ** 32) * 1000) + offset * 100) / 100;
    };
    const entities: Record<string, unknown>[] = [];
    for (let i = 0; i < count; i++) {
        const entity: Record<string, unknown> = {
            name: `w${seed}-${i}`,
            // a hierarchy too: every fifth entity is the child of the one before it
            ...(i % 5 === 4 ? { parent: `w${seed}-${i - 1}` } : {}),
            Transform: { position: [random(), random(), random()], rotation: [0, 0, 0, 1], scale: [1, random(1), 1] },
        };
        if (i % 2 === 0) entity.Trail3D = { max_age: random(1), width: random(), color: [1, 0.5, 0.25, 1], head: [1, 1, 1, 1], tail: [1, 1, 1, 0], spawning: i % 4 === 0 };
        if (i % 3 === 0) entity.FogRevealer = { radius: random(1), team: i % 2 };
        entities.push(entity);
    }
    return { version: 1, entities };
}

async function engine_with_systems(): Promise<Engine> {
    const engine = new Engine();
    await engine.add_system(new Trail3DSystem(engine.graphics));
    await engine.add_system(new FogOfWarSystem(engine.graphics, { teams: 2 }));
    return engine;
}

describe("two engines side by side", () => {
    it("load two levels, interleaved with changes in both, and each saves back unchanged", async () => {
        const level_a = make_level(11, 40);
        const level_b = make_level(23, 30);
        const a = await engine_with_systems();
        const b = await engine_with_systems();
        const ids_a = load_level(a, JSON.stringify(level_a));
        const ids_b = load_level(b, JSON.stringify(level_b));
        // the same id never means two entities
        expect(ids_a.filter((id) => ids_b.includes(id))).toEqual([]);
        // a's entities are not b's
        for (const id of ids_a) expect(b.entityManager.has_entity(id)).toBe(false);
        expect(() => b.entityManager.add_component(ids_a[0], Trail3D)).toThrow(`EntityManager.add_component: entity ${ids_a[0]} does not exist in this world`);
        expect(() => b.entityManager.remove_entity(ids_a[0])).toThrow(`EntityManager.remove_entity: entity ${ids_a[0]} does not exist in this world`);

        // churn in b (create, remove, recycle) and frames in both: nothing of it reaches a
        for (let i = 4; i >= 0; i--) b.entityManager.remove_entity(ids_b[i]);
        const extra = load_level(b, JSON.stringify(make_level(99, 8)));
        for (let i = 0; i < 3; i++) {
            a.tick(1 / 60);
            b.tick(1 / 60);
        }
        for (const id of extra.reverse()) b.entityManager.remove_entity(id);
        load_level(b, JSON.stringify({ entities: level_b.entities.slice(0, 5) }));
        // b now holds level b with its first five entities at the end
        const expected_b = { version: 1, entities: [...level_b.entities.slice(5), ...level_b.entities.slice(0, 5)] };

        expect(save_level(a)).toEqual(level_a);
        expect(save_level(b)).toEqual(expected_b);
        expect(level_to_json(a)).toBe(JSON.stringify(level_a, null, 2) + "\n");
        expect(a.entityManager.entity_count).toBe(40);
        expect(a.entityManager.parent_of(ids_a[4])).toBe(ids_a[3]);
        expect(b.entityManager.entity_count).toBe(30);
    });

    it("observers and queries see only their own world", async () => {
        const a = new Engine();
        const b = new Engine();
        const added_a: number[] = [];
        const removed_a: number[] = [];
        a.entityManager.on_add(Transform, (eid) => added_a.push(eid));
        a.entityManager.on_remove(Transform, (eid) => removed_a.push(eid));
        const a1 = a.entityManager.create_entity();
        a.entityManager.add_component(a1, Transform);
        const b1 = b.entityManager.create_entity();
        b.entityManager.add_component(b1, Transform);
        const b2 = b.entityManager.create_entity();
        b.entityManager.add_component(b2, Name, (eid) => {
            Name.value[eid] = "b2";
        });
        b.entityManager.remove_entity(b1);
        expect(added_a).toEqual([a1]);
        expect(removed_a).toEqual([]);

        // a query of only Not(...) terms, registered after the other world made entities
        const a_unplaced = a.entityManager.register_query([Not(Transform)]);
        const a_placed = a.entityManager.register_query([Transform]);
        const a2 = a.entityManager.create_entity();
        expect([...a_unplaced.entities]).toEqual([a2]);
        expect([...a_placed.entities]).toEqual([a1]);
        expect(a.entityManager.entities()).toEqual([a1, a2]);
        expect(b.entityManager.entities()).toEqual([b2]);
        // b's names are not a's
        expect(a.entityManager.has_component(b2, Name)).toBe(false);
        expect(save_level(a).entities).toEqual([{ Transform: { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }]);
        expect(save_level(b).entities).toEqual([{ name: "b2" }]);
    });

    it("each system serves its own world: a revealer of one engine reveals nothing in the other", async () => {
        const a = new Engine();
        const b = new Engine();
        const options = { teams: 1, grid: [16, 16], bounds: [-8, -8, 8, 8] } as const;
        const fog_a = await a.add_system(new FogOfWarSystem(a.graphics, options));
        const fog_b = await b.add_system(new FogOfWarSystem(b.graphics, options));
        load_level(a, { entities: [{ Transform: { position: [0, 0, 0] }, FogRevealer: { radius: 3 } }] });
        a.tick(0);
        b.tick(0);
        expect(fog_a.grid.state_at(0, 0, 0)).toBe(FogCellState.Visible);
        expect(fog_b.grid.state_at(0, 0, 0)).toBe(FogCellState.Hidden);
    });
});
