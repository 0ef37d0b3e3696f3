// RangeAllocator: first fit, coalescing, and the top coming down when the tail empties (no GPU).
import { describe, expect, it } from "vitest";
import { RangeAllocator } from "../../../../shade/renderer/dynamic/RangeAllocator.js";

describe("RangeAllocator", () => {
    it("allocates at the top, reuses freed ranges first-fit and coalesces neighbours", () => {
        const a = new RangeAllocator();
        const x = a.allocate(10);
        const y = a.allocate(20);
        const z = a.allocate(30);
        expect([x, y, z, a.top, a.live]).toEqual([0, 10, 30, 60, 60]);
        a.free(y, 20);
        expect(a.free_block_count).toBe(1);
        expect(a.allocate(5)).toBe(10); // first fit, inside the hole
        expect(a.allocate(15)).toBe(15); // fills it exactly
        expect(a.free_block_count).toBe(0);
        a.free(10, 5);
        a.free(0, 10); // joins the block after it
        a.free(15, 15); // joins the block before it: one block [0, 30)
        expect(a.free_block_count).toBe(1);
        expect(a.live).toBe(30);
        expect(a.allocate(31)).toBe(60); // too big for the hole
    });

    it("lowers the top when the highest range is freed, through coalesced blocks below it", () => {
        const a = new RangeAllocator();
        a.allocate(10);
        const b = a.allocate(10);
        const c = a.allocate(10);
        a.free(b, 10);
        expect(a.top).toBe(30);
        a.free(c, 10);
        expect(a.top).toBe(10);
        expect(a.free_block_count).toBe(0);
        a.reset(4);
        expect([a.top, a.live, a.free_block_count]).toEqual([4, 4, 0]);
    });

    it("catches a double free in debug builds", () => {
        const a = new RangeAllocator();
        a.allocate(10);
        a.allocate(10);
        a.free(0, 10);
        expect(() => a.free(0, 10)).toThrow(/overlaps a free block/);
    });

    it("keeps working past its initial free-list capacity", () => {
        const a = new RangeAllocator();
        const offsets: number[] = [];
        for (let i = 0; i < 100; i++) offsets.push(a.allocate(4));
        for (let i = 0; i < 100; i += 2) a.free(offsets[i], 4); // 50 separate holes
        expect(a.free_block_count).toBe(50);
        for (let i = 1; i < 99; i += 2) a.free(offsets[i], 4);
        expect(a.free_block_count).toBe(1);
        a.free(offsets[99], 4);
        expect(a.top).toBe(0);
        expect(a.live).toBe(0);
    });
});
