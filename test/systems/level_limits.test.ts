// Values the schema allows but a system cannot serve: refused at load with a LevelError naming the path, the
// limit and the system, before anything is created; the limit goes with the system and follows its options; a
// value written by code past the limit is reported naming the system (which is suspended) while the others run.
// Device-independent: the systems run on an engine whose graphics never start.
import { describe, expect, it } from "vitest";
import { Transform } from "../../engine/components/Transform.js";
import { Engine } from "../../engine/Engine.js";
import { LevelError } from "../../engine/level/LevelError.js";
import { load_level } from "../../engine/level/load_level.js";
import { DecalAtlas } from "../../systems/decals/DecalAtlas.js";
import { DecalSystem } from "../../systems/decals/DecalSystem.js";
import { FogOfWarSystem } from "../../systems/fog_of_war/FogOfWarSystem.js";
import { FogRevealer } from "../../systems/fog_of_war/FogRevealer.js";
import { add_particle_emitter } from "../../systems/particles/add_particle_emitter.js";
import { GPUParticleEmitterSystem } from "../../systems/particles/GPUParticleEmitterSystem.js";
import { ParticleEmitter } from "../../systems/particles/ParticleEmitter.js";
import { MAX_PATH_MARKERS } from "../../systems/path_display/make_path_geometry.js";
import { Path } from "../../systems/path_display/Path.js";
import { PathDisplaySystem } from "../../systems/path_display/PathDisplaySystem.js";
import { Trail3D } from "../../systems/trails/Trail3D.js";
import { Trail3DSystem } from "../../systems/trails/Trail3DSystem.js";

function level_error(engine: Engine, source: unknown): LevelError {
    const count = engine.entityManager.entity_count;
    try {
        load_level(engine, source);
    } catch (error) {
        expect(error).toBeInstanceOf(LevelError);
        expect(engine.entityManager.entity_count, "nothing created").toBe(count);
        return error as LevelError;
    }
    throw new Error(`load_level accepted ${JSON.stringify(source).slice(0, 200)}`);
}

const revealer = (fog: Record<string, unknown>): unknown => ({ entities: [{ name: "camp" }, { Transform: {}, FogRevealer: fog }] });

describe("FogOfWarSystem's limits", () => {
    it("a team beyond the fog's team count: refused naming the path, the limit and the system", async () => {
        const engine = new Engine();
        await engine.add_system(new FogOfWarSystem(engine.graphics, { teams: 4 }));
        const error = level_error(engine, revealer({ team: 4 }));
        expect(error.path).toBe("entities[1].FogRevealer.team");
        expect(error.message).toBe(
            "load_level: entities[1].FogRevealer.team: got 4; expected a team in 0..3: the fog tracks 4 teams (its teams option) (the limit of FogOfWarSystem)",
        );
        expect(load_level(engine, revealer({ team: 3 })).length).toBe(2);
    });

    it("follows the system's options, and goes with the system", async () => {
        const engine = new Engine();
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { teams: 8 }));
        expect(load_level(engine, revealer({ team: 7 })).length).toBe(2);
        expect(level_error(engine, revealer({ team: 8 })).message).toContain("a team in 0..7");
        await engine.remove_system(fog);
        // no fog system, no fog limit (the schema's own range still holds)
        expect(load_level(engine, revealer({ team: 12 })).length).toBe(2);
        expect(level_error(engine, revealer({ team: 16 })).message).toContain("<= 15");
    });

    it("a radius of 2^32 (once a RangeError in every update) is refused at load naming the most the fog reaches", async () => {
        const engine = new Engine();
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { bounds: [-30, -40, 30, 40] }));
        expect(fog.max_radius).toBe(100);
        const error = level_error(engine, revealer({ radius: 2 ** 32 }));
        expect(error.message).toBe(
            "load_level: entities[1].FogRevealer.radius: got 4294967296; expected a radius of at most 100 world units: the diagonal of the fog's bounds, which it reaches from anywhere (the limit of FogOfWarSystem)",
        );
        // at the limit it loads, and every cell is visible from the corner
        load_level(engine, { entities: [{ Transform: { position: [-30, 0, -40] }, FogRevealer: { radius: 100 } }] });
        engine.update(1);
        expect(fog.is_visible(0, 29.9, 39.9)).toBe(true);
    });

    it("a radius or team written by code past the limit is reported naming the system and the entity; the other systems run on", async () => {
        const errors: Error[] = [];
        const engine = new Engine({ on_error: (e) => errors.push(e) });
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { bounds: [-8, -8, 8, 8] }));
        const trails = await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 4 }));
        const [eid, walker] = load_level(engine, { entities: [{ Transform: {}, FogRevealer: { radius: 2 } }, { Transform: {}, Trail3D: {} }] });
        engine.update(0.1);
        FogRevealer.radius[eid] = 2 ** 32;
        for (let i = 0; i < 3; i++) {
            Transform.position[walker * 3] += 1;
            engine.entityManager.mark_transform_changed(walker);
            engine.update(0.4);
        }
        expect(errors.map((e) => e.message)).toEqual([
            `System 'FogOfWarSystem' failed in update: FogOfWarSystem: entity ${eid} has FogRevealer.radius 4294967296, beyond the diagonal of the fog's bounds (${fog.max_radius} world units); it is suspended until engine.retry_systems()`,
        ]);
        expect(engine.is_suspended(fog)).toBe(true);
        expect(trails.point_count(walker)).toBe(4);
        // put right by code and retried: the fog runs again
        FogRevealer.radius[eid] = 2;
        engine.retry_systems();
        engine.update(0.1);
        expect(fog.is_visible(0, 0, 0)).toBe(true);
        expect(errors.length).toBe(1);
    });
});

