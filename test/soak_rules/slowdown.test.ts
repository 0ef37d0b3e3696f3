// The soak's frame-time growth rule (device-independent arithmetic on made-up frame times).
import { describe, expect, it } from "vitest";
import { slowdown } from "../soak/soak_run.js";

function frames(n: number, at: (i: number) => number): Float64Array {
    return Float64Array.from({ length: n }, (_, i) => at(i));
}

describe("soak slowdown", () => {
    it("a leak that slows every frame of the last tenth by half reads 1.5x", () => {
        const values = frames(1000, (i) => (i >= 900 ? 1.5 : 1) + (i % 7) * 0.01);
        expect(slowdown(values, 0.05).ratio).toBeGreaterThan(1.45);
    });

    it("a steady growth over the run shows in the last tenth", () => {
        const values = frames(1000, (i) => 1 + i / 1000);
        expect(slowdown(values, 0.05).ratio).toBeGreaterThan(1.2);
    });

    it("a busy machine tripling 60% of the last tenth's frames is not a slowdown", () => {
        const values = frames(1000, (i) => (i >= 900 && i % 5 < 3 ? 3 : 1) + (i % 7) * 0.01);
        expect(slowdown(values, 0.05).ratio).toBeLessThan(1.2);
    });
});
