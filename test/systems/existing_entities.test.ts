// Every system serves the entities that existed before it was added, and after it is removed and added again
// (the particle system once saw only emitters added after its startup). On the real engine (Dawn): each case
// renders frames, and what the system's extension draws from is read back (for particles, the GPU pool itself).
import { describe, expect, it } from "vitest";
import { Transform } from "../../engine/components/Transform.js";
import type { Engine } from "../../engine/Engine.js";
import type { System } from "../../engine/System.js";
import { make_box_geometry } from "../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { DebugBounds } from "../../systems/debug_draw/DebugBounds.js";
import { DebugDrawSystem } from "../../systems/debug_draw/DebugDrawSystem.js";
import { Decal } from "../../systems/decals/Decal.js";
import { DecalSystem } from "../../systems/decals/DecalSystem.js";
import { FogOfWarSystem } from "../../systems/fog_of_war/FogOfWarSystem.js";
import { FogRevealer } from "../../systems/fog_of_war/FogRevealer.js";
import { Highlight } from "../../systems/highlight/Highlight.js";
import { HighlightEntries } from "../../systems/highlight/HighlightExtension.js";
import { HighlightSystem } from "../../systems/highlight/HighlightSystem.js";
import { add_particle_emitter } from "../../systems/particles/add_particle_emitter.js";
import { GPUParticleEmitterSystem } from "../../systems/particles/GPUParticleEmitterSystem.js";
import { Path } from "../../systems/path_display/Path.js";
import { PathDisplaySystem } from "../../systems/path_display/PathDisplaySystem.js";
import { Terrain } from "../../systems/terrain/Terrain.js";
import { TerrainSystem } from "../../systems/terrain/TerrainSystem.js";
import { MeshRenderer, write_mesh_renderer } from "../../systems/scene/MeshRenderer.js";
import { SceneSystem } from "../../systems/scene/SceneSystem.js";
import { Trail3D } from "../../systems/trails/Trail3D.js";
import { Trail3DSystem } from "../../systems/trails/Trail3DSystem.js";
import { start_engine } from "./trails/engine_fixture.js";

const DT = 1 / 30;

interface Case {
    readonly name: string;
    make(engine: Engine): System;
    /** An entity the system serves, at `x` on the x axis. */
    spawn(engine: Engine, x: number): number;
    /** Called once the system is started up (again): what only a started system can be told. */
    started?(system: System, engine: Engine, entities: readonly number[]): void;
    /** How many of `entities` the system serves, as its extension draws them. */
    served(system: System, engine: Engine, entities: readonly number[]): number | Promise<number>;
}

function placed(engine: Engine, x: number): number {
    const em = engine.entityManager;
    const eid = em.create_entity();
    em.add_component(eid, Transform);
    Transform.position[eid * 3] = x;
    return eid;
}

const meshes = new Map<number, Mesh>();

