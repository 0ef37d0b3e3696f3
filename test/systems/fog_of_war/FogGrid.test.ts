// FogGrid, FogOfWarSystem.update and misuse of both systems without a GPU (device-independent logic).
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { Engine } from "../../../engine/Engine.js";
import { FogCellState } from "../../../systems/fog_of_war/FogCellState.js";
import { FogGrid } from "../../../systems/fog_of_war/FogGrid.js";
import { FogOfWarSystem } from "../../../systems/fog_of_war/FogOfWarSystem.js";
import { FogRevealer } from "../../../systems/fog_of_war/FogRevealer.js";
import { HighlightSystem } from "../../../systems/highlight/HighlightSystem.js";

const grid_of = (fade_time = 0): FogGrid =>
    new FogGrid({ width: 16, height: 16, bounds: [-8, -8, 8, 8], teams: 2, view_team: 0, fade_time, explored_level: 0.5 });

describe("FogGrid (device-independent)", () => {
    it("counts revealers per cell: a cell two revealers see stays visible while one leaves, and never blinks", () => {
        const grid = grid_of();
        grid.reveal(0, 5, 8, 1.5);
        grid.reveal(0, 6, 8, 1.5);
        grid.step(0);
        expect(grid.counts[0][8 * 16 + 6]).toBe(2);
        grid.conceal(0, 5, 8, 1.5);
        grid.step(0);
        expect(grid.cell_state(0, 6, 8)).toBe(FogCellState.Visible);
        expect(grid.level[8 * 16 + 6]).toBe(1);
        expect(grid.cell_state(0, 4, 8)).toBe(FogCellState.Explored);
        expect(grid.level[8 * 16 + 4]).toBe(grid.explored_level);
        expect(grid.cell_state(1, 6, 8), "teams do not share vision").toBe(FogCellState.Hidden);
    });

    it("only changed rows are dirty; nothing is dirty when nothing changed", () => {
        const grid = grid_of();
        grid.clean();
        grid.reveal(0, 5, 8, 1.5);
        grid.step(0);
        expect([grid.dirty_min_row, grid.dirty_max_row]).toEqual([7, 9]);
        grid.clean();
        grid.step(1 / 30);
        expect(grid.dirty_min_row > grid.dirty_max_row).toBe(true);
    });

    it("fades toward the new state over fade_time and then stops walking the cell", () => {
        const grid = grid_of(1);
        grid.reveal(0, 5, 8, 0);
        grid.step(0.25);
        expect(grid.level[8 * 16 + 5]).toBeCloseTo(0.25, 5);
        expect(grid.fading_count).toBe(1);
        grid.step(1);
        expect(grid.level[8 * 16 + 5]).toBe(1);
        expect(grid.fading_count).toBe(0);
    });

    it("refuses bad options with the option named", () => {
        expect(() => new FogGrid({ width: 0, height: 4, bounds: [0, 0, 1, 1], teams: 1, view_team: 0, fade_time: 0, explored_level: 0.5 })).toThrow(/grid size/);
        expect(() => new FogGrid({ width: 4, height: 4, bounds: [0, 0, 0, 1], teams: 1, view_team: 0, fade_time: 0, explored_level: 0.5 })).toThrow(/bounds/);
        expect(() => new FogGrid({ width: 4, height: 4, bounds: [0, 0, 1, 1], teams: 2, view_team: 2, fade_time: 0, explored_level: 0.5 })).toThrow(/view_team/);
    });
});

describe("FogOfWarSystem.update (no GPU)", () => {
    it("touches the grid only when a revealer crosses a cell", async () => {
        const errors: Error[] = [];
        const engine = new Engine({ on_error: (e) => errors.push(e) });
        const fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [16, 16], bounds: [-8, -8, 8, 8], fade_time: 0 }));
        const em = engine.entityManager;
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        em.add_component(eid, FogRevealer, (e) => (FogRevealer.radius[e] = 2));
        Transform.position.set([0.1, 0, 0.1], eid * 3);
        engine.update(1 / 30);
        expect(fog.moves).toBe(1);
        // within the cell [0, 1) x [0, 1): nothing to do
        for (const x of [0.3, 0.6, 0.99]) {
            em.set_position(eid, x, 0, 0.1);
            engine.update(1 / 30);
            expect(fog.moves, `x = ${x}`).toBe(0);
        }
        em.set_position(eid, 1.01, 0, 0.1);
        engine.update(1 / 30);
        expect(fog.moves).toBe(1);
        expect(fog.is_visible(0, 3, 0.5)).toBe(true);
        expect(fog.cell_state(0, -1.5, 0.5)).toBe(FogCellState.Explored);
        // a changed radius or team applies again
        FogRevealer.team[eid] = 1;
        engine.update(1 / 30);
        expect(fog.moves).toBe(1);
        expect(fog.is_visible(1, 1.5, 0.5)).toBe(true);
        expect(fog.is_visible(0, 1.5, 0.5)).toBe(false);
        // a team written by code past the system's count: the system is reported (naming the entity) and suspended
        FogRevealer.team[eid] = 9;
        engine.update(1 / 30);
        expect(errors.length).toBe(1);
        expect(errors[0].message).toMatch(/^System 'FogOfWarSystem' failed in update: FogOfWarSystem: entity \d+ has FogRevealer\.team 9, but the system tracks teams 0\.\.3/);
        expect(engine.is_suspended(fog)).toBe(true);
        await engine.shutdown();
    });
});

