// Device-independent: the cache compares keys by identity and never touches the groups, so plain objects stand
// in for GPUBindGroup (named as such).
import { describe, expect, it } from "vitest";
import { BindGroupCache } from "../../../shade/device/BindGroupCache.js";

const group = (name: string) => ({ label: name }) as unknown as GPUBindGroup;

describe("BindGroupCache (stand-in groups)", () => {
    it("finds a group by its keys in order, by identity", () => {
        const cache = new BindGroupCache(4);
        const a = {};
        const b = {};
        const g = cache.add([a, b], group("ab"));
        expect(cache.find([a, b])).toBe(g);
        expect(cache.find([b, a])).toBeNull();
        expect(cache.find([a])).toBeNull();
    });

    it("when full, replaces the group unused the longest and keeps the ones in use", () => {
        const cache = new BindGroupCache(3);
        const live = {};
        const g_live = cache.add([live], group("live"));
        // a resize storm: a new view every frame beside the one in use every frame
        for (let frame = 0; frame < 50; frame++) {
            expect(cache.find([live])).toBe(g_live);
            const passing = {};
            if (cache.find([passing]) === null) cache.add([passing], group(`passing ${frame}`));
        }
        expect(cache.size).toBe(3);
        expect(cache.find([live])).toBe(g_live);
    });

    it("refuses a capacity that is not a whole number >= 1", () => {
        expect(() => new BindGroupCache(0)).toThrow("BindGroupCache: capacity must be a whole number >= 1, got 0");
    });
});
