// GPU time per extension (the sum of its passes' timestamps) on Dawn with timestamp-query: the shadow
// extension's pass and a GPUDynamicMeshRenderer extension's pass (the seed's MarkerExtension) are timed.
import { describe, expect, it } from "vitest";
import { GPUPassTimer } from "../../../shade/device/graph/GPUPassTimer.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Renderer } from "../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { ShadowExtension } from "../../../shade/renderer/shadows/ShadowExtension.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { with_gpu_device } from "../../harness/index.js";
import { MarkerExtension } from "../../seed/seed_code.js";

describe("GPU time per extension", () => {
    it("sums each extension's timed passes; dynamic-mesh passes are timed too", async () => {
        await with_gpu_device(
            async (device) => {
                const errors: Error[] = [];
                const scene = new Scene();
                scene.add(new Mesh(make_plane_geometry(8, 8), new StandardMaterial()));
                scene.add(new Mesh(make_box_geometry(), new StandardMaterial())).position.set([0, 0.5, 0]);
                const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 64), scene, on_error: (e) => errors.push(e) });
                renderer.view.camera.position.set([0, 5, 6]);
                const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256 }));
                const markers = renderer.add_extension(new MarkerExtension());
                markers.add(make_box_geometry(0.5, 0.5, 0.5), [1, 0, 0, 1]);
                expect(renderer.extension_timings()).toEqual([]); // nothing timed yet
                const timer = renderer.timer!;
                // the timer reads its numbers back in batches of GPUPassTimer.FRAMES_PER_READ frames
                for (let i = 0; i < GPUPassTimer.FRAMES_PER_READ; i++) {
                    renderer.render_frame();
                    await device.queue.onSubmittedWorkDone();
                }
                for (let waited = 0; timer.scope_timing_count < 2 && waited < 5000; waited += 10) {
                    await new Promise((resolve) => setTimeout(resolve, 10));
                }
                const timings = renderer.extension_timings();
                expect(timings.map((t) => t.name)).toEqual(["shadows", "markers"]);
                const passes = timer.timings.slice(0, timer.timing_count);
                for (const t of timings) {
                    const own = passes.filter((p) => p.scope === t.name);
                    expect(t.passes, `${t.name}'s timed passes`).toBe(own.length);
                    expect(t.passes).toBeGreaterThan(0);
                    expect(t.ms).toBeCloseTo(own.reduce((sum, p) => sum + p.ms, 0), 9);
                    expect(t.ms).toBeGreaterThanOrEqual(0);
                    expect(t.ms).toBeLessThan(1000);
                }
                expect(passes.find((p) => p.name === "shadows / cascades")?.scope).toBe("shadows");
                // built-in steps stay out of the per-extension list, and are not charged to any extension
                expect(passes.find((p) => p.name === "gbuffer")?.scope).toBeNull();
                expect(renderer.extension_ms(shadows)).toBe(timings[0].ms);
                expect(renderer.extension_ms("markers")).toBe(timings[1].ms);
                expect(renderer.extension_ms("absent")).toBe(0);
                expect(errors).toEqual([]);
                renderer.destroy();
            },
            { features: ["timestamp-query"] },
        );
    });

    it("gpu_timing: false leaves the renderer untimed on a device that has timestamp-query, and the frame unchanged", async () => {
        await with_gpu_device(
            async (device) => {
                expect(device.features.has("timestamp-query")).toBe(true);
                const scene = new Scene();
                scene.add(new Mesh(make_box_geometry(), new StandardMaterial()));
                const timed = new Renderer({ device, target: new TextureRenderTarget(32, 32), scene });
                const untimed = new Renderer({ device, target: new TextureRenderTarget(32, 32), scene, gpu_timing: false });
                expect(timed.timer).not.toBeNull();
                expect(untimed.timer).toBeNull();
                for (let i = 0; i < 3; i++) untimed.render_frame();
                await device.queue.onSubmittedWorkDone();
                expect(untimed.extension_timings()).toEqual([]);
                timed.destroy();
                untimed.destroy();
            },
            { features: ["timestamp-query"] },
        );
    });
});
