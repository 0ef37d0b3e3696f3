// DecalSystem on the real engine (Dawn): box-projected decals change the G-buffer's albedo inside their box
// only, lie on the terrain (ordered after it), fade on steep slopes; the integer targets are untouched.
import { quat } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import type { Engine } from "../../../engine/Engine.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { Decal } from "../../../systems/decals/Decal.js";
import { DecalAtlas } from "../../../systems/decals/DecalAtlas.js";
import { DecalExtension } from "../../../systems/decals/DecalExtension.js";
import { DecalSystem } from "../../../systems/decals/DecalSystem.js";
import { Terrain } from "../../../systems/terrain/Terrain.js";
import { TerrainSystem } from "../../../systems/terrain/TerrainSystem.js";
import { pixel_at, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { SIZE, start_ground, type GroundFixture } from "../terrain/terrain_fixture.js";

const DT = 1 / 30;
const RED = [1, 0, 0, 1];

/** Two solid 4 x 4 frames: 0 opaque white, 1 white at alpha 0.5. */
function solid_atlas(): DecalAtlas {
    const pixels = new Uint8Array(8 * 4 * 4);
    for (let y = 0; y < 4; y++) {
        for (let x = 0; x < 8; x++) {
            const p = (y * 8 + x) * 4;
            pixels.set([255, 255, 255, x < 4 ? 255 : 128], p);
        }
    }
    return new DecalAtlas(2, 1, 4, pixels);
}

function flat_terrain(engine: Engine, heights?: Float32Array, n = 9): number {
    const eid = engine.entityManager.create_entity();
    engine.entityManager.add_component(eid, Transform);
    engine.entityManager.add_component(eid, Terrain);
    Terrain.write(eid, { size: 16, resolution: n, height_scale: 1, heights: heights ?? new Float32Array(n * n), sand_level: -1, snow_level: 2, rock_slope: 2 });
    return eid;
}

function add_decal(engine: Engine, position: number[], size: number[], spec: { color?: number[]; frame?: number; rotation?: number; q?: number[] } = {}): number {
    const em = engine.entityManager;
    const eid = em.create_entity();
    em.add_component(eid, Transform);
    em.add_component(eid, Decal);
    Transform.position.set(position, eid * 3);
    if (spec.q !== undefined) Transform.rotation.set(spec.q, eid * 4);
    Decal.write(eid, { size, color: spec.color ?? RED, frame: spec.frame ?? 0, rotation: spec.rotation ?? 0 });
    return eid;
}

async function ground_with_decals(atlas = solid_atlas()): Promise<{ f: GroundFixture; decals: DecalSystem }> {
    const f = await start_ground();
    await f.engine.add_system(new TerrainSystem(f.engine.graphics));
    const decals = await f.engine.add_system(new DecalSystem(f.engine.graphics, { atlas }));
    return { f, decals };
}

function same(a: TextureReadback, b: TextureReadback, x: number, y: number): boolean {
    const p = pixel_at(a, x, y);
    const q = pixel_at(b, x, y);
    return p.every((v, i) => v === q[i]);
}

describe("DecalSystem (Dawn)", () => {
    it("a decal changes the albedo inside its box only; normal, material, object id and depth stay as they were", async () => {
        const { f } = await ground_with_decals();
        flat_terrain(f.engine);
        f.engine.tick(DT);
        const before = {
            albedo: await f.capture.read("albedo"),
            normal: await f.capture.read("normal"),
            material: await f.capture.read("material"),
            object_id: await f.capture.read("object_id"),
            depth: (await f.capture.read_depth()).data,
        };
        // a 4 x 2 box on the ground, off centre, 6 tall (its silhouette is much larger than its footprint); rotated 90 degrees about its axis: 2 wide in x, 4 long in z
        add_decal(f.engine, [1.5, 0, -1], [4, 6, 2], { rotation: Math.PI / 2 });
        f.engine.tick(DT);
        const albedo = await f.capture.read("albedo");
        write_readback_png(albedo, "decal_box_albedo");
        write_readback_png(await f.read(), "decal_box_lit");
        const normal = await f.capture.read("normal");
        const material = await f.capture.read("material");
        const object_id = await f.capture.read("object_id");
        const depth = (await f.capture.read_depth()).data;
        let inside = 0;
        let outside = 0;
        for (let y = 0; y < SIZE; y++) {
            for (let x = 0; x < SIZE; x++) {
                const [wx, , wz] = f.unproject(x, y, depth[y * SIZE + x]);
                const dx = Math.abs(wx - 1.5);
                const dz = Math.abs(wz + 1);
                if (dx < 0.9 && dz < 1.9) {
                    const p = pixel_at(albedo, x, y);
                    expect(p.slice(0, 3), `inside the box at (${x}, ${y})`).toEqual([255, 0, 0]);
                    expect(p[3]).toBe(255);
                    inside++;
                } else if (dx > 1.1 || dz > 2.1) {
                    expect(same(albedo, before.albedo, x, y), `outside the box at (${x}, ${y}): ${pixel_at(albedo, x, y)} vs ${pixel_at(before.albedo, x, y)}`).toBe(true);
                    outside++;
                }
                expect(same(normal, before.normal, x, y)).toBe(true);
                expect(same(material, before.material, x, y)).toBe(true);
                expect(same(object_id, before.object_id, x, y)).toBe(true);
                expect(depth[y * SIZE + x]).toBe(before.depth[y * SIZE + x]);
            }
        }
        expect(inside).toBeGreaterThan(60);
        expect(outside).toBeGreaterThan(3000);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("decals land on receivers only: a box standing in the decal keeps its colour; with receive_decals it takes the mark", async () => {
        const { f } = await ground_with_decals();
        flat_terrain(f.engine);
        const box = new Mesh(make_box_geometry(2, 1, 2), new StandardMaterial({ base_color: [0, 0, 1, 1] }));
        box.position.set([0, 0.5, 0]);
        f.engine.graphics.scene.add(box);
        // a 6 x 6 decal, 4 deep: the box (2 x 2, 1 tall) stands inside it, its top well within the depth
        add_decal(f.engine, [0, 0, 0], [6, 4, 6]);
        f.engine.tick(DT);
        const albedo = await f.capture.read("albedo");
        write_readback_png(albedo, "decal_receivers_albedo");
        const [cx, cy] = f.project([0, 1, 0]);
        const [gx, gy] = f.project([2.2, 0, 0]);
        expect(pixel_at(albedo, cx, cy).slice(0, 3), "the box's top, inside the decal: its own blue").toEqual([0, 0, 255]);
        expect(pixel_at(albedo, gx, gy).slice(0, 3), "the ground inside the decal: the mark").toEqual([255, 0, 0]);
        box.receive_decals = true;
        f.engine.tick(DT);
        const marked = await f.capture.read("albedo");
        expect(pixel_at(marked, cx, cy).slice(0, 3), "a receiving box's top: the mark").toEqual([255, 0, 0]);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("a terrain built with receive_decals: false takes no mark", async () => {
        const f = await start_ground();
        await f.engine.add_system(new TerrainSystem(f.engine.graphics, { receive_decals: false }));
        await f.engine.add_system(new DecalSystem(f.engine.graphics, { atlas: solid_atlas() }));
        flat_terrain(f.engine);
        f.engine.tick(DT);
        const before = await f.capture.read("albedo");
        add_decal(f.engine, [0, 0, 0], [6, 4, 6]);
        f.engine.tick(DT);
        const after = await f.capture.read("albedo");
        expect(same(after, before, 32, 32)).toBe(true);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("the atlas frame and colour tint the mark: frame 1 at half alpha blends half way over the ground", async () => {
        const { f } = await ground_with_decals();
        flat_terrain(f.engine);
        f.engine.tick(DT);
        const ground = pixel_at(await f.capture.read("albedo"), 32, 32);
        add_decal(f.engine, [0, 0, 0], [3, 1, 3], { frame: 1, color: [0, 0, 1, 1] });
        f.engine.tick(DT);
        const p = pixel_at(await f.capture.read("albedo"), 32, 32);
        const a = 128 / 255;
        expect(Math.abs(p[0] - ground[0] * (1 - a))).toBeLessThanOrEqual(2);
        expect(Math.abs(p[2] - (255 * a + ground[2] * (1 - a)))).toBeLessThanOrEqual(2);
        // the albedo's alpha (coverage) is the surface's, not the decal's
        expect(p[3]).toBe(255);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("AfterGBuffer resolves to terrain, decals; a decal lies on the terrain, and with the ordering removed it would lie under", async () => {
        const { f, decals } = await ground_with_decals();
        const order = f.engine.graphics.describe().phases.find((p) => p.phase === FramePhase.AfterGBuffer)!.extensions.map((e) => e.name);
        expect(order).toEqual(["terrain", "decals"]);
        flat_terrain(f.engine);
        add_decal(f.engine, [0, 0, 0], [3, 1, 3]);
        f.engine.tick(DT);
        const on_top = pixel_at(await f.capture.read("albedo"), 32, 32);
        expect(on_top.slice(0, 3)).toEqual([255, 0, 0]);

        // the same decals through an extension without the declaration, whose name sorts first
        class UnorderedDecals extends DecalExtension {
            override name = "a decals";
            override after = [];
        }
        f.engine.graphics.remove_extension(decals.extension!);
        const unordered = f.engine.graphics.add_extension(new UnorderedDecals(decals));
        const names = f.engine.graphics.describe().phases.find((p) => p.phase === FramePhase.AfterGBuffer)!.extensions.map((e) => e.name);
        expect(names).toEqual(["a decals", "terrain"]);
        f.engine.tick(DT);
        const under = pixel_at(await f.capture.read("albedo"), 32, 32);
        write_readback_png(await f.capture.read("albedo"), "decal_unordered_albedo");
        // the terrain drew over it: ground colour (green over red), nothing of the mark
        expect(under[0]).toBeLessThan(100);
        expect(under[1]).toBeGreaterThan(under[0]);
        expect(Math.abs(under[0] - on_top[0])).toBeGreaterThan(150);
        f.engine.graphics.remove_extension(unordered);
        unordered.destroy();
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("steep slopes fade the mark out instead of stretching it; a decal turned to face the slope paints it", async () => {
        const { f } = await ground_with_decals();
        // flat to x = 0, then a wall rising 8 units over 1 (83 degrees) to a plateau
        const n = 33;
        const heights = new Float32Array(n * n);
        for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) heights[j * n + i] = i <= 16 ? 0 : i >= 18 ? 8 : (i - 16) * 4;
        flat_terrain(f.engine, heights, n);
        // tilted camera, so the wall has pixels
        f.engine.graphics.view.camera.position.set([-10, 14, 0]);
        f.engine.graphics.view.camera.up.set([1, 0, 0]);
        f.engine.tick(DT);
        const before = await f.capture.read("albedo");
        // one tall box over the foot of the wall: flat ground and the wall both inside
        add_decal(f.engine, [0, 2, 0], [3, 6, 3]);
        f.engine.tick(DT);
        const albedo = await f.capture.read("albedo");
        const depth = (await f.capture.read_depth()).data;
        write_readback_png(albedo, "decal_slope_albedo");
        let flat_red = 0;
        let wall_checked = 0;
        for (let y = 0; y < SIZE; y++) {
            for (let x = 0; x < SIZE; x++) {
                const [wx, wy, wz] = f.unproject(x, y, depth[y * SIZE + x]);
                if (Math.abs(wz) > 1.3) continue;
                const p = pixel_at(albedo, x, y);
                if (wx < -0.3 && wx > -1.3 && wy < 0.05) {
                    expect(p.slice(0, 3), `flat ground at (${x}, ${y})`).toEqual([255, 0, 0]);
                    flat_red++;
                } else if (wx > 0.1 && wx < 0.4 && wy > 1.5 && wy < 4) {
                    // on the wall, well inside the box: the ground as it was
                    expect(same(albedo, before, x, y), `wall at (${x}, ${y}) world (${wx.toFixed(2)}, ${wy.toFixed(2)}): ${p} vs ${pixel_at(before, x, y)}`).toBe(true);
                    wall_checked++;
                }
            }
        }
        expect(flat_red).toBeGreaterThan(5);
        expect(wall_checked).toBeGreaterThan(5);

        // turned to project along -x (its +y axis facing the camera side of the wall): now the wall takes it
        const e2 = add_decal(f.engine, [0.2, 3, 0], [3, 3, 3], { color: [0, 0, 1, 1], q: Array.from(quat.setAxisAngle(quat.create(), [0, 0, 1], Math.PI / 2)) });
        void e2;
        f.engine.tick(DT);
        const turned = await f.capture.read("albedo");
        const depth2 = (await f.capture.read_depth()).data;
        let wall_blue = 0;
        for (let y = 0; y < SIZE; y++) {
            for (let x = 0; x < SIZE; x++) {
                const [wx, wy, wz] = f.unproject(x, y, depth2[y * SIZE + x]);
                if (Math.abs(wz) < 1.2 && wx > 0 && wx < 0.4 && wy > 2 && wy < 4) {
                    expect(pixel_at(turned, x, y).slice(0, 3), `wall under the turned decal at (${x}, ${y})`).toEqual([0, 0, 255]);
                    wall_blue++;
                }
            }
        }
        expect(wall_blue).toBeGreaterThan(3);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("a decal's rotation turns its mark about the projection axis the right way round (pixels), composed after the Transform's", async () => {
        // one frame, opaque only in its quadrant of local +x (u > 1/2) and local +z (v > 1/2, the lower rows)
        const pixels = new Uint8Array(4 * 4 * 4);
        for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) pixels.set([255, 255, 255, x >= 2 && y >= 2 ? 255 : 0], (y * 4 + x) * 4);
        const { f, decals } = await ground_with_decals(new DecalAtlas(1, 1, 4, pixels));
        flat_terrain(f.engine);
        // a second decal far off, unrotated, so that a rotation applied to every decal or to the wrong one shows
        const other = add_decal(f.engine, [-5, 0, 5], [2, 2, 2]);
        const eid = add_decal(f.engine, [0, 0, 0], [4, 2, 4]);
        const up_y = (angle: number): number[] => Array.from(quat.setAxisAngle(quat.create(), [0, 1, 0], angle));
        /** Which of the four quadrants around the origin (world x, z = +-1) are painted. */
        const quadrants = async (name: string): Promise<string[]> => {
            f.engine.tick(DT);
            const albedo = await f.capture.read("albedo");
            write_readback_png(albedo, `decal_rotation_${name}`);
            const painted: string[] = [];
            for (const [x, z] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
                const p = pixel_at(albedo, ...f.project([x, 0, z]));
                if (p[0] > p[1] + 80) painted.push(`${x > 0 ? "+x" : "-x"}${z > 0 ? "+z" : "-z"}`);
            }
            // the other decal's mark stays at its own +x +z quadrant
            const q = pixel_at(albedo, ...f.project([-4.5, 0, 5.5]));
            expect(q[0], `${name}: the other decal`).toBeGreaterThan(q[1] + 80);
            return painted;
        };
        // unturned: the frame's +x +z quadrant lies at world +x +z
        expect(await quadrants("none")).toEqual(["+x+z"]);
        // a quarter turn about +y (right-handed): local +x goes to world -z, local +z to world +x
        Decal.rotation[eid] = Math.PI / 2;
        expect(await quadrants("quarter")).toEqual(["+x-z"]);
        Decal.rotation[eid] = -Math.PI / 2;
        expect(await quadrants("minus_quarter")).toEqual(["-x+z"]);
        Decal.rotation[eid] = Math.PI;
        expect(await quadrants("half")).toEqual(["-x-z"]);
        // the Transform's turn first, then the decal's own: a quarter each way is no turn at all
        Transform.rotation.set(up_y(Math.PI / 2), eid * 4);
        f.engine.entityManager.mark_transform_changed(eid);
        Decal.rotation[eid] = -Math.PI / 2;
        expect(await quadrants("cancelled")).toEqual(["+x+z"]);
        // the Transform's alone turns it the same way as the decal's
        Decal.rotation[eid] = 0;
        expect(await quadrants("transform_quarter")).toEqual(["+x-z"]);
        expect(decals.decal_count).toBe(2);
        expect(other).not.toBe(eid);
        await f.engine.shutdown();
        expect(f.errors).toEqual([]);
    });

    it("startup registers 'decals' at AfterGBuffer and the Decal descriptor; shutdown puts extension_count back", async () => {
        const f = await start_ground();
        const before = f.engine.graphics.extension_count(FramePhase.AfterGBuffer);
        const system = new DecalSystem(f.engine.graphics);
        await f.engine.add_system(system);
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before + 1);
        expect(f.engine.entityManager.components.get("Decal")).toBeDefined();
        await f.engine.remove_system(system);
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before);
        await system.shutdown(f.engine.entityManager);
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before);
        await f.engine.add_system(system);
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before + 1);
        await f.engine.shutdown();
        expect(f.engine.graphics.extension_count(FramePhase.AfterGBuffer)).toBe(before);
        expect(f.errors).toEqual([]);
    });

    it("a frame past the atlas written by code is reported naming the system and the entity, and the system suspended", async () => {
        const { f } = await ground_with_decals();
        const eid = add_decal(f.engine, [0, 0, 0], [1, 1, 1], { frame: 2 });
        expect(() => f.engine.tick(DT)).not.toThrow();
        expect(f.errors.map((e) => e.message)).toEqual([
            `System 'DecalSystem' failed in update: DecalSystem: entity ${eid}'s Decal.frame is 2; the atlas has 2 frames (0..1); it is suspended until engine.retry_systems()`,
        ]);
        const decals = f.engine.systems.find((s) => s.name === "DecalSystem")!;
        expect(f.engine.is_suspended(decals)).toBe(true);
        await f.engine.shutdown();
    });
});
