// FogOfWarSystem on the real engine (Dawn): a white ground seen from above, darkened by the fog, read back.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { load_level } from "../../../engine/level/load_level.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { DebugDrawSystem } from "../../../systems/debug_draw/DebugDrawSystem.js";
import { FogCellState } from "../../../systems/fog_of_war/FogCellState.js";
import { FogOfWarSystem } from "../../../systems/fog_of_war/FogOfWarSystem.js";
import { FogRevealer } from "../../../systems/fog_of_war/FogRevealer.js";
import { VisibilityGrid } from "../../../systems/fog_of_war/VisibilityGrid.js";
import { pixel_at, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { luminance, pixel_of, start_top_down, type TopDownFixture } from "./top_down_fixture.js";

const BOUNDS = [-8, -8, 8, 8] as const;
const SIZE_SKY = 64;

function pixel_luminance(image: TextureReadback, x: number, y: number): number {
    const p = pixel_at(image, x, y);
    return (p[0] + p[1] + p[2]) / 3;
}

function add_revealer(fixture: TopDownFixture, x: number, z: number, radius: number, team = 0): number {
    const em = fixture.engine.entityManager;
    const eid = em.create_entity();
    em.add_component(eid, Transform);
    em.add_component(eid, FogRevealer, (e) => {
        FogRevealer.radius[e] = radius;
        FogRevealer.team[e] = team;
    });
    Transform.position.set([x, 0, z], eid * 3);
    return eid;
}

describe("FogOfWarSystem (Dawn)", () => {
    it("darkens hidden cells, not visible ones; explored cells are between; a moving revealer leaves explored cells behind", async () => {
        const fixture = await start_top_down();
        const { engine, errors, read } = fixture;
        engine.tick(1 / 30);
        const clear = await read();
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: BOUNDS, fade_time: 0 }));
        // cell (5, 8), centre (-2.5, 0.5): radius 1.5 reveals the 3x3 cells around it
        const unit = add_revealer(fixture, -2.5, 0.5, 1.5);
        engine.tick(1 / 30);
        let image = await read();
        write_readback_png(image, "fog_revealed");
        const lit = luminance(clear, -2.5, 0.5);
        expect(lit).toBeGreaterThan(120);
        expect(Math.abs(luminance(image, -2.5, 0.5) - lit), "visible cell untouched").toBeLessThanOrEqual(2);
        expect(luminance(image, 2.5, 0.5), "hidden cell").toBeLessThan(lit * 0.3);
        expect(luminance(image, -2.5, -3.5), "hidden cell").toBeLessThan(lit * 0.3);
        expect(fog.is_visible(0, -2.5, 0.5)).toBe(true);
        expect(fog.cell_state(0, 2.5, 0.5)).toBe(FogCellState.Hidden);
        expect(fog.cell_state(1, -2.5, 0.5), "another team sees nothing").toBe(FogCellState.Hidden);

        engine.entityManager.set_position(unit, 2.5, 0, 0.5);
        engine.tick(1 / 30);
        image = await read();
        write_readback_png(image, "fog_moved");
        const explored = luminance(image, -2.5, 0.5);
        const hidden = luminance(image, -2.5, -3.5);
        expect(Math.abs(luminance(image, 2.5, 0.5) - lit), "newly visible").toBeLessThanOrEqual(2);
        expect(explored, "explored is darker than visible").toBeLessThan(lit - 20);
        expect(explored, "explored is lighter than hidden").toBeGreaterThan(hidden + 20);
        expect(fog.cell_state(0, -2.5, 0.5)).toBe(FogCellState.Explored);
        expect(fog.is_explored(0, -2.5, 0.5)).toBe(true);
        expect(fog.is_visible(0, 2.5, 0.5)).toBe(true);

        // the edge is smooth: across the boundary of the visible block the brightness ramps over several pixels
        const [x0, y] = pixel_of(3, 0.5);
        const [x1] = pixel_of(5.5, 0.5);
        const row: number[] = [];
        for (let x = x0; x <= x1; x++) row.push(pixel_luminance(image, x, y));
        const between = row.filter((v) => v > hidden + 10 && v < lit - 10);
        expect(between.length, `ramp ${row.map((v) => v.toFixed(0)).join(" ")}`).toBeGreaterThanOrEqual(3);
        for (let i = 1; i < row.length; i++) expect(row[i], "monotone edge").toBeLessThanOrEqual(row[i - 1] + 1);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("the compute path (the default on GPUs) gives the raster path's picture: hidden, explored and visible cells, the sky", async () => {
        const images: TextureReadback[] = [];
        for (const path of ["raster", "compute"] as const) {
            const fixture = await start_top_down(SIZE_SKY, true, path);
            const { engine, errors, read } = fixture;
            // tilted so the sky (left as it is) is in view too
            engine.graphics.view.camera.position.set([0, 4, 9]);
            engine.graphics.view.camera.up.set([0, 1, 0]);
            await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: BOUNDS, fade_time: 0 }));
            const unit = add_revealer(fixture, -2.5, 0.5, 1.5);
            engine.tick(1 / 30);
            engine.entityManager.set_position(unit, 2.5, 0, 0.5);
            engine.tick(1 / 30);
            images.push(await read());
            write_readback_png(images[images.length - 1], `fog_path_${path}`);
            await engine.graphics.stop();
            expect(errors).toEqual([]);
        }
        const [raster, compute] = images;
        let worst = 0;
        let darkened = 0;
        for (let i = 0; i < raster.data.length; i++) {
            worst = Math.max(worst, Math.abs(raster.data[i] - compute.data[i]));
        }
        for (let y = 0; y < SIZE_SKY; y++) for (let x = 0; x < SIZE_SKY; x++) if (pixel_luminance(compute, x, y) < 40) darkened++;
        expect(worst, "largest channel difference, compute against raster").toBeLessThanOrEqual(2);
        expect(darkened, "hidden ground is dark on the compute path").toBeGreaterThan(SIZE_SKY * 4);
    });

    it("a newly visible cell fades in over fade_time", async () => {
        const fixture = await start_top_down();
        const { engine, errors, read } = fixture;
        engine.tick(1 / 30);
        const lit = luminance(await read(), -2.5, 0.5);
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: BOUNDS, fade_time: 0.5 }));
        engine.tick(1 / 30);
        const dark = luminance(await read(), -2.5, 0.5);
        add_revealer(fixture, -2.5, 0.5, 1.5);
        engine.tick(0.25);
        const half = luminance(await read(), -2.5, 0.5);
        engine.tick(0.25);
        const full = luminance(await read(), -2.5, 0.5);
        expect(dark).toBeLessThan(lit * 0.3);
        expect(half, `half way: ${dark} < ${half} < ${full}`).toBeGreaterThan(dark + 10);
        expect(half).toBeLessThan(full - 10);
        expect(Math.abs(full - lit)).toBeLessThanOrEqual(2);
        expect(fog.grid.fading_count).toBe(0);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("publishes the grid at FrameStart as a VisibilityGrid that an extension at AfterTransparency reads", async () => {
        const fixture = await start_top_down();
        const { engine, errors } = fixture;
        class Reader extends RenderExtension {
            name = "grid reader";
            phase = FramePhase.AfterTransparency;
            seen: { present: boolean; width: number; height: number; format: string } | null = null;
            override record(frame: FrameContext): void {
                const present = frame.has(VisibilityGrid);
                const d = present ? frame.describe(frame.get(VisibilityGrid).grid) : null;
                this.seen = { present, width: d?.width ?? 0, height: d?.height ?? 0, format: d?.format ?? "" };
            }
        }
        const reader = engine.graphics.add_extension(new Reader());
        engine.tick(1 / 30);
        expect(reader.seen?.present).toBe(false);
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [24, 16], bounds: BOUNDS }));
        engine.tick(1 / 30);
        expect(reader.seen).toEqual({ present: true, width: 24, height: 16, format: "r8unorm" });
        await engine.remove_system(fog);
        engine.tick(1 / 30);
        expect(reader.seen?.present).toBe(false);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("startup/shutdown puts extension_count back (FrameStart and AfterTransparency); shutdown twice is harmless; startup again reveals again", async () => {
        const fixture = await start_top_down();
        const { engine, errors, read } = fixture;
        const at = (phase: FramePhase): number => engine.graphics.extension_count(phase);
        const before = [at(FramePhase.FrameStart), at(FramePhase.AfterTransparency)];
        const fog = new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: BOUNDS, fade_time: 0 });
        await engine.add_system(fog);
        expect([at(FramePhase.FrameStart), at(FramePhase.AfterTransparency)]).toEqual([before[0] + 1, before[1] + 1]);
        add_revealer(fixture, -2.5, 0.5, 1.5);
        engine.tick(1 / 30);
        await engine.remove_system(fog);
        await fog.shutdown(engine.entityManager);
        expect([at(FramePhase.FrameStart), at(FramePhase.AfterTransparency)]).toEqual(before);
        engine.tick(1 / 30);
        const clear = await read();
        await engine.add_system(fog);
        engine.tick(1 / 30);
        const again = await read();
        expect(Math.abs(luminance(again, -2.5, 0.5) - luminance(clear, -2.5, 0.5))).toBeLessThanOrEqual(2);
        expect(luminance(again, 2.5, 0.5)).toBeLessThan(luminance(clear, 2.5, 0.5) * 0.3);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("a removed revealer (entity or component) takes its vision back; team vision is shared", async () => {
        const fixture = await start_top_down();
        const { engine, errors } = fixture;
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: BOUNDS, fade_time: 0 }));
        const a = add_revealer(fixture, -2.5, 0.5, 1.5, 1);
        const b = add_revealer(fixture, -1.5, 0.5, 1.5, 1);
        engine.update(1 / 30);
        expect(fog.is_visible(1, -3.5, 0.5)).toBe(true);
        expect(fog.is_visible(1, -0.5, 0.5)).toBe(true);
        engine.entityManager.remove_entity(a);
        engine.update(1 / 30);
        expect(fog.cell_state(1, -3.5, 0.5)).toBe(FogCellState.Explored);
        // the cell both saw stays visible through b: counted, not flagged
        expect(fog.is_visible(1, -2.5, 0.5)).toBe(true);
        engine.entityManager.remove_component(b, FogRevealer);
        engine.update(1 / 30);
        expect(fog.cell_state(1, -2.5, 0.5)).toBe(FogCellState.Explored);
        expect(fog.grid.counts[1].every((c) => c === 0)).toBe(true);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("FogRevealer in level files: defaults, values, and a bad radius refused with its JSON path", async () => {
        const fixture = await start_top_down(32, false);
        const { engine, errors } = fixture;
        await engine.add_system(new FogOfWarSystem(engine.graphics));
        const [eid, other] = load_level(engine, {
            entities: [{ Transform: { position: [1, 0, 2] }, FogRevealer: { radius: 7, team: 2 } }, { Transform: {}, FogRevealer: {} }],
        });
        expect(FogRevealer.radius[eid]).toBe(7);
        expect(FogRevealer.team[eid]).toBe(2);
        expect(FogRevealer.radius[other]).toBe(5);
        expect(() => load_level(engine, { entities: [{ FogRevealer: { radius: -1 } }] })).toThrow(LevelError);
        try {
            load_level(engine, { entities: [{ Transform: {}, FogRevealer: { radius: 0 } }] });
        } catch (error) {
            expect((error as LevelError).path).toBe("entities[0].FogRevealer.radius");
        }
        expect(() => load_level(engine, { entities: [{ FogRevealer: { team: 16 } }] })).toThrow(/FogRevealer\.team/);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("debug draw stays visible under the fog (ordered after it); the scene beside the line is darkened", async () => {
        const fixture = await start_top_down();
        const { engine, errors, read } = fixture;
        const debug = await engine.add_system(new DebugDrawSystem(engine.graphics, { line_width: 3, depth_test: false }));
        engine.tick(1 / 30);
        const lit = luminance(await read(), -2, -3.5);
        await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: BOUNDS, fade_time: 0 }));
        const phase = engine.graphics.describe().phases.find((p) => p.phase === FramePhase.AfterTransparency)!;
        expect(phase.extensions.map((e) => e.name)).toEqual(["fog of war", "debug draw"]);
        // nothing reveals: the whole ground is hidden
        debug.line([-4, 0.1, 0.5], [4, 0.1, 0.5], [0, 1, 0, 1]);
        engine.tick(1 / 30);
        const image = await read();
        write_readback_png(image, "fog_debug_draw");
        const [x, y] = pixel_of(-2, 0.5);
        let green = 0;
        for (let dy = -2; dy <= 2; dy++) green = Math.max(green, pixel_at(image, x, y + dy)[1]);
        expect(lit, "the ground without fog").toBeGreaterThan(120);
        expect(green, "the line is drawn over the fog, at full strength").toBeGreaterThan(200);
        expect(luminance(image, -2, -3.5), "the hidden ground beside it").toBeLessThan(lit * 0.3);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("where nothing was drawn, the ground plane y = 0 is fogged below the horizon; the sky above it is left as it is", async () => {
        const fixture = await start_top_down(SIZE_SKY, false);
        const { engine, errors, read } = fixture;
        engine.tick(1 / 30);
        const sky = await read();
        await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: BOUNDS, fade_time: 0 }));
        add_revealer(fixture, -2.5, 0.5, 1.5);
        engine.tick(1 / 30);
        let image = await read();
        write_readback_png(image, "fog_clear_colour_top_down");
        expect(Math.abs(luminance(image, -2.5, 0.5) - luminance(sky, -2.5, 0.5)), "revealed").toBeLessThanOrEqual(2);
        expect(luminance(image, 2.5, 0.5), "hidden").toBeLessThan(luminance(sky, 2.5, 0.5) * 0.3);
        // a level view: the upper half looks above the horizon
        const camera = engine.graphics.view.camera;
        camera.position.set([0, 1, 6]);
        camera.target.set([0, 1, 0]);
        camera.up.set([0, 1, 0]);
        engine.tick(1 / 30);
        image = await read();
        write_readback_png(image, "fog_clear_colour_level");
        const top = pixel_luminance(image, SIZE_SKY / 2, 4);
        const bottom = pixel_luminance(image, SIZE_SKY / 2, SIZE_SKY - 4);
        expect(Math.abs(top - pixel_luminance(sky, SIZE_SKY / 2, 4)), "sky above the horizon untouched").toBeLessThanOrEqual(2);
        expect(bottom, "the hidden plane below it").toBeLessThan(pixel_luminance(sky, SIZE_SKY / 2, SIZE_SKY - 4) * 0.3);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });
});
