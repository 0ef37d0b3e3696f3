// Decal in level files (GPU-free): registered by DecalSystem's startup, validated with JSON paths, round-trips;
// the instance records the update builds from the components.
import { describe, expect, it } from "vitest";
import { level_error } from "../../engine/level/level_error.js";
import { Engine } from "../../../engine/Engine.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { save_level } from "../../../engine/level/save_level.js";
import { Decal } from "../../../systems/decals/Decal.js";
import { DecalAtlas, DECAL_FRAMES } from "../../../systems/decals/DecalAtlas.js";
import { DECAL_INSTANCE_FLOATS } from "../../../systems/decals/DecalInstances.js";
import { DecalSystem } from "../../../systems/decals/DecalSystem.js";


describe("Decal level descriptor and instance records", () => {
    it("a level with decals loads after DecalSystem's startup, saves back the same, and fills one record each", async () => {
        const engine = new Engine();
        const system = await engine.add_system(new DecalSystem(engine.graphics));
        const [a, b] = load_level(engine, {
            entities: [
                { Transform: { position: [1, 2, 3] }, Decal: { size: [4, 2, 2], frame: DECAL_FRAMES.selection_circle, color: [0, 1, 0, 0.5], rotation: Math.PI / 2 } },
                { Transform: { scale: [2, 1, 2] }, Decal: {} },
            ],
        });
        expect(Array.from(Decal.size.subarray(a * 3, a * 3 + 3))).toEqual([4, 2, 2]);
        expect(Decal.frame[b]).toBe(0);
        expect(Array.from(Decal.color.subarray(b * 4, b * 4 + 4))).toEqual([1, 1, 1, 1]);
        const saved = save_level(engine) as unknown as { entities: Record<string, unknown>[] };
        expect(saved.entities[0].Decal).toMatchObject({ size: [4, 2, 2], frame: 1, color: [0, 1, 0, 0.5] });
        expect((saved.entities[0].Decal as { rotation: number }).rotation).toBeCloseTo(Math.PI / 2, 6);
        engine.update(0);
        expect(system.decal_count).toBe(2);
        const data = system.instances.data;
        const record = (k: number): number[] => Array.from(data.subarray(k * DECAL_INSTANCE_FLOATS, (k + 1) * DECAL_INSTANCE_FLOATS));
        const ra = record(0);
        // centre; rotated 90 degrees about y: local x runs along -z, local z along +x; half extents in w
        expect(ra.slice(0, 3)).toEqual([1, 2, 3]);
        expect(ra[4]).toBeCloseTo(0, 6);
        expect(ra[6]).toBeCloseTo(-1, 6);
        expect(ra[7]).toBe(2);
        expect(ra.slice(8, 12).map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 1, 0, 1]);
        expect(ra[12]).toBeCloseTo(1, 6);
        expect(ra[15]).toBe(1);
        expect(ra.slice(16, 20)).toEqual([0, 1, 0, 0.5]);
        // frame 1 of the 4 x 2 atlas of 64 px (256 x 128): column 1, row 0, inset half a texel
        expect(ra[20]).toBeCloseTo(64.5 / 256, 6);
        expect(ra[21]).toBeCloseTo(0.5 / 128, 6);
        expect(ra[22]).toBeCloseTo(63 / 256, 6);
        // the scale multiplies the size
        expect(record(1)[7]).toBe(1);
        expect(record(1)[11]).toBe(0.5);
        // nothing changed: nothing dirty; one field changed: that record only
        system.instances.clear_dirty();
        engine.update(0);
        expect(system.instances.dirty_to).toBe(0);
        Decal.color[b * 4] = 0.5;
        engine.update(0);
        expect([system.instances.dirty_from, system.instances.dirty_to]).toEqual([1, 2]);
        await engine.shutdown();
    });

    it("bad values are refused with the JSON path named", async () => {
        const engine = new Engine();
        await engine.add_system(new DecalSystem(engine.graphics));
        expect(level_error(engine, { entities: [{ Transform: {}, Decal: { size: [1, 0, 1] } }] }).path).toBe("entities[0].Decal.size[1]");
        expect(level_error(engine, { entities: [{ Transform: {}, Decal: { frame: -1 } }] }).path).toBe("entities[0].Decal.frame");
        expect(level_error(engine, { entities: [{ Transform: {}, Decal: { color: [1, 1, 1, 2] } }] }).path).toBe("entities[0].Decal.color[3]");
        expect(engine.entityManager.entity_count).toBe(0);
        await engine.shutdown();
    });

    it("misuse is named: Decal.write fields, atlas shape, fade options", () => {
        expect(() => Decal.write(1, { size: [1, -1, 1] })).toThrow("Decal.size[1] must be a finite number > 0");
        expect(() => Decal.write(1, { frame: 1.5 })).toThrow("Decal.frame must be an integer >= 0");
        expect(() => new DecalAtlas(2, 2, 4, new Uint8Array(10))).toThrow("DecalAtlas: 2 x 2 frames of 4 px need 256 bytes");
        const engine = new Engine();
        expect(() => new DecalSystem(engine.graphics, { fade_start_degrees: 80, fade_end_degrees: 60 })).toThrow("fade_start_degrees < fade_end_degrees");
    });

    it("the procedural atlas has its eight frames drawn (not empty), with transparent corners", () => {
        const atlas = DecalAtlas.procedural(32);
        expect(atlas.width).toBe(128);
        for (let f = 0; f < 8; f++) {
            const x0 = (f % 4) * 32;
            const y0 = Math.floor(f / 4) * 32;
            let covered = 0;
            for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) if (atlas.pixels[((y0 + y) * 128 + x0 + x) * 4 + 3] > 128) covered++;
            expect(covered, `frame ${f}`).toBeGreaterThan(20);
            expect(atlas.pixels[(y0 * 128 + x0) * 4 + 3], `frame ${f} corner`).toBeLessThan(40);
        }
    });
});
