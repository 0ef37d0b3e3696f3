// ExtractExtension's contract with the seed, GPU-free (nothing records; the copy itself is tested on Dawn in
// DeferredRenderer.gpu.test.ts).
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ExtractExtension } from "../../../../shade/renderer/extract/ExtractExtension.js";

describe("ExtractExtension", () => {
    it("has no enabled flag: returning from record is the only off switch (the seed's rule)", () => {
        const extension = new ExtractExtension("grab", FramePhase.AfterTransparency, (frame) => frame.get(SceneColor).color);
        expect("enabled" in extension).toBe(false);
    });
});