const CASES: readonly Case[] = [
    {
        name: "SceneSystem",
        make: (engine) => new SceneSystem(engine.graphics),
        spawn(engine, x) {
            const eid = placed(engine, x);
            engine.entityManager.add_component(eid, MeshRenderer, (e) => write_mesh_renderer(e, { geometry: "sphere" }));
            return eid;
        },
        // the renderer's scene holds a mesh at each entity's place
        served: (_system, engine, entities) =>
            entities.filter((eid) => engine.graphics.scene.meshes.some((m) => m.world_matrix[12] === Transform.position[eid * 3])).length,
    },
    {
        name: "TerrainSystem",
        make: (engine) => new TerrainSystem(engine.graphics),
        spawn(engine, x) {
            const eid = placed(engine, x * 10);
            engine.entityManager.add_component(eid, Terrain, (e) => Terrain.write(e, { size: 4, resolution: 3 }));
            return eid;
        },
        served: (system, _engine, entities) => {
            const terrain = system as TerrainSystem;
            return entities.filter((eid) => terrain.grid_of(eid) !== null && terrain.draws.some((d) => d.eid === eid)).length;
        },
    },
    {
        name: "DecalSystem",
        make: (engine) => new DecalSystem(engine.graphics),
        spawn(engine, x) {
            const eid = placed(engine, x);
            engine.entityManager.add_component(eid, Decal, (e) => Decal.write(e, { frame: 1 }));
            return eid;
        },
        served: (system, _engine, entities) => {
            const decals = system as DecalSystem;
            // the instance records hold each decal's position
            let n = 0;
            for (const eid of entities) {
                for (let k = 0; k < decals.instances.count; k++) if (decals.instances.data[k * 24] === Transform.position[eid * 3]) n++;
            }
            return n;
        },
    },
    {
        name: "FogOfWarSystem",
        make: (engine) => new FogOfWarSystem(engine.graphics, { grid: [32, 32], bounds: [-16, -16, 16, 16], fade_time: 0 }),
        spawn(engine, x) {
            const eid = placed(engine, x * 4);
            engine.entityManager.add_component(eid, FogRevealer, (e) => (FogRevealer.radius[e] = 1));
            return eid;
        },
        served: (system, _engine, entities) => entities.filter((eid) => (system as FogOfWarSystem).is_visible(0, Transform.position[eid * 3], 0)).length,
    },
    {
        name: "GPUParticleEmitterSystem",
        make: (engine) => new GPUParticleEmitterSystem(engine.graphics, { capacity: 256, max_emitters: 8 }),
        spawn(engine, x) {
            // five still particles that live for ever
            return add_particle_emitter(engine.entityManager, placed(engine, x), { rate: 0, burst: 5, lifetime: [1000, 1000], speed: [0, 0] });
        },
        async served(system) {
            const particles = system as GPUParticleEmitterSystem;
            // each served emitter burst its five on its first simulated frame (the GPU pool, read back)
            return (await particles.read_back()).live_slots / 5;
        },
    },
    {
        name: "Trail3DSystem",
        make: (engine) => new Trail3DSystem(engine.graphics, { segments: 8, initial_capacity: 1 }),
        spawn(engine, x) {
            const eid = placed(engine, x);
            engine.entityManager.add_component(eid, Trail3D);
            return eid;
        },
        served: (system, _engine, entities) => entities.filter((eid) => (system as Trail3DSystem).point_count(eid) > 0).length,
    },
    {
        name: "PathDisplaySystem",
        make: (engine) => new PathDisplaySystem(engine.graphics),
        spawn(engine, x) {
            const eid = engine.entityManager.create_entity();
            engine.entityManager.add_component(eid, Path, (e) => Path.write(e, { waypoints: [[x, 0, 0], [x, 1, 0]] }));
            return eid;
        },
        served: (system) => (system as PathDisplaySystem).batch.count,
    },
    {
        name: "HighlightSystem",
        make: (engine) => new HighlightSystem(engine.graphics),
        spawn(engine, x) {
            const eid = placed(engine, x);
            const mesh = new Mesh(make_box_geometry(0.5, 0.5, 0.5), new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] }));
            mesh.position.set([x, 0, 0]);
            engine.graphics.scene.add(mesh);
            meshes.set(eid, mesh);
            engine.entityManager.add_component(eid, Highlight);
            return eid;
        },
        started(system, _engine, entities) {
            // the entity -> mesh side table is the system's, filled once it runs
            for (const eid of entities) (system as HighlightSystem).set_mesh(eid, meshes.get(eid)!);
        },
        served(system, _engine, entities) {
            // the outlines the extension draws this frame: one entry per highlighted mesh, by object id
            const entries = new HighlightEntries();
            const n = (system as HighlightSystem).collect(entries);
            const ids = new Set(Array.from(entries.u32.subarray(0, n * 8)).filter((_, i) => i % 8 === 0));
            return entities.filter((eid) => ids.has(meshes.get(eid)!.object_id)).length;
        },
    },
    {
        name: "DebugDrawSystem",
        make: (engine) => new DebugDrawSystem(engine.graphics),
        spawn(engine, x) {
            const eid = placed(engine, x);
            engine.entityManager.add_component(eid, DebugBounds);
            return eid;
        },
        // twelve lines a box, taken by the last frame recorded
        served: (system) => (system as DebugDrawSystem).drawn_lines.count / 12,
    },
];

describe("every system keeps its entities (Dawn)", () => {
    for (const c of CASES) {
        it(`${c.name}: serves entities made before it was added, and after it is removed and added again`, async () => {
            const { engine, errors } = await start_engine(32);
            const tick = (): void => {
                engine.tick(DT);
                engine.tick(DT);
            };
            // two entities before the system exists (two, so that a list that keeps only its last one shows)
            const entities = [c.spawn(engine, -1), c.spawn(engine, 1)];
            let system = await engine.add_system(c.make(engine));
            c.started?.(system, engine, entities);
            tick();
            expect(await c.served(system, engine, entities), "made before the system was added").toBe(2);

            // removed: one more entity made meanwhile; added again, it serves all three
            await engine.remove_system(system);
            engine.tick(DT);
            entities.push(c.spawn(engine, 2));
            system = await engine.add_system(system);
            c.started?.(system, engine, entities);
            tick();
            expect(await c.served(system, engine, entities), "after remove_system and add_system again").toBe(3);

            // a fresh instance of the system, too
            await engine.remove_system(system);
            system = await engine.add_system(c.make(engine));
            c.started?.(system, engine, entities);
            tick();
            expect(await c.served(system, engine, entities), "a new system on the same world").toBe(3);
            await engine.shutdown();
            expect(errors).toEqual([]);
        });
    }
});
