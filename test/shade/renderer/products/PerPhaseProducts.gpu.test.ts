// Per-phase products on Dawn: SceneColorCopy and HalfResolutionColor declared at AfterTransparency and at
// BeforePresent are made twice in one frame, each the scene colour of its own phase (internal size before the
// upscale, output size after); a BeforePresent extension that did not declare one cannot read the earlier one.
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { HalfResolutionColor } from "../../../../shade/renderer/products/HalfResolutionColor.js";
import { SceneColorCopy } from "../../../../shade/renderer/products/SceneColorCopy.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { with_gpu_device } from "../../../harness/index.js";
import { TextureProbe } from "./probe.js";

describe("per-phase frame products on Dawn", () => {
    it("declared at two phases, each phase gets its own; undeclared, a later phase cannot read an earlier one", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 48), resolution_scale: 0.5, on_error: (e) => errors.push(e) });
            renderer.capture_pass_list = true;
            const sizes: string[] = [];
            const size_of = (name: string) => (f: Parameters<TextureProbe["record"]>[0]) => {
                const copy = f.describe(f.get(SceneColorCopy).color);
                const half = f.describe(f.get(HalfResolutionColor).color);
                sizes.push(`${name} ${copy.width}x${copy.height} ${half.width}x${half.height}`);
                return f.get(SceneColorCopy).color; // copied out: the copy passes run
            };
            renderer.add_extension(new TextureProbe("internal", FramePhase.AfterTransparency, [SceneColorCopy, HalfResolutionColor], size_of("internal")));
            const output = renderer.add_extension(new TextureProbe("output", FramePhase.BeforePresent, [SceneColorCopy, HalfResolutionColor], size_of("output")));
            renderer.render_frame();
            expect(output.texture?.width).toBe(64);
            expect(sizes).toEqual(["internal 32x24 16x12", "output 64x48 32x24"]);
            expect(renderer.last_frame_passes.filter((p) => p.name === "scene colour copy")).toHaveLength(2);

            renderer.remove_extension(output);
            let message = "";
            renderer.add_extension(
                new TextureProbe("undeclared", FramePhase.BeforePresent, [], (f) => {
                    try {
                        void f.get(SceneColorCopy).color;
                    } catch (error) {
                        message = (error as Error).message;
                    }
                    return null;
                }),
            );
            renderer.render_frame();
            expect(message).toBe(
                "SceneColorCopy.color read at BeforePresent, but this frame made it for AfterTransparency (it is made per phase): declare requires = [SceneColorCopy] on an extension of BeforePresent",
            );
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });
});
