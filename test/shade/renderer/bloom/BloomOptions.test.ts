// The bloom's settings: the level count clamped to the size, and values out of range refused at the call.
import { describe, expect, it } from "vitest";
import { BloomExtension } from "../../../../shade/renderer/bloom/BloomExtension.js";
import { bloom_level_count, MAX_BLOOM_LEVELS } from "../../../../shade/renderer/bloom/bloom_level_count.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";

describe("bloom settings", () => {
    it("bloom_level_count keeps the smallest level at least one texel on its shorter side", () => {
        expect(bloom_level_count(1920, 1080, 6)).toBe(6);
        expect(bloom_level_count(64, 64, 6)).toBe(6); // 32 .. 1
        expect(bloom_level_count(64, 64, 7)).toBe(6);
        expect(bloom_level_count(40, 24, 12)).toBe(4); // 12, 6, 3, 1
        expect(bloom_level_count(97, 3, 6)).toBe(1);
        expect(bloom_level_count(1, 1, 6)).toBe(1);
        expect(bloom_level_count(65535, 65535, 99)).toBe(MAX_BLOOM_LEVELS);
    });

    it("defaults: intensity 0.04, radius 1 texel, 6 levels, path auto, at BeforePresent", () => {
        const bloom = new BloomExtension();
        expect([bloom.intensity, bloom.radius, bloom.levels, bloom.path, bloom.phase, bloom.name]).toEqual([0.04, 1, 6, "auto", FramePhase.BeforePresent, "bloom"]);
    });

    it("refuses settings out of range, naming the setting and the value", () => {
        expect(() => new BloomExtension({ intensity: 1.5 })).toThrow(/intensity must be in \[0, 1\], got 1.5/);
        expect(() => new BloomExtension({ intensity: Number.NaN })).toThrow(RangeError);
        expect(() => new BloomExtension({ radius: 0 })).toThrow(/radius must be in \(0, 8\] texels, got 0/);
        expect(() => new BloomExtension({ levels: 2.5 })).toThrow(/levels must be a whole number in \[1, 12\], got 2.5/);
        expect(() => new BloomExtension({ levels: 0 })).toThrow(RangeError);
        expect(() => new BloomExtension({ path: "fast" as never })).toThrow(/fullscreen path is 'auto', 'raster' or 'compute', got 'fast'/);
        const bloom = new BloomExtension();
        expect(() => (bloom.levels = 13)).toThrow(RangeError);
        expect(bloom.levels).toBe(6);
    });
});
