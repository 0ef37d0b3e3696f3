// Components that need another: every component that reads the entity's Transform declares it (`requires`); a
// level entity without it is refused naming the path, code that adds it without gets a clear error, and the
// required component cannot be taken away from under it. Device-independent: no GPU is involved.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { TransformDescriptor } from "../../../engine/components/TransformDescriptor.js";
import { Engine } from "../../../engine/Engine.js";
import type { ComponentDescriptor } from "../../../engine/level/ComponentDescriptor.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { level_schema_json } from "../../../engine/level/level_schema.js";
import { save_level } from "../../../engine/level/save_level.js";
import { DebugBoundsDescriptor } from "../../../systems/debug_draw/DebugBoundsDescriptor.js";
import { DecalDescriptor } from "../../../systems/decals/DecalDescriptor.js";
import { FogRevealerDescriptor } from "../../../systems/fog_of_war/FogRevealerDescriptor.js";
import { HighlightDescriptor } from "../../../systems/highlight/HighlightDescriptor.js";
import { add_particle_emitter } from "../../../systems/particles/add_particle_emitter.js";
import { ParticleEmitter } from "../../../systems/particles/ParticleEmitter.js";
import { ParticleEmitterDescriptor } from "../../../systems/particles/ParticleEmitterDescriptor.js";
import { PathDescriptor } from "../../../systems/path_display/PathDescriptor.js";
import { Terrain } from "../../../systems/terrain/Terrain.js";
import { TerrainDescriptor } from "../../../systems/terrain/TerrainDescriptor.js";
import { Trail3DDescriptor } from "../../../systems/trails/Trail3DDescriptor.js";

/** The shipped components that read the entity's Transform, and those that do not (paths are world space). */
const READ_TRANSFORM: readonly ComponentDescriptor[] = [TerrainDescriptor, DecalDescriptor, FogRevealerDescriptor, ParticleEmitterDescriptor, Trail3DDescriptor, DebugBoundsDescriptor];
const OTHERS: readonly ComponentDescriptor[] = [HighlightDescriptor, PathDescriptor];

function engine(): Engine {
    const e = new Engine();
    for (const d of [...READ_TRANSFORM, ...OTHERS]) e.entityManager.components.register(d);
    return e;
}

function level_error(e: Engine, source: unknown): LevelError {
    try {
        load_level(e, source);
    } catch (error) {
        expect(error).toBeInstanceOf(LevelError);
        return error as LevelError;
    }
    throw new Error("load_level did not throw");
}

describe("a component that requires another", () => {
    it("every shipped component that reads the Transform requires it; the others do not", () => {
        for (const d of READ_TRANSFORM) expect(d.requires, d.name).toEqual([TransformDescriptor]);
        for (const d of OTHERS) expect(d.requires, d.name).toEqual([]);
        expect(TransformDescriptor.requires).toEqual([]);
    });

    it("a level entity without it is refused, naming the entity's component and what it needs; nothing is created", () => {
        const e = engine();
        for (const d of READ_TRANSFORM) {
            const error = level_error(e, { entities: [{ name: "ok", Transform: {} }, { name: "bare", [d.name]: d.name === "Decal" ? { frame: 0 } : {} }] });
            expect(error.path).toBe(`entities[1].${d.name}`);
            expect(error.message).toBe(
                `load_level: entities[1].${d.name}: ${d.name} needs Transform on the same entity, which has none; expected an entity with Transform beside ${d.name}`,
            );
            expect(e.entityManager.entity_count).toBe(0);
        }
    });

    it("in a level the required component may come after the one needing it: it is added first, so observers see it", () => {
        const e = engine();
        const seen: boolean[] = [];
        e.entityManager.on_add(Terrain, (eid) => seen.push(e.entityManager.has_component(eid, Transform) && Transform.position[eid * 3] === 5));
        const [eid] = load_level(e, { entities: [{ Terrain: { resolution: 2 }, Transform: { position: [5, 0, 0] } }] });
        expect(seen).toEqual([true]);
        expect(e.entityManager.has_component(eid, Terrain)).toBe(true);
        expect(Object.keys(save_level(e).entities[0])).toEqual(["Transform", "Terrain"]);
    });

    it("add_component refuses to add it to an entity without what it requires, even before its system registered the descriptor", () => {
        for (const e of [engine(), new Engine()]) {
            const em = e.entityManager;
            const eid = em.create_entity();
            expect(() => em.add_component(eid, Terrain)).toThrow(
                `EntityManager.add_component: Terrain needs Transform on the same entity, and entity ${eid} has none; add Transform first`,
            );
            expect(em.has_component(eid, Terrain)).toBe(false);
            em.add_component(eid, Transform);
            expect(em.add_component(eid, Terrain)).toBe(true);
        }
    });

    it("add_particle_emitter (the particles' own adder) refuses an entity without a Transform, adding nothing", () => {
        const em = engine().entityManager;
        const eid = em.create_entity();
        expect(() => add_particle_emitter(em, eid)).toThrow(
            `add_particle_emitter: entity ${eid} has no Transform; a ParticleEmitter needs one on the same entity (add Transform first)`,
        );
        expect(em.has_component(eid, ParticleEmitter)).toBe(false);
        em.add_component(eid, Transform);
        expect(add_particle_emitter(em, eid)).toBe(eid);
        expect(em.has_component(eid, ParticleEmitter)).toBe(true);
    });

    it("remove_component refuses to take the required component away from under it; remove_entity takes both", () => {
        const e = engine();
        const em = e.entityManager;
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        em.add_component(eid, Terrain);
        expect(() => em.remove_component(eid, Transform)).toThrow(`EntityManager.remove_component: entity ${eid}'s Terrain needs Transform; remove Terrain first`);
        expect(em.has_component(eid, Transform)).toBe(true);
        expect(em.remove_component(eid, Terrain)).toBe(true);
        expect(em.remove_component(eid, Transform)).toBe(true);
        const other = em.create_entity();
        em.add_component(other, Transform);
        em.add_component(other, Terrain);
        em.remove_entity(other);
        expect(em.has_entity(other)).toBe(false);
    });

    it("the level schema states it for editors (JSON Schema dependencies)", () => {
        const schema = JSON.parse(level_schema_json(engine().entityManager.components));
        expect(schema.properties.entities.items.dependencies).toEqual(Object.fromEntries(READ_TRANSFORM.map((d) => [d.name, ["Transform"]]).sort()));
    });
});
