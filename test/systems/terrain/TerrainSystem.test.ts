// TerrainSystem on the real engine (Dawn): the ground is drawn into the G-buffer (depth, albedo layers,
// normals, material flags) and lit by the deferred lighting; height_at follows the drawn surface.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { load_level } from "../../../engine/level/load_level.js";
import { Terrain } from "../../../systems/terrain/Terrain.js";
import { TerrainSystem } from "../../../systems/terrain/TerrainSystem.js";
import { pixel_at, write_readback_png } from "../../harness/index.js";
import { hill_heights, SIZE, start_ground } from "./terrain_fixture.js";

const DT = 1 / 30;

describe("TerrainSystem (Dawn)", () => {
    it("the terrain's heights are in the depth target: every pixel rebuilt from depth lies on height_at", async () => {
        const f = await start_ground();
        const system = await f.engine.add_system(new TerrainSystem(f.engine.graphics));
        const eid = f.engine.entityManager.create_entity();
        f.engine.entityManager.add_component(eid, Transform);
        f.engine.entityManager.add_component(eid, Terrain);
        Terrain.write(eid, { size: 16, resolution: 33, height_scale: 4, heights: hill_heights(33, 1) });
        f.engine.tick(DT);
        const depth = await f.capture.read_depth();
        let checked = 0;
        let hill_pixels = 0;
        for (let y = 2; y < SIZE; y += 5) {
            for (let x = 2; x < SIZE; x += 5) {
                const d = depth.data[y * SIZE + x];
                expect(d, `depth at (${x}, ${y})`).toBeLessThan(1);
                const [wx, wy, wz] = f.unproject(x, y, d);
                const h = system.height_at(wx, wz);
                expect(Math.abs(wy - h), `pixel (${x}, ${y}) -> (${wx.toFixed(2)}, ${wy.toFixed(3)}, ${wz.toFixed(2)}) vs height ${h.toFixed(3)}`).toBeLessThan(0.05);
                if (wy > 1) hill_pixels++;
                checked++;
            }
        }
        expect(checked).toBeGreaterThan(100);
        // the hill is there (not a flat ground at 0): the centre is near 4 units up
        expect(hill_pixels).toBeGreaterThan(10);
        const centre = f.unproject(SIZE / 2, SIZE / 2, depth.data[(SIZE / 2) * SIZE + SIZE / 2]);
        expect(centre[1]).toBeGreaterThan(3.5);
        expect(system.height_at(0, 0)).toBeCloseTo(4, 1);
        expect(system.height_at(100, 0)).toBeNaN();
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("the lit image of a hill differs from a flat terrain: slopes facing the sun are brighter, away darker", async () => {
        const shot = async (peak: number): Promise<number[][]> => {
            const f = await start_ground();
            await f.engine.add_system(new TerrainSystem(f.engine.graphics));
            // sun from +x, high
            f.engine.graphics.scene.sun.direction.set([-1, -1, 0]);
            const eid = f.engine.entityManager.create_entity();
            f.engine.entityManager.add_component(eid, Transform);
            f.engine.entityManager.add_component(eid, Terrain);
            // no rock, sand or snow: one layer, so the light alone makes the difference
            Terrain.write(eid, { size: 16, resolution: 33, height_scale: 4, heights: hill_heights(33, peak), sand_level: -1, snow_level: 2, rock_slope: 2 });
            f.engine.tick(DT);
            const image = await f.read();
            write_readback_png(image, `terrain_lit_${peak}`);
            const sides = [pixel_at(image, 40, 32), pixel_at(image, 24, 32)];
            await f.engine.shutdown();
            expect(f.errors).toEqual([]);
            return sides;
        };
        const [flat_east, flat_west] = await shot(0);
        const [hill_east, hill_west] = await shot(1);
        const luma = (p: number[]): number => p[0] + p[1] + p[2];
        // flat: both sides alike (the texture varies a little)
        expect(Math.abs(luma(flat_east) - luma(flat_west))).toBeLessThan(40);
        // the hill's east flank faces the sun (+x), its west flank faces away
        expect(luma(hill_east)).toBeGreaterThan(luma(flat_east) + 20);
        expect(luma(hill_west)).toBeLessThan(luma(flat_west) - 20);
    });

    it("writes the G-buffer as a lit surface: layers by height and slope, normals, flags, object id; a mesh in front stays", async () => {
        const f = await start_ground();
        await f.engine.add_system(new TerrainSystem(f.engine.graphics, { object_id: 777, material_id: 9 }));
        const eid = f.engine.entityManager.create_entity();
        f.engine.entityManager.add_component(eid, Transform);
        f.engine.entityManager.add_component(eid, Terrain);
        // a ramp along x: low flat sand on the west, steep rock in the middle, a high snow plateau on the east
        const n = 33;
        const heights = new Float32Array(n * n);
        for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) heights[j * n + i] = i < 12 ? 0 : i > 20 ? 1 : (i - 12) / 8;
        Terrain.write(eid, { size: 16, resolution: n, height_scale: 3, heights, sand_level: 0.1, snow_level: 0.9, rock_slope: 0.1 });
        // a red box above the ground at the south-west
        const box = new Mesh(make_box_geometry(1.5, 1.5, 1.5), new StandardMaterial({ base_color: [1, 0, 0, 1] }));
        box.position.set([-3.5, 2, 3.5]);
        f.engine.graphics.scene.add(box);
        f.engine.tick(DT);
        const albedo = await f.capture.read("albedo");
        const normal = await f.capture.read("normal");
        const material = await f.capture.read("material");
        const ids = await f.capture.read("object_id");
        write_readback_png(albedo, "terrain_layers_albedo");
        write_readback_png(await f.read(), "terrain_layers_lit");
        const at = (world: [number, number, number]) => f.project(world);
        const sand = pixel_at(albedo, ...at([-4.5, 0, -3]));
        const rock = pixel_at(albedo, ...at([0, 1.5, -3]));
        const snow = pixel_at(albedo, ...at([4.5, 3, -3]));
        // sand: warm, red over blue; rock: grey (channels close); snow: bright
        expect(sand[0], `sand ${sand}`).toBeGreaterThan(sand[2] + 30);
        expect(Math.max(...rock.slice(0, 3)) - Math.min(...rock.slice(0, 3)), `rock ${rock}`).toBeLessThan(20);
        expect(rock[0], `rock ${rock}`).toBeLessThan(80);
        expect(Math.min(...snow.slice(0, 3)), `snow ${snow}`).toBeGreaterThan(170);
        expect(sand[3]).toBe(255);
        // normals: up on the flats, tilted toward -x on the ramp (it rises to +x)
        const flat_n = pixel_at(normal, ...at([-4.5, 0, -3]));
        const ramp_n = pixel_at(normal, ...at([0, 1.5, -3]));
        expect(flat_n[1]).toBeCloseTo(1, 2);
        expect(ramp_n[0]).toBeLessThan(-0.5);
        expect(flat_n[3], "roughness in w").toBeGreaterThan(0.5);
        // material: metalness 0, flags lit and receives decals (GBufferFlags), material index; object id
        expect(pixel_at(material, ...at([-4.5, 0, -3])).slice(0, 3)).toEqual([0, 1 | 4, 9]);
        expect(pixel_at(ids, ...at([-4.5, 0, -3]))[0]).toBe(777);
        // the box is in front of the ground: its pixels are still the box's
        const box_px = at([-3.5, 2.75, 3.5]);
        expect(pixel_at(albedo, ...box_px).slice(0, 3), "box albedo").toEqual([255, 0, 0]);
        expect(pixel_at(ids, ...box_px)[0]).toBe(box.object_id);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("a flat meadow's colour is broken up by noise at several scales (the noise lattice is read), not one flat colour", async () => {
        const f = await start_ground();
        await f.engine.add_system(new TerrainSystem(f.engine.graphics));
        const eid = f.engine.entityManager.create_entity();
        f.engine.entityManager.add_component(eid, Transform);
        f.engine.entityManager.add_component(eid, Terrain);
        const n = 17;
        // flat and between sand and snow: grass everywhere, so any change of colour is the noise's
        Terrain.write(eid, { size: 16, resolution: n, height_scale: 1, heights: new Float32Array(n * n).fill(0.5), sand_level: 0.1, snow_level: 0.9, rock_slope: 0.5 });
        f.engine.tick(DT);
        const albedo = await f.capture.read("albedo");
        write_readback_png(albedo, "terrain_meadow_albedo");
        const greens: number[] = [];
        for (let z = -5; z <= 5; z += 0.5) for (let x = -5; x <= 5; x += 0.5) greens.push(pixel_at(albedo, ...f.project([x, 0.5, z]))[1]);
        const mean = greens.reduce((a, b) => a + b, 0) / greens.length;
        const spread = Math.sqrt(greens.reduce((a, g) => a + (g - mean) ** 2, 0) / greens.length);
        console.info(`meadow green: mean ${mean.toFixed(1)}, spread ${spread.toFixed(2)} over ${greens.length} pixels`);
        expect(mean, "grass").toBeGreaterThan(20);
        expect(spread, "the noise varies the grass").toBeGreaterThan(1.2);
        // neighbours half a unit apart differ less than far-apart points: smooth noise, not per-pixel static
        let near = 0;
        let far = 0;
        for (let i = 0; i + 1 < greens.length; i++) near += Math.abs(greens[i + 1] - greens[i]);
        for (let i = 0; i + 10 < greens.length; i++) far += Math.abs(greens[i + 10] - greens[i]);
        expect(near / (greens.length - 1)).toBeLessThan(far / (greens.length - 10));
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("a terrain buried under a mesh is hidden by it; a terrain in front of a mesh covers it (depth-tested both ways)", async () => {
        const f = await start_ground();
        await f.engine.add_system(new TerrainSystem(f.engine.graphics, { object_id: 5 }));
        const eid = f.engine.entityManager.create_entity();
        f.engine.entityManager.add_component(eid, Transform);
        f.engine.entityManager.add_component(eid, Terrain);
        Terrain.write(eid, { size: 16, resolution: 9, height_scale: 0, heights: new Float32Array(81) });
        // a big plate at y = 1: above the ground, so it shows
        const plate = new Mesh(make_box_geometry(4, 0.2, 4), new StandardMaterial({ base_color: [0, 0, 1, 1] }));
        plate.position.set([0, 1, 0]);
        f.engine.graphics.scene.add(plate);
        f.engine.tick(DT);
        expect((await f.capture.read("object_id")).data[32 * SIZE + 32]).toBe(plate.object_id);
        expect((await f.capture.read("object_id")).data[2 * SIZE + 2]).toBe(5);
        // lift the terrain over the plate (its world position moves it; the system rebuilds)
        f.engine.entityManager.set_position(eid, 0, 2, 0);
        f.engine.tick(DT);
        expect((await f.capture.read("object_id")).data[32 * SIZE + 32]).toBe(5);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("startup registers 'terrain' at AfterGBuffer and the Terrain descriptor; shutdown puts extension_count back", async () => {
        const f = await start_ground();
        const before = f.engine.graphics.extension_count(FramePhase.AfterGBuffer);
        const system = new TerrainSystem(f.engine.graphics);
        await f.engine.add_system(system);
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before + 1);
        expect(f.engine.entityManager.components.get("Terrain")).toBeDefined();
        await f.engine.remove_system(system);
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before);
        await system.shutdown(f.engine.entityManager); // a second shutdown is harmless
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before);
        await f.engine.add_system(system); // startup after shutdown registers again
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before + 1);
        await f.engine.shutdown();
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before);
        expect(f.errors).toEqual([]);
    });

    it("a terrain whose Transform moves (x, then z, then y) is rebuilt there: drawn and answered at its new place only", async () => {
        const f = await start_ground();
        const system = await f.engine.add_system(new TerrainSystem(f.engine.graphics, { object_id: 5 }));
        const em = f.engine.entityManager;
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        em.add_component(eid, Terrain, (e) => Terrain.write(e, { size: 4, resolution: 5, height_scale: 0 }));
        // a second terrain that stays, so that a move applied to the wrong one shows
        const still = em.create_entity();
        em.add_component(still, Transform);
        Transform.position.set([-4.5, 0, -4.5], still * 3);
        em.add_component(still, Terrain, (e) => Terrain.write(e, { size: 2, resolution: 3, height_scale: 0 }));
        const id_at = async (x: number, z: number): Promise<number> => {
            const ids = await f.capture.read("object_id");
            return pixel_at(ids, ...f.project([x, 0, z]))[0];
        };
        f.engine.tick(DT);
        expect(await id_at(0, 0)).toBe(5);
        expect(await id_at(3.5, 0)).toBe(0);
        expect(await id_at(-4.5, -4.5)).toBe(5);
        const builds = system.build_count;
        const moves: [number, number, number][] = [
            [3.5, 0, 0],
            [3.5, 0, 3.5],
            [3.5, 1.5, 3.5],
        ];
        for (const [x, y, z] of moves) {
            f.engine.entityManager.set_position(eid, x, y, z);
            f.engine.tick(DT);
            expect(await id_at(x, z), `drawn at (${x}, ${z})`).toBe(5);
            expect(await id_at(0, 0), `gone from the origin after the move to (${x}, ${y}, ${z})`).toBe(0);
            expect(system.height_at(x, z)).toBe(y);
            expect(system.height_at(0, 0)).toBeNaN();
            expect(await id_at(-4.5, -4.5), "the other terrain stays").toBe(5);
        }
        expect(system.build_count).toBe(builds + 3);
        // standing still: no more builds
        f.engine.tick(DT);
        expect(system.build_count).toBe(builds + 3);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("every field the system watches, changed after the first build, changes what is drawn", async () => {
        const f = await start_ground();
        const system = await f.engine.add_system(new TerrainSystem(f.engine.graphics));
        const em = f.engine.entityManager;
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        em.add_component(eid, Terrain, (e) => Terrain.write(e, { size: 8, resolution: 9, height_scale: 2, seed: 3 }));
        f.engine.tick(DT);
        const changes: [string, () => void, "grid" | "layers"][] = [
            ["size", () => (Terrain.size[eid] = 9), "grid"],
            ["resolution", () => Terrain.write(eid, { size: 9, resolution: 11, height_scale: 2, seed: 3 }), "grid"],
            ["height_scale", () => (Terrain.height_scale[eid] = 3), "grid"],
            ["seed", () => (Terrain.seed[eid] = 4), "grid"],
            ["octaves", () => (Terrain.octaves[eid] = 2), "grid"],
            ["frequency", () => (Terrain.frequency[eid] = 1.5), "grid"],
            ["sand_level", () => (Terrain.sand_level[eid] = 0.5), "layers"],
            ["snow_level", () => (Terrain.snow_level[eid] = 0.55), "layers"],
            ["rock_slope", () => (Terrain.rock_slope[eid] = 0.05), "layers"],
            ["heights", () => Terrain.set_heights(eid, Float32Array.from({ length: 121 }, (_, i) => (i % 11) / 10)), "grid"],
        ];
        for (const [field, change, what] of changes) {
            const grid = system.grid_of(eid);
            const draw = system.draws.find((d) => d.eid === eid)!;
            const generation = draw.generation;
            const layers = Array.from(draw.uniform_f32.subarray(5, 8));
            const albedo = await f.capture.read("albedo");
            change();
            f.engine.tick(DT);
            expect(draw.generation, `${field}: the draw is rebuilt`).toBe(generation + 1);
            if (what === "grid") expect(system.grid_of(eid), `${field}: a new grid`).not.toBe(grid);
            else {
                expect(system.grid_of(eid), `${field}: the same grid`).toBe(grid);
                expect(Array.from(draw.uniform_f32.subarray(5, 8)), `${field}: the layers uploaded`).not.toEqual(layers);
            }
            // and the picture changed
            const after = await f.capture.read("albedo");
            expect(after.data.some((v, i) => v !== albedo.data[i]), `${field}: the albedo changed`).toBe(true);
        }
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("a level's heights run row by row along +x, rows along +z: a ramp rising to +x is drawn and answered rising to +x", async () => {
        const f = await start_ground();
        const system = await f.engine.add_system(new TerrainSystem(f.engine.graphics));
        const n = 5;
        // rises along x only: h = i / 4; the rows (along z) are all alike
        const heights: number[] = [];
        for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) heights.push(i / (n - 1));
        const [eid] = load_level(f.engine, { entities: [{ Transform: {}, Terrain: { size: 16, resolution: n, height_scale: 4, heights } }] });
        f.engine.tick(DT);
        // the CPU query
        expect(system.height_at(-8, 0)).toBeCloseTo(0, 5);
        expect(system.height_at(8, 0)).toBeCloseTo(4, 5);
        expect(system.height_at(4, -6)).toBeCloseTo(3, 5);
        expect(system.height_at(4, 6)).toBeCloseTo(3, 5);
        expect(system.grid_of(eid)!.heights[1]).toBeCloseTo(0.25, 6);
        // the picture: depth rebuilt into world points lies on the ramp by x, whatever z
        const depth = await f.capture.read_depth();
        const normal = await f.capture.read("normal");
        let checked = 0;
        for (let y = 4; y < SIZE; y += 6) {
            for (let x = 4; x < SIZE; x += 6) {
                const d = depth.data[y * SIZE + x];
                if (!(d < 1)) continue;
                const [wx, wy, wz] = f.unproject(x, y, d);
                if (Math.abs(wx) > 7.5 || Math.abs(wz) > 7.5) continue;
                expect(wy, `pixel (${x}, ${y}) at world (${wx.toFixed(2)}, ${wz.toFixed(2)})`).toBeCloseTo((wx + 8) / 4, 1);
                // the normal leans to -x (downhill), not along z
                const p = pixel_at(normal, x, y);
                expect(p[0], `normal x at (${x}, ${y})`).toBeLessThan(-0.2);
                expect(Math.abs(p[2]), `normal z at (${x}, ${y})`).toBeLessThan(0.02);
                checked++;
            }
        }
        expect(checked).toBeGreaterThan(40);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });
});
