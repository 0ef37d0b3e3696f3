// GPU time per built-in step through timestamp-query (Dawn on SwiftShader offers the feature).
import { describe, expect, it } from "vitest";
import { GPUPassTimer } from "../../../shade/device/graph/GPUPassTimer.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Renderer } from "../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { with_gpu_device } from "../../harness/index.js";

describe("GPU timing", () => {
    it("times each built-in step when the device has timestamp-query", async () => {
        await with_gpu_device(
            async (device) => {
                expect(device.features.has("timestamp-query")).toBe(true);
                const scene = new Scene();
                scene.add(new Mesh(make_box_geometry(), new StandardMaterial()));
                const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 64), scene });
                expect(renderer.timer).not.toBeNull();
                // the timer reads its numbers back in batches of GPUPassTimer.FRAMES_PER_READ frames
                for (let i = 0; i < GPUPassTimer.FRAMES_PER_READ; i++) {
                    renderer.render_frame();
                    await device.queue.onSubmittedWorkDone();
                }
                // read-backs resolve a little after the GPU is done: poll rather than guess a delay
                const timer = renderer.timer!;
                for (let waited = 0; timer.timing_count === 0 && waited < 5000; waited += 10) {
                    await new Promise((resolve) => setTimeout(resolve, 10));
                }
                const names = timer.timings.slice(0, timer.timing_count).map((t) => t.name);
                expect(names).toEqual(["gbuffer cull", "gbuffer", "lighting", "taa resolve", "tonemap + taa sharpen"]);
                for (const t of timer.timings.slice(0, timer.timing_count)) {
                    expect(t.ms).toBeGreaterThanOrEqual(0);
                    expect(t.ms).toBeLessThan(1000);
                }
                renderer.destroy();
            },
            { features: ["timestamp-query"] },
        );
    });

    it("a device without the feature renders untimed", async () => {
        await with_gpu_device(async (device) => {
            const renderer = new Renderer({ device, target: new TextureRenderTarget(32, 32) });
            expect(renderer.timer).toBeNull();
            renderer.render_frame();
            renderer.destroy();
        });
    });
});
