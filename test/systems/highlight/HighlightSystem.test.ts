// HighlightSystem on the real engine (Dawn): outlines found through the G-buffer's object ids by a jump flood,
// and picking from the same target, read back as pixels and entity ids.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { load_level } from "../../../engine/level/load_level.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { FogOfWarSystem } from "../../../systems/fog_of_war/FogOfWarSystem.js";
import { FogRevealer } from "../../../systems/fog_of_war/FogRevealer.js";
import { Highlight } from "../../../systems/highlight/Highlight.js";
import { HighlightSystem } from "../../../systems/highlight/HighlightSystem.js";
import { GPUParticleEmitterSystem } from "../../../systems/particles/GPUParticleEmitterSystem.js";
import { PathDisplaySystem } from "../../../systems/path_display/PathDisplaySystem.js";
import { Trail3DSystem } from "../../../systems/trails/Trail3DSystem.js";
import { pixel_at, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { pixel_of, start_top_down, type TopDownFixture } from "../fog_of_war/top_down_fixture.js";

const RED = [1, 0, 0, 1];

interface Scene {
    readonly fixture: TopDownFixture;
    readonly highlight: HighlightSystem;
    readonly a: number;
    readonly b: number;
    readonly mesh_a: Mesh;
    readonly mesh_b: Mesh;
}

/** Two boxes on the x axis, A at x = -2.5 and B at x = 2.5, each an entity whose mesh the system knows. */
async function two_boxes(ground = false): Promise<Scene> {
    const fixture = await start_top_down(64, ground);
    const { engine } = fixture;
    const highlight = await engine.add_system(new HighlightSystem(engine.graphics));
    const em = engine.entityManager;
    const make = (x: number, color: number[]): [number, Mesh] => {
        const mesh = new Mesh(make_box_geometry(1.5, 1.5, 1.5), new StandardMaterial({ base_color: color }));
        mesh.position.set([x, 0.75, 0]);
        engine.graphics.scene.add(mesh);
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        highlight.set_mesh(eid, mesh);
        return [eid, mesh];
    };
    const [a, mesh_a] = make(-2.5, [0.2, 0.6, 0.9]);
    const [b, mesh_b] = make(2.5, [0.2, 0.6, 0.9]);
    return { fixture, highlight, a, b, mesh_a, mesh_b };
}

function highlight_entity(scene: Scene, eid: number, width: number, color = RED): void {
    scene.fixture.engine.entityManager.add_component(eid, Highlight, (e) => {
        Highlight.color.set(color, e * 4);
        Highlight.width[e] = width;
    });
}

const redness = (p: number[]): number => p[0] - Math.max(p[1], p[2]);

/** Pixels of the row through the boxes' centres that are red (outline) to the right of the box edge at `from`. */
function red_run(image: TextureReadback, from: number, y: number): number {
    let n = 0;
    for (let x = from; x < image.width && redness(pixel_at(image, x, y)) > 60; x++) n++;
    return n;
}

const SKY_8BIT = [60, 78, 101];
const is_sky = (p: number[]): boolean => Math.abs(p[0] - SKY_8BIT[0]) <= 3 && Math.abs(p[1] - SKY_8BIT[1]) <= 3 && Math.abs(p[2] - SKY_8BIT[2]) <= 3;

/** The first sky pixel right of `x` (inside a box) on row `y` in `reference`. */
function box_edge(reference: TextureReadback, x: number, y: number): number {
    let e = x;
    while (e < reference.width && !is_sky(pixel_at(reference, e, y))) e++;
    return e;
}

describe("HighlightSystem (Dawn)", () => {
    it("outlines a highlighted mesh and not another; the inside keeps its colour", async () => {
        const scene = await two_boxes();
        const { engine, errors, read } = scene.fixture;
        engine.tick(1 / 30);
        const reference = await read();
        highlight_entity(scene, scene.a, 2);
        engine.tick(1 / 30);
        const image = await read();
        write_readback_png(image, "highlight_outline");
        const [ax, y] = pixel_of(-2.5, 0);
        const [bx] = pixel_of(2.5, 0);
        const edge_a = box_edge(reference, ax, y);
        const edge_b = box_edge(reference, bx, y);
        expect(red_run(image, edge_a, y), "outline right of A").toBeGreaterThanOrEqual(1);
        // left of A and above A as well: all the way round
        let left = ax;
        while (left > 0 && !is_sky(pixel_at(reference, left - 1, y))) left--;
        expect(redness(pixel_at(image, left - 1, y)), "outline left of A").toBeGreaterThan(60);
        let top = y;
        while (top > 0 && !is_sky(pixel_at(reference, ax, top - 1))) top--;
        expect(redness(pixel_at(image, ax, top - 1)), "outline above A").toBeGreaterThan(60);
        expect(red_run(image, edge_b, y), "no outline around B").toBe(0);
        expect(pixel_at(image, ax, y), "inside A unchanged").toEqual(pixel_at(reference, ax, y));
        let changed_near_b = 0;
        for (let yy = 0; yy < 64; yy++) for (let x = 34; x < 64; x++) if (pixel_at(image, x, yy).join() !== pixel_at(reference, x, yy).join()) changed_near_b++;
        expect(changed_near_b, "nothing changes on B's half").toBe(0);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("outline width: 1 px and 8 px measured on the row through the box's centre; passes grow with log2(width)", async () => {
        const scene = await two_boxes();
        const { engine, errors, read } = scene.fixture;
        engine.tick(1 / 30);
        const reference = await read();
        const [ax, y] = pixel_of(-2.5, 0);
        const edge = box_edge(reference, ax, y);
        const runs: number[] = [];
        const passes: number[] = [];
        for (const width of [1, 8]) {
            highlight_entity(scene, scene.a, width);
            engine.tick(1 / 30);
            const image = await read();
            write_readback_png(image, `highlight_width_${width}`);
            runs.push(red_run(image, edge, y));
            passes.push(scene.highlight.extension!.flood_passes);
            engine.entityManager.remove_component(scene.a, Highlight);
        }
        expect(runs[0], `1 px: ${runs[0]}`).toBe(1);
        expect(Math.abs(runs[1] - 8), `8 px: ${runs[1]}`).toBeLessThanOrEqual(1);
        expect(passes).toEqual([1, 4]);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("pick returns the entity under a pixel, null on the sky, and records nothing when no pick is pending", async () => {
        const scene = await two_boxes();
        const { engine, errors } = scene.fixture;
        engine.tick(1 / 30);
        const on_a = scene.highlight.pick(...pixel_of(-2.5, 0));
        const on_b = scene.highlight.pick(...pixel_of(2.5, 0));
        const on_sky = scene.highlight.pick(...pixel_of(0, -4));
        const outside = scene.highlight.pick(64, 3);
        for (let i = 0; i < 4; i++) engine.tick(1 / 30);
        // one read-back at a time: later picks wait for frames while one is in flight
        const settle = async (): Promise<void> => {
            for (let i = 0; i < 500 && scene.highlight.extension!.pending_picks > 0; i++) {
                await new Promise((r) => setTimeout(r, 10));
                engine.tick(1 / 30);
            }
        };
        await settle();
        expect(await on_a).toBe(scene.a);
        expect(await on_b).toBe(scene.b);
        expect(await on_sky).toBe(null);
        expect(await outside).toBe(null);
        // a mesh no entity names is not an entity
        scene.highlight.set_mesh(scene.b, null);
        const unnamed = scene.highlight.pick(...pixel_of(2.5, 0));
        await settle();
        expect(await unnamed).toBe(null);
        // a removed entity's mesh entry is ignored
        engine.entityManager.remove_entity(scene.a);
        const removed = scene.highlight.pick(...pixel_of(-2.5, 0));
        await settle();
        expect(await removed).toBe(null);
        // no pick pending: no pick pass
        const recorded = scene.highlight.extension!.pick_passes;
        expect(recorded, "one pass per in-range pick").toBe(5);
        for (let i = 0; i < 3; i++) engine.tick(1 / 30);
        expect(scene.highlight.extension!.pick_passes).toBe(recorded);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("is ordered before the fog (the seed's AfterTransparency order), and an outline on a hidden cell is darkened by it", async () => {
        const scene = await two_boxes(true);
        const { engine, errors, read } = scene.fixture;
        highlight_entity(scene, scene.a, 3);
        engine.tick(1 / 30);
        const bright = await read();
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: [-8, -8, 8, 8], fade_time: 0 }));
        // B's surroundings are visible, A's hidden
        const eye = engine.entityManager.create_entity();
        engine.entityManager.add_component(eye, Transform);
        engine.entityManager.add_component(eye, FogRevealer, (e) => (FogRevealer.radius[e] = 3));
        Transform.position.set([2.5, 0, 0], eye * 3);
        // highlight and fog alone: "fog of war" sorts first by name, so only the fog's declaration puts it after
        engine.tick(1 / 30);
        const fogged = await read();
        write_readback_png(fogged, "highlight_under_fog");
        const [ax, y] = pixel_of(-2.5, 0);
        let left = ax;
        while (left > 0 && redness(pixel_at(bright, left - 1, y)) <= 60) left--;
        const outline = left - 1;
        expect(redness(pixel_at(bright, outline, y)), "outline without fog").toBeGreaterThan(60);
        expect(pixel_at(fogged, outline, y)[0], `outline under fog ${pixel_at(fogged, outline, y).join(",")}`).toBeLessThan(pixel_at(bright, outline, y)[0] * 0.4);
        // highlight and fog alone (what the pixels above ran): name order would put "fog of war" first; the fog's declaration puts it after
        const alone = engine.graphics.describe().phases.find((p) => p.phase === FramePhase.AfterTransparency)!;
        expect(alone.extensions.map((e) => e.name)).toEqual(["highlight", "fog of war"]);
        await engine.add_system(new GPUParticleEmitterSystem(engine.graphics));
        await engine.add_system(new PathDisplaySystem(engine.graphics));
        await engine.add_system(new Trail3DSystem(engine.graphics));
        const phase = engine.graphics.describe().phases.find((p) => p.phase === FramePhase.AfterTransparency)!;
        const names = phase.extensions.map((e) => e.name);
        expect(names.filter((n) => n !== "debug draw")).toEqual(["highlight", "particles", "path display", "trails", "fog of war"]);
        expect(fog.is_visible(0, 2.5, 0)).toBe(true);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("startup/shutdown puts extension_count back; shutdown twice is harmless; Highlight in level files", async () => {
        const fixture = await start_top_down(32, false);
        const { engine, errors } = fixture;
        const before = engine.graphics.extension_count(FramePhase.AfterTransparency);
        const system = await engine.add_system(new HighlightSystem(engine.graphics));
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 1);
        const [eid, other] = load_level(engine, { entities: [{ Highlight: { color: [0, 1, 0, 1], width: 5 } }, { Highlight: {} }] });
        expect(Array.from(Highlight.color.subarray(eid * 4, eid * 4 + 4))).toEqual([0, 1, 0, 1]);
        expect(Highlight.width[eid]).toBe(5);
        expect(Highlight.width[other]).toBe(2);
        expect(() => load_level(engine, { entities: [{ Highlight: { width: 0 } }] })).toThrow(/entities\[0\]\.Highlight\.width/);
        await engine.remove_system(system);
        await system.shutdown(engine.entityManager);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before);
        await expect(system.pick(0, 0)).rejects.toThrow(/HighlightSystem\.pick: start the system up first/);
        await engine.add_system(system);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 1);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });
});
