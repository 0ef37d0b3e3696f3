// Every system that places something by an entity's Transform places a child where its parent puts it (the
// world matrix), and follows when only the parent moves. Device-independent: CPU-side records of each system
// (the graphics engines stay stopped).
import { describe, expect, it } from "vitest";
import { Transform } from "../../engine/components/Transform.js";
import { Engine } from "../../engine/Engine.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import { DebugBounds } from "../../systems/debug_draw/DebugBounds.js";
import { DebugDrawSystem } from "../../systems/debug_draw/DebugDrawSystem.js";
import { LINE_WORDS } from "../../systems/debug_draw/DebugLines.js";
import { Decal } from "../../systems/decals/Decal.js";
import { DecalSystem } from "../../systems/decals/DecalSystem.js";
import { FogCellState } from "../../systems/fog_of_war/FogCellState.js";
import { FogOfWarSystem } from "../../systems/fog_of_war/FogOfWarSystem.js";
import { FogRevealer } from "../../systems/fog_of_war/FogRevealer.js";
import { ParticleEmitter } from "../../systems/particles/ParticleEmitter.js";
import { ParticleEmitterTable } from "../../systems/particles/ParticleEmitterTable.js";
import { E_DIRECTION, E_POSITION, EMITTER_WORDS } from "../../systems/particles/particle_simulate.wgsl.js";
import { Terrain } from "../../systems/terrain/Terrain.js";
import { TerrainSystem } from "../../systems/terrain/TerrainSystem.js";
import { Trail3D } from "../../systems/trails/Trail3D.js";
import { Trail3DSystem } from "../../systems/trails/Trail3DSystem.js";
import { RECORD_HEAD } from "../../systems/trails/TrailPool.js";

/** A parent at (10, 0, 0) turned a quarter about +y (local +x points to world -z), and its child at local (2, 0, 0). */
function parent_and_child(em: EntityManager): { parent: number; child: number } {
    const parent = em.create_entity();
    em.add_component(parent, Transform, (eid) => {
        Transform.position.set([10, 0, 0], eid * 3);
        Transform.rotation.set([0, Math.SQRT1_2, 0, Math.SQRT1_2], eid * 4);
    });
    const child = em.create_entity();
    em.add_component(child, Transform, (eid) => Transform.position.set([2, 0, 0], eid * 3));
    em.set_parent(child, parent);
    return { parent, child };
}

const near = (values: ArrayLike<number>, expected: readonly number[]): void => {
    expect(values.length).toBe(expected.length);
    for (let i = 0; i < expected.length; i++) expect(values[i], `[${i}] of ${Array.from(values).join(", ")}`).toBeCloseTo(expected[i], 4);
};

