// DebugDrawSystem's staging belt on the real engine (Dawn): lines written into a mapped staging buffer and copied
// on the GPU, and lines that go up by writeBuffer (no staging buffer mapped yet, or too many lines for it), all
// read back as pixels.
import { describe, expect, it } from "vitest";
import { DebugDrawSystem } from "../../../systems/debug_draw/DebugDrawSystem.js";
import type { DebugLineStaging } from "../../../systems/debug_draw/DebugLineStaging.js";
import { pixel_at, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { SKY_8BIT, project, start_engine } from "../trails/engine_fixture.js";

const RED = [1, 0, 0, 1];
/** Eleven horizontal lines, 0.4 apart (about 4.4 px on the 64 px target). */
const ROWS = [-2, -1.6, -1.2, -0.8, -0.4, 0, 0.4, 0.8, 1.2, 1.6, 2];

function row(debug: DebugDrawSystem, y: number): void {
    debug.line([-1.5, y, 0], [1.5, y, 0], RED);
}

/** Lines that land off the target: padding that counts but draws nothing. */
function offscreen(debug: DebugDrawSystem, n: number): void {
    for (let i = 0; i < n; i++) debug.line([40, 40, 0], [41, 40, 0], RED);
}

function red_near(image: TextureReadback, y: number): number {
    const px = Math.round(project(0.7, "x"));
    const py = Math.round(project(y, "y"));
    let best = 0;
    for (let dy = -1; dy <= 1; dy++) best = Math.max(best, pixel_at(image, px, py + dy)[0]);
    return best;
}

function rows_drawn(image: TextureReadback, rows: readonly number[]): number[] {
    return rows.filter((y) => red_near(image, y) > 200);
}

function is_sky_at(image: TextureReadback, y: number): boolean {
    const p = pixel_at(image, Math.round(project(0.7, "x")), Math.round(project(y, "y")));
    return Math.abs(p[0] - SKY_8BIT[0]) <= 3 && Math.abs(p[1] - SKY_8BIT[1]) <= 3;
}

function staging_of(debug: DebugDrawSystem): DebugLineStaging {
    const staging = debug.extension?.staging ?? null;
    if (staging === null) throw new Error("no staging belt yet (nothing uploaded)");
    return staging;
}

describe("DebugDrawSystem staging belt (Dawn)", () => {
    it("lines through the writeBuffer fallback and through the staging copy both draw", async () => {
        const { engine, errors, read } = await start_engine();
        const debug = await engine.add_system(new DebugDrawSystem(engine.graphics, { initial_lines: 16 }));
        const first = ROWS.filter((_, i) => i % 2 === 0);
        const second = ROWS.filter((_, i) => i % 2 === 1);
        // frame 1: written before the extension had a device, so into the CPU arrays
        expect(debug.frame_lines.slot).toBe(-1);
        for (const y of first) row(debug, y);
        engine.tick(1 / 30);
        let image = await read();
        write_readback_png(image, "debug_staging_fallback");
        expect(staging_of(debug).fallback_frames).toBe(1);
        expect(staging_of(debug).staged_frames).toBe(0);
        expect(rows_drawn(image, first)).toEqual(first);
        for (const y of second) expect(is_sky_at(image, y), `row ${y}`).toBe(true);

        // frame 2: written straight into the staging buffer the first frame attached, copied on the GPU
        expect(debug.frame_lines.slot).toBeGreaterThanOrEqual(0);
        for (const y of second) row(debug, y);
        engine.tick(1 / 30);
        image = await read();
        write_readback_png(image, "debug_staging_staged");
        expect(staging_of(debug).staged_frames).toBe(1);
        expect(staging_of(debug).fallback_frames).toBe(1);
        expect(rows_drawn(image, second)).toEqual(second);
        for (const y of first) expect(is_sky_at(image, y), `row ${y}`).toBe(true);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("a frame whose staging buffer is not yet mapped still draws all its lines; the ring maps again after", async () => {
        const { engine, errors, read } = await start_engine();
        const debug = await engine.add_system(new DebugDrawSystem(engine.graphics, { initial_lines: 16 }));
        row(debug, 0);
        engine.tick(1 / 30);
        await read();
        const staging = staging_of(debug);
        // three frames back to back with no turn of the event loop: each takes a slot, none is mapped again
        for (let f = 0; f < 3; f++) {
            expect(debug.frame_lines.slot, `frame ${f}`).toBeGreaterThanOrEqual(0);
            for (const y of ROWS) row(debug, y);
            engine.tick(1 / 30);
        }
        expect(staging.staged_frames).toBe(3);
        expect(staging.mapped_slots).toBe(0);
        expect(debug.frame_lines.slot).toBe(-1);
        for (const y of ROWS) row(debug, y);
        engine.tick(1 / 30);
        let image = await read();
        write_readback_png(image, "debug_staging_unmapped");
        expect(staging.fallback_frames).toBe(2);
        expect(rows_drawn(image, ROWS)).toEqual(ROWS);

        // the read gave mapAsync its turn: staged again
        expect(staging.mapped_slots).toBeGreaterThan(0);
        expect(debug.frame_lines.slot).toBeGreaterThanOrEqual(0);
        for (const y of ROWS) row(debug, y);
        engine.tick(1 / 30);
        image = await read();
        expect(staging.staged_frames).toBe(4);
        expect(rows_drawn(image, ROWS)).toEqual(ROWS);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("lines that overflow the staging buffer all draw that frame, and the staging buffers grow to take them", async () => {
        const { engine, errors, read } = await start_engine();
        const debug = await engine.add_system(new DebugDrawSystem(engine.graphics, { initial_lines: 16 }));
        row(debug, 0);
        engine.tick(1 / 30);
        await read();
        const staging = staging_of(debug);
        const size = staging.size;
        const capacity = debug.frame_lines.capacity;
        expect(debug.frame_lines.slot).toBeGreaterThanOrEqual(0);
        const draw = (): void => {
            // rows before the overflow (in the staging range), padding past it, rows after (in the CPU arrays)
            for (const y of ROWS.slice(0, 6)) row(debug, y);
            offscreen(debug, capacity);
            for (const y of ROWS.slice(6)) row(debug, y);
        };
        draw();
        expect(debug.frame_lines.slot).toBe(-1);
        engine.tick(1 / 30);
        let image = await read();
        write_readback_png(image, "debug_staging_overflow");
        expect(staging.fallback_frames).toBe(2);
        expect(rows_drawn(image, ROWS)).toEqual(ROWS);
        expect(staging.size).toBeGreaterThanOrEqual((capacity + ROWS.length) * 28);
        expect(staging.size).toBeGreaterThan(size);

        // the next frame of that size fits a (new, larger) staging buffer
        expect(debug.frame_lines.slot).toBeGreaterThanOrEqual(0);
        expect(debug.frame_lines.capacity).toBeGreaterThanOrEqual(capacity + ROWS.length);
        draw();
        expect(debug.frame_lines.slot).toBeGreaterThanOrEqual(0);
        engine.tick(1 / 30);
        image = await read();
        expect(staging.staged_frames).toBe(1);
        expect(rows_drawn(image, ROWS)).toEqual(ROWS);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });
});
