// Trail3DSystem on the real engine (Dawn): ribbons behind moving entities, read back as pixels.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { Trail3D } from "../../../systems/trails/Trail3D.js";
import { Trail3DSystem } from "../../../systems/trails/Trail3DSystem.js";
import { expect_pixel, pixel_at, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { SKY_8BIT, project, start_engine } from "./engine_fixture.js";

const DT = 1 / 30;

function spawn(engine: import("../../../engine/Engine.js").Engine, x: number, y: number, spec = {}): number {
    const entities = engine.entityManager;
    const eid = entities.create_entity();
    entities.add_component(eid, Transform);
    entities.add_component(eid, Trail3D);
    Transform.position.set([x, y, 0], eid * 3);
    Trail3D.write(eid, { max_age: 1, width: 0.5, color: [1, 0.6, 0.1, 1], head: [1, 1, 1, 1], tail: [1, 1, 1, 0], ...spec });
    return eid;
}

/** Red channel along row `y` from pixel x0 to x1 (inclusive). */
function row_red(image: TextureReadback, y: number, x0: number, x1: number): number[] {
    const out: number[] = [];
    for (let x = x0; x <= x1; x++) out.push(pixel_at(image, x, y)[0]);
    return out;
}

describe("Trail3DSystem (Dawn)", () => {
    it("a moving entity leaves a trail whose colour fades from the head to the tail", async () => {
        const { engine, errors, read } = await start_engine();
        const before = engine.graphics.extension_count(FramePhase.AfterTransparency);
        const trails = await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 32 }));
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 1);
        const eid = spawn(engine, -1.5, 0);
        // 3 units a second for one second: the trail spans x = -1.5 (oldest, faded out) to 1.5 (the head)
        for (let f = 1; f <= 30; f++) {
            engine.entityManager.set_position(eid, -1.5 + 3 * f * DT, 0, 0);
            engine.tick(DT);
        }
        const image = await read();
        write_readback_png(image, "trail_fade");
        const y = Math.round(project(0, "y"));
        const head = Math.floor(project(1.5, "x")) - 1;
        const tail = Math.ceil(project(-1.5, "x")) + 1;
        const reds = row_red(image, y, tail, head);
        // from the tail to the head the colour only strengthens (SwiftShader rounding: 1 unit of slack)
        for (let i = 1; i < reds.length; i++) expect(reds[i], `red at x=${tail + i}: ${reds.join(",")}`).toBeGreaterThanOrEqual(reds[i - 1] - 1);
        expect(reds[reds.length - 1] - reds[0]).toBeGreaterThan(100);
        // near the head it is nearly the trail colour; at the tail nearly the sky
        expect(reds[reds.length - 1]).toBeGreaterThan(200);
        expect(Math.abs(reds[0] - SKY_8BIT[0])).toBeLessThan(30);
        // off the ribbon: sky
        expect_pixel(image, head - 4, y - 8, SKY_8BIT, 3, "trail_fade");
        expect_pixel(image, head + 6, y, SKY_8BIT, 3, "trail_fade");
        // the whole trail is one point laid down per 1/31 s (max_age / (segments - 1))
        expect(trails.point_count(eid)).toBe(30);

        await engine.remove_system(trails);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("start -> stop -> start of the graphics engine keeps the trails drawing", async () => {
        const { engine, errors, read } = await start_engine();
        await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 16 }));
        // long-lived and unfaded along its length, so that the part laid down before the restart shows
        const eid = spawn(engine, -1, 0.5, { max_age: 4, tail: [1, 1, 1, 1] });
        const run = (frames: number, from: number) => {
            for (let f = 1; f <= frames; f++) {
                engine.entityManager.set_position(eid, from + 2 * f * DT, 0.5, 0);
                engine.tick(DT);
            }
        };
        run(15, -1); // head at x = 0
        await engine.graphics.stop();
        // updates go on while stopped (nothing renders): the rings keep filling on the CPU
        run(5, 0);
        await engine.graphics.start();
        run(10, 1 / 3); // head at x = 1
        const image = await read();
        write_readback_png(image, "trail_restart");
        const y = Math.round(project(0.5, "y"));
        // drawn on the new device: near the head and back along the path laid down before the restart
        expect(pixel_at(image, Math.floor(project(0.9, "x")), y)[0]).toBeGreaterThan(180);
        expect(pixel_at(image, Math.round(project(0.2, "x")), y)[0]).toBeGreaterThan(SKY_8BIT[0] + 40);
        // laid down on the first device: the whole pool went up again on the new one
        expect(pixel_at(image, Math.round(project(-0.5, "x")), y)[0]).toBeGreaterThan(150);
        expect_pixel(image, Math.round(project(0.5, "x")), y + 10, SKY_8BIT, 3, "trail_restart");
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("a removed entity's trail is gone the next frame and its recycled id starts a fresh one", async () => {
        const { engine, errors, read } = await start_engine();
        const trails = await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 16 }));
        const eid = spawn(engine, -1, 0);
        for (let f = 1; f <= 15; f++) {
            engine.entityManager.set_position(eid, -1 + 2 * f * DT, 0, 0);
            engine.tick(DT);
        }
        const y = Math.round(project(0, "y"));
        let image = await read();
        expect(pixel_at(image, Math.round(project(-0.1, "x")), y)[0]).toBeGreaterThan(150);
        expect(trails.trail_count).toBe(1);

        engine.entityManager.remove_entity(eid);
        expect(trails.trail_count).toBe(0);
        engine.tick(DT);
        image = await read();
        write_readback_png(image, "trail_removed");
        expect_pixel(image, Math.round(project(-0.1, "x")), y, SKY_8BIT, 3, "trail_removed");

        // bitecs hands the id out again at once: it must not inherit the old ring
        const again = spawn(engine, 1, -1);
        expect(again).toBe(eid);
        engine.tick(DT);
        expect(trails.point_count(again)).toBe(1);
        image = await read();
        expect_pixel(image, Math.round(project(-0.1, "x")), y, SKY_8BIT, 3, "trail_recycled");
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("Trail3D.clear empties a trail; spawning off lets it age out; startup after shutdown draws again", async () => {
        const { engine, errors, read } = await start_engine();
        const system = new Trail3DSystem(engine.graphics, { segments: 16 });
        await engine.add_system(system);
        const eid = spawn(engine, -1, 0);
        const move = (frames: number) => {
            for (let f = 0; f < frames; f++) {
                Transform.position[eid * 3] += 2 * DT;
                engine.entityManager.mark_transform_changed(eid);
                engine.tick(DT);
            }
        };
        move(10);
        expect(system.point_count(eid)).toBeGreaterThanOrEqual(4);
        Trail3D.clear(eid);
        engine.tick(DT);
        expect(system.point_count(eid)).toBe(1);

        move(10);
        Trail3D.spawning[eid] = 0;
        const laid = system.point_count(eid);
        for (let f = 0; f < 40; f++) engine.tick(DT); // 1.3 s > max_age: every point has faded out
        expect(system.point_count(eid)).toBe(laid);
        const y = Math.round(project(0, "y"));
        const image = await read();
        write_readback_png(image, "trail_aged_out");
        for (let x = 4; x < 60; x += 4) expect_pixel(image, x, y, SKY_8BIT, 3, "trail_aged_out");

        const before = engine.graphics.extension_count(FramePhase.AfterTransparency);
        await system.shutdown(engine.entityManager);
        await system.shutdown(engine.entityManager); // harmless
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before - 1);
        await system.startup(engine.entityManager);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before);
        Trail3D.spawning[eid] = 1;
        move(10);
        const again = await read();
        write_readback_png(again, "trail_after_restartup");
        expect(pixel_at(again, Math.floor(project(Transform.position[eid * 3] - 0.1, "x")), y)[0]).toBeGreaterThan(150);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("a ring filled to exactly its size draws every point, the first one's segment included; one point past, that segment is gone", async () => {
        const { engine, errors, read } = await start_engine();
        // 3 points a ring, one a second (max_age / (segments - 1)); frames of exactly 1/4 s, 1 unit a second along x
        const trails = await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 3 }));
        const eid = spawn(engine, -2.25, 0, { max_age: 2, width: 0.6, tail: [1, 1, 1, 1] });
        // a second trail above, so that a ring shared or shifted between slots shows too
        const other = spawn(engine, -2.25, 1.2, { max_age: 2, width: 0.6, tail: [1, 1, 1, 1] });
        let frame = 0;
        const step = (frames: number): void => {
            for (let f = 0; f < frames; f++) {
                frame++;
                Transform.position[eid * 3] = -2.25 + frame * 0.25;
                Transform.position[other * 3] = -2.25 + frame * 0.25;
                engine.entityManager.mark_transform_changed(eid);
                engine.entityManager.mark_transform_changed(other);
                engine.tick(0.25);
            }
        };
        const y = Math.round(project(0, "y"));
        const y_other = Math.round(project(1.2, "y"));
        // points laid at x = -2 (t = 0.25), -1 (1.25), 0 (2.25): exactly full; the first has aged out to alpha 0,
        // the second is at alpha 1/2, so the segment between them fades from 1/2 to 0
        step(9);
        expect(trails.point_count(eid)).toBe(3);
        let image = await read();
        write_readback_png(image, "trail_ring_full");
        const near_second = Math.round(project(-1.25, "x"));
        const beyond_first = Math.round(project(-2.4, "x"));
        for (const row of [y, y_other]) {
            expect(pixel_at(image, near_second, row)[0], `row ${row}: the first point's segment`).toBeGreaterThan(SKY_8BIT[0] + 40);
            expect_pixel(image, beyond_first, row, SKY_8BIT, 3, "trail_ring_full");
        }
        // one more point (x = 1, t = 3.25): the ring holds the last three, the first segment is gone
        step(4);
        expect(trails.point_count(eid)).toBe(3);
        image = await read();
        write_readback_png(image, "trail_ring_one_past");
        for (const row of [y, y_other]) {
            expect_pixel(image, Math.round(project(-1.5, "x")), row, SKY_8BIT, 3, "trail_ring_one_past");
            // the oldest kept point (x = -1, alpha 0) to the next (x = 0, alpha 1/2)
            expect(pixel_at(image, Math.round(project(-0.25, "x")), row)[0], `row ${row}: the oldest kept segment`).toBeGreaterThan(SKY_8BIT[0] + 40);
        }
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("spawning off then on starts a fresh trail: no segment bridges the pause", async () => {
        const { engine, errors, read } = await start_engine();
        const trails = await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 16 }));
        const eid = spawn(engine, -2, 0, { max_age: 4, tail: [1, 1, 1, 1] });
        const move = (frames: number, dx: number): void => {
            for (let f = 0; f < frames; f++) {
                Transform.position[eid * 3] += dx;
                engine.entityManager.mark_transform_changed(eid);
                engine.tick(DT);
            }
        };
        move(10, 0.05); // a trail from x = -2 to -1.5
        expect(trails.point_count(eid)).toBeGreaterThan(1);
        Trail3D.spawning[eid] = 0;
        // paused: the entity jumps across the middle of the view
        Transform.position[eid * 3] = 1.5;
        engine.entityManager.mark_transform_changed(eid);
        move(3, 0);
        Trail3D.spawning[eid] = 1;
        move(2, 0.05); // resumed at x = 1.5 .. 1.6
        // the old points were dropped: the ring starts again where the entity is
        expect(trails.point_count(eid)).toBeLessThanOrEqual(2);
        const image = await read();
        write_readback_png(image, "trail_resumed");
        const y = Math.round(project(0, "y"));
        // nothing across the gap, and the new trail at the entity
        for (const x of [-1, -0.5, 0, 0.5, 1]) expect_pixel(image, Math.round(project(x, "x")), y, SKY_8BIT, 3, "trail_resumed");
        expect(pixel_at(image, Math.round(project(1.55, "x")), y)[0]).toBeGreaterThan(150);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });
});