describe("DecalSystem's limit", () => {
    it("a frame beyond the atlas: refused naming the path and the atlas size; another atlas, another limit", async () => {
        const engine = new Engine();
        const decals = await engine.add_system(new DecalSystem(engine.graphics));
        const decal = (frame: number): unknown => ({ entities: [{ Transform: {}, Decal: { frame: 0 } }, { Transform: {}, Decal: { frame } }] });
        expect(level_error(engine, decal(8)).message).toBe(
            "load_level: entities[1].Decal.frame: got 8; expected a frame in 0..7: the atlas has 8 frames (the limit of DecalSystem)",
        );
        expect(load_level(engine, decal(7)).length).toBe(2);
        await engine.remove_system(decals);
        const small = new Engine();
        const one_frame = new DecalAtlas(1, 1, 4, new Uint8Array(4 * 4 * 4));
        await small.add_system(new DecalSystem(small.graphics, { atlas: one_frame }));
        expect(level_error(small, decal(1)).message).toContain("a frame in 0..0: the atlas has 1 frames");
    });
});

describe("GPUParticleEmitterSystem's limit", () => {
    it("more emitters than max_emitters (once a plain Error midway through the load): a LevelError at the first one too many, nothing created", async () => {
        const engine = new Engine();
        const particles = await engine.add_system(new GPUParticleEmitterSystem(engine.graphics, { capacity: 64, max_emitters: 3 }));
        const emitters = (n: number): unknown => ({ entities: Array.from({ length: n }, () => ({ Transform: {}, ParticleEmitter: {} })) });
        const error = level_error(engine, emitters(4));
        expect(error.path).toBe("entities[3].ParticleEmitter");
        expect(error.message).toBe(
            "load_level: entities[3].ParticleEmitter: got ParticleEmitter number 4 of the level, beside 0 alive; expected at most 3 ParticleEmitter entities at once (its max_emitters option), 3 more now (the limit of GPUParticleEmitterSystem)",
        );
        expect(particles.emitter_count).toBe(0);
        // the ones alive count: two now, then room for one more
        load_level(engine, emitters(2));
        expect(particles.emitter_count).toBe(2);
        expect(level_error(engine, emitters(2)).message).toContain("got ParticleEmitter number 2 of the level, beside 2 alive");
        expect(load_level(engine, emitters(1)).length).toBe(1);
        expect(particles.emitter_count).toBe(3);
    });
});

describe("GPUParticleEmitterSystem's limit, reached by code", () => {
    it("an emitter past max_emitters added by code throws naming the option; the entity is left without it, the table as it was", async () => {
        const engine = new Engine();
        const particles = await engine.add_system(new GPUParticleEmitterSystem(engine.graphics, { capacity: 64, max_emitters: 2 }));
        const em = engine.entityManager;
        const placed = (): number => {
            const eid = em.create_entity();
            em.add_component(eid, Transform);
            return eid;
        };
        const a = add_particle_emitter(em, placed());
        add_particle_emitter(em, placed());
        const third = placed();
        expect(() => add_particle_emitter(em, third)).toThrow(/more than 2 ParticleEmitter entities; raise the max_emitters option/);
        expect(em.has_component(third, ParticleEmitter)).toBe(false);
        expect(particles.emitter_count).toBe(2);
        // room again once one goes: the same entity takes it
        em.remove_entity(a);
        expect(add_particle_emitter(em, third)).toBe(third);
        expect(particles.emitter_count).toBe(2);
    });
});

describe("PathDisplaySystem's limit", () => {
    it("a marker spacing that would need more markers than a path mesh holds: refused at load; written by code, reported and suspended", async () => {
        const errors: Error[] = [];
        const engine = new Engine({ on_error: (e) => errors.push(e) });
        const paths = await engine.add_system(new PathDisplaySystem(engine.graphics));
        const path = (spacing: number): unknown => ({ entities: [{ Path: { waypoints: [[0, 0, 0], [100, 0, 0]], marker_spacing: spacing } }] });
        const error = level_error(engine, path(1e-30));
        expect(error.path).toBe("entities[0].Path.marker_spacing");
        expect(error.message).toMatch(new RegExp(`^load_level: entities\\[0\\]\\.Path\\.marker_spacing: got 1e-30; expected a spacing giving at most ${MAX_PATH_MARKERS} markers along the path`));
        expect(error.message).toMatch(/\(the limit of PathDisplaySystem\)$/);
        const [eid] = load_level(engine, path(100 / MAX_PATH_MARKERS));
        engine.update(0);
        expect(paths.batch.count).toBe(1);
        Path.marker_spacing[eid] = 1e-6;
        engine.update(0);
        expect(errors.length).toBe(1);
        expect(errors[0].message).toMatch(/^System 'PathDisplaySystem' failed in update: make_path_geometry: a path 100 long with a marker every .* needs more than 65536 markers/);
        expect(engine.is_suspended(paths)).toBe(true);
    });
});

describe("systems without a limit beyond their schema", () => {
    it("trails take any value their schema allows (audited: a ring per trail of the system's segments, a pool that grows)", async () => {
        const engine = new Engine();
        const trails = await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 4, initial_capacity: 1 }));
        const ids = load_level(engine, {
            entities: Array.from({ length: 5 }, (_, i) => ({ Transform: { position: [i, 0, 0] }, Trail3D: { max_age: i === 0 ? 1e-30 : 1e30, width: 3e38 } })),
        });
        engine.update(0.1);
        expect(trails.trail_count).toBe(5);
        expect(Trail3D.width[ids[4]]).toBe(Math.fround(3e38));
    });
});
