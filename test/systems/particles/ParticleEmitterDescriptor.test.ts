// ParticleEmitter in level files: loaded through the level loader, emitted on Dawn; bad values named by path.
import { describe, expect, it } from "vitest";
import { load_level } from "../../../engine/level/load_level.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { ParticleEmitter } from "../../../systems/particles/index.js";
import { particle_scene } from "./particle_scene.js";

describe("ParticleEmitter in levels", () => {
    it("a level's emitter, defaults filled in, emits; bad values throw LevelError naming the path and change nothing", async () => {
        const scene = await particle_scene({ capacity: 1024 });
        const ids = load_level(scene.engine, {
            version: 1,
            entities: [
                { name: "fire", Transform: { position: [0, 0, 0] }, ParticleEmitter: { rate: 0, burst: 25, blend: "alpha", color_start: [4, 1, 0.2, 1] } },
            ],
        });
        expect(ids.length).toBe(1);
        const eid = ids[0];
        expect(ParticleEmitter.blend[eid]).toBe(1);
        expect(ParticleEmitter.lifetime_max[eid]).toBeCloseTo(1.5);
        expect(ParticleEmitter.color_start[eid * 4]).toBe(4);
        expect(scene.system.emitter_count).toBe(1);
        scene.ticks(2);
        const pool = await scene.system.read_back();
        expect(pool.alpha + pool.splatted).toBe(25);

        const bad = (component: object): LevelError => {
            try {
                load_level(scene.engine, { version: 1, entities: [{ name: "ok" }, { ParticleEmitter: component }] });
            } catch (error) {
                expect(error).toBeInstanceOf(LevelError);
                return error as LevelError;
            }
            throw new Error("load_level accepted a bad emitter");
        };
        expect(bad({ rate: -1 }).path).toBe("entities[1].ParticleEmitter.rate");
        expect(bad({ blend: "screen" }).path).toBe("entities[1].ParticleEmitter.blend");
        expect(bad({ lifetime_min: 3, lifetime_max: 2 }).path).toBe("entities[1].ParticleEmitter.lifetime_max");
        expect(bad({ direction: [0, 0, 0] }).path).toBe("entities[1].ParticleEmitter.direction");
        expect(bad({ frame_start: 6, frame_count: 4 }).path).toBe("entities[1].ParticleEmitter.frame_count");
        expect(scene.system.emitter_count).toBe(1);
        expect(scene.errors).toEqual([]);
        await scene.close();
    });
});
