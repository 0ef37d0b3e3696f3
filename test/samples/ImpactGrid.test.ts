// The skirmish's impact search (device-independent logic, no GPU): the grid answers the pair a scan of blue, then
// red, in list order answers, for random armies of every size, and sees pairs across cell borders.
import { describe, expect, it } from "vitest";
import { ImpactGrid } from "../../samples/skirmish/ImpactGrid.js";

function scan(entities: number[], team: Uint8Array, p: Float32Array, reach2: number): [number, number] {
    for (const a of entities) {
        if (team[a] !== 0) continue;
        for (const b of entities) {
            if (team[b] !== 1) continue;
            const dx = p[a * 3] - p[b * 3];
            const dz = p[a * 3 + 2] - p[b * 3 + 2];
            if (dx * dx + dz * dz <= reach2) return [a, b];
        }
    }
    return [-1, -1];
}

function random(seed: number): () => number {
    let s = seed >>> 0;
    return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

describe("ImpactGrid", () => {
    it("finds the pair the blue-then-red scan finds, for armies of 0 to 3,000 units spread thin and packed", () => {
        const grid = new ImpactGrid();
        let found = 0;
        for (let seed = 1; seed <= 300; seed++) {
            const rng = random(seed);
            const n = Math.floor(rng() * (seed % 10 === 0 ? 3000 : 120));
            const spread = 2 + rng() * 60;
            const team = new Uint8Array(n + 8);
            const p = new Float32Array((n + 8) * 3);
            // entity ids out of order, as a query holds them
            const entities = Array.from({ length: n }, (_, i) => (i * 7 + 3) % (n + 8));
            for (const e of entities) {
                team[e] = rng() < 0.5 ? 0 : rng() < 0.9 ? 1 : 2;
                p[e * 3] = (rng() - 0.5) * spread;
                p[e * 3 + 1] = rng();
                p[e * 3 + 2] = (rng() - 0.5) * spread;
            }
            const [blue, red] = scan(entities, team, p, 0.8);
            expect(grid.find(entities, team, p, 0.8), `seed ${seed}`).toBe(blue >= 0);
            expect([grid.blue, grid.red], `seed ${seed}, ${n} units over ${spread.toFixed(1)}`).toEqual([blue, red]);
            if (blue >= 0) found++;
        }
        expect(found, "some armies meet, some do not").toBeGreaterThan(30);
        expect(found).toBeLessThan(290);
    });

    it("sees a pair just within reach across a cell border, and not one just beyond", () => {
        const grid = new ImpactGrid();
        const team = Uint8Array.from([0, 1, 1]);
        // the red units set the cells: cell edges at -5 + k * sqrt(0.8)
        const p = Float32Array.from([0, 0, 0, 0.89, 0, 0, -5, 0, -5]);
        expect(grid.find([0, 1, 2], team, p, 0.8)).toBe(true);
        expect([grid.blue, grid.red]).toEqual([0, 1]);
        p[3] = 0.9;
        expect(grid.find([0, 1, 2], team, p, 0.8)).toBe(false);
        expect([grid.blue, grid.red]).toEqual([-1, -1]);
    });
});