describe("FogGrid.move (device-independent)", () => {
    it("leaves the same counts as conceal + reveal, for steps in every direction, near edges and far apart", () => {
        const a = grid_of();
        const b = grid_of();
        const steps = [[1, 0], [0, 1], [-1, -1], [2, -3], [0, 0], [-7, 5], [13, 13], [-20, 0]];
        for (const radius of [0, 1, 2.5, 4]) {
            let i = 3;
            let j = 14;
            a.reveal(0, i, j, radius);
            b.reveal(0, i, j, radius);
            for (const [di, dj] of steps) {
                a.move(0, i, j, i + di, j + dj, radius);
                b.conceal(0, i, j, radius);
                b.reveal(0, i + di, j + dj, radius);
                i += di;
                j += dj;
                expect(Array.from(a.counts[0]), `radius ${radius} step ${di},${dj}`).toEqual(Array.from(b.counts[0]));
                expect(Array.from(a.explored[0])).toEqual(Array.from(b.explored[0]));
            }
            a.conceal(0, i, j, radius);
            expect(a.counts[0].every((c) => c === 0)).toBe(true);
            b.conceal(0, i, j, radius);
        }
    });
});

describe("misuse is refused with the culprit named (no GPU)", () => {
    it("FogOfWarSystem options", () => {
        const engine = new Engine();
        expect(() => new FogOfWarSystem(engine.graphics, { grid: [0, 16] })).toThrow(/grid size must be whole cells/);
        expect(() => new FogOfWarSystem(engine.graphics, { bounds: [0, 0, -1, 1] })).toThrow(/bounds must be finite/);
        expect(() => new FogOfWarSystem(engine.graphics, { teams: 2, view_team: 3 })).toThrow(/view_team must be a team in \[0, 1\]/);
        expect(() => new FogOfWarSystem(engine.graphics, { fade_time: -1 })).toThrow(/fade_time/);
        expect(() => new FogOfWarSystem(engine.graphics, { hidden_brightness: 0.5, explored_brightness: 0.4 })).toThrow(/hidden_brightness < explored_brightness/);
        expect(() => new FogOfWarSystem(engine.graphics, { blur: 20 })).toThrow(/blur must be 0\.\.8 cells/);
    });

    it("changing the shown team fades every cell to that team's view", () => {
        const grid = grid_of();
        grid.reveal(1, 2, 2, 0);
        grid.step(0);
        expect(grid.level[2 * 16 + 2]).toBe(0);
        grid.view_team = 1;
        grid.step(0);
        expect(grid.level[2 * 16 + 2]).toBe(1);
        expect(() => (grid.view_team = 5)).toThrow(/FogGrid\.view_team: must be a team in \[0, 1\], got 5/);
    });

    it("HighlightSystem.set_mesh and pick", async () => {
        const engine = new Engine();
        const highlight = new HighlightSystem(engine.graphics);
        expect(() => highlight.set_mesh(0, null)).toThrow(/HighlightSystem\.set_mesh: start the system up first/);
        await engine.add_system(highlight);
        expect(() => highlight.set_mesh(123, null)).toThrow(/HighlightSystem\.set_mesh: entity 123 does not exist/);
        await expect(highlight.pick(1.5, 2)).rejects.toThrow(/HighlightExtension\.pick: \(x, y\) must be whole pixels, got \(1\.5, 2\)/);
        // a pick pending at shutdown resolves null rather than hang
        const pending = highlight.pick(1, 1);
        await engine.remove_system(highlight);
        expect(await pending).toBe(null);
    });
});