describe("systems place children by their world matrix", () => {
    it("Trail3DSystem: the trail's head is the child's world position, and follows the parent", async () => {
        const engine = new Engine();
        const trails = await engine.add_system(new Trail3DSystem(engine.graphics));
        const { parent, child } = parent_and_child(engine.entityManager);
        engine.entityManager.add_component(child, Trail3D);
        engine.tick(1 / 60);
        near(trails.pool.records_f32.subarray(RECORD_HEAD, RECORD_HEAD + 3), [10, 0, -2]);
        engine.entityManager.set_position(parent, 0, 5, 0);
        engine.tick(1 / 60);
        near(trails.pool.records_f32.subarray(RECORD_HEAD, RECORD_HEAD + 3), [0, 5, -2]);
    });

    it("FogOfWarSystem: a child revealer reveals around its world position", async () => {
        const engine = new Engine();
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { teams: 1, grid: [32, 32], bounds: [-16, -16, 16, 16] }));
        const { parent, child } = parent_and_child(engine.entityManager);
        engine.entityManager.add_component(child, FogRevealer, (eid) => {
            FogRevealer.radius[eid] = 1;
        });
        engine.tick(0);
        expect(fog.grid.state_at(0, 10, -2)).toBe(FogCellState.Visible);
        expect(fog.grid.state_at(0, 12, 0)).toBe(FogCellState.Hidden);
        engine.entityManager.set_position(parent, -10, 0, 0);
        engine.tick(0);
        expect(fog.grid.state_at(0, -10, -2)).toBe(FogCellState.Visible);
        expect(fog.grid.state_at(0, 10, -2)).toBe(FogCellState.Explored);
    });

    it("DecalSystem: a child decal's box sits at its world position with its axes turned by the parent", async () => {
        const engine = new Engine();
        const decals = await engine.add_system(new DecalSystem(engine.graphics));
        const { parent, child } = parent_and_child(engine.entityManager);
        engine.entityManager.add_component(child, Decal, (eid) => Decal.size.set([2, 1, 4], eid * 3));
        engine.entityManager.set_scale(parent, 3, 3, 3);
        engine.tick(0);
        const record = decals.instances.data;
        // position; local x (half extent 1, scaled 3) now along world -z; local z (half extent 2) along world +x
        near(record.subarray(0, 3), [10, 0, -6]);
        near(record.subarray(4, 8), [0, 0, -1, 3]);
        near(record.subarray(12, 16), [1, 0, 0, 6]);
        engine.entityManager.set_rotation(parent, 0, 0, 0, 1);
        engine.tick(0);
        near(record.subarray(0, 3), [16, 0, 0]);
        near(record.subarray(4, 8), [1, 0, 0, 3]);
    });

    it("DebugDrawSystem: a child's bounds box is drawn around its world position", async () => {
        const engine = new Engine();
        const debug = await engine.add_system(new DebugDrawSystem(engine.graphics));
        const { child } = parent_and_child(engine.entityManager);
        engine.entityManager.add_component(child, DebugBounds, (eid) => DebugBounds.half_extents.set([1, 0.5, 0.25], eid * 3));
        engine.update(0);
        const lines = debug.frame_lines;
        expect(lines.count).toBe(12);
        const min = [Infinity, Infinity, Infinity];
        const max = [-Infinity, -Infinity, -Infinity];
        for (let i = 0; i < lines.count; i++) {
            for (const end of [0, 3]) {
                for (let k = 0; k < 3; k++) {
                    const v = lines.f32[i * LINE_WORDS + end + k];
                    min[k] = Math.min(min[k], v);
                    max[k] = Math.max(max[k], v);
                }
            }
        }
        // the box's x extent turned to world z
        near(min, [10 - 0.25, -0.5, -2 - 1]);
        near(max, [10 + 0.25, 0.5, -2 + 1]);
    });

    it("particles: an emitter record takes the child's world position and turns its direction with the parent", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const table = new ParticleEmitterTable(4);
        const { child } = parent_and_child(em);
        em.add_component(child, ParticleEmitter, (eid) => ParticleEmitter.direction.set([1, 0, 0], eid * 3));
        table.add(child);
        em.update_world_transforms();
        table.write(em.world, new Float64Array([0, 1 / 60]), 1024);
        const at = table.slot_of(child) * EMITTER_WORDS;
        near(table.f32.subarray(at + E_POSITION, at + E_POSITION + 3), [10, 0, -2]);
        near(table.f32.subarray(at + E_DIRECTION, at + E_DIRECTION + 3), [0, 0, -1]);
    });

    it("TerrainSystem: a terrain under a parent is built at its world position, and again when the parent moves", async () => {
        const engine = new Engine();
        const terrain = await engine.add_system(new TerrainSystem(engine.graphics));
        const { parent, child } = parent_and_child(engine.entityManager);
        engine.entityManager.add_component(child, Terrain, (eid) => Terrain.write(eid, { size: 4, resolution: 5 }));
        engine.tick(0);
        near([terrain.grid_of(child)!.origin_x, terrain.grid_of(child)!.origin_y, terrain.grid_of(child)!.origin_z], [10, 0, -2]);
        engine.entityManager.set_position(parent, 1, 2, 3);
        engine.tick(0);
        near([terrain.grid_of(child)!.origin_x, terrain.grid_of(child)!.origin_y, terrain.grid_of(child)!.origin_z], [1, 2, 1]);
    });
});
