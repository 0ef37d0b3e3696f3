// Dynamic resolution on Dawn: a resolution_scale that changes every frame renders at the scale rounded to 1/64
// steps, so the transient pool reuses a small set of texture sizes instead of making new ones every frame.
import { describe, expect, it } from "vitest";
import { TransientTexturePool } from "../../../../shade/device/graph/TransientTexturePool.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { internal_extent, RESOLUTION_SCALE_STEP } from "../../../../shade/renderer/upscale/internal_extent.js";
import { with_gpu_device } from "../../../harness/index.js";

/** Notes the internal resolution each frame is recorded at. */
class ResolutionProbe extends RenderExtension {
    phase = FramePhase.AfterLighting;
    name = "resolution probe";
    readonly seen: string[] = [];
    record(frame: FrameContext): void {
        this.seen.push(`${frame.resolution[0]}x${frame.resolution[1]}`);
    }
}

describe("dynamic resolution", () => {
    it("internal_extent rounds the scale to 1/64 steps", () => {
        expect(RESOLUTION_SCALE_STEP).toBe(1 / 64);
        expect(internal_extent(1920, 0.75)).toBe(1440);
        expect(internal_extent(1920, 0.8)).toBe(1530); // 51/64
        expect(internal_extent(1920, 0.801)).toBe(1530);
        expect(internal_extent(64, 0.001)).toBe(1);
        expect(internal_extent(1, 0.5)).toBe(1);
    });

    it("a scale that changes every frame renders at its 1/64 step and keeps the pool to the steps in use", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const W = 128;
            const H = 96;
            const scene = new Scene();
            scene.add(new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial({ base_color: [0.8, 0.3, 0.2, 1] })));
            const renderer = new Renderer({ device, target: new TextureRenderTarget(W, H), scene, on_error: (e) => errors.push(e) });
            const probe = new ResolutionProbe();
            renderer.registry.add(probe);
            renderer.view.camera.position.set([0, 1, 4]);
            // a controller's ramp: a new scale every frame, 0.7 to 0.8 and back, never the same value twice
            const scales: number[] = [];
            for (let i = 0; i < 120; i++) scales.push(0.7 + 0.1 * Math.abs(Math.sin(i * 0.05)) + i * 1e-6);
            let most_shapes = 0;
            let first_frame_textures = 0;
            for (const scale of scales) {
                renderer.resolution_scale = scale;
                renderer.render_frame();
                if (first_frame_textures === 0) first_frame_textures = renderer.graph.pool.created_count;
                most_shapes = Math.max(most_shapes, renderer.graph.pool.shape_count);
            }
            await device.queue.onSubmittedWorkDone();
            expect(errors).toEqual([]);
            // each frame at its rounded size
            expect(probe.seen).toEqual(scales.map((s) => `${internal_extent(W, s)}x${internal_extent(H, s)}`));
            const distinct = new Set(probe.seen).size;
            expect(distinct).toBeLessThanOrEqual(8); // 0.7..0.8 spans 7 steps of 1/64
            // textures are made when the step changes, not every frame
            let changes = 0;
            for (let i = 1; i < probe.seen.length; i++) if (probe.seen[i] !== probe.seen[i - 1]) changes++;
            expect(changes).toBeLessThanOrEqual(30); // width and height cross their steps at different scales
            expect(renderer.graph.pool.created_count).toBeLessThanOrEqual(first_frame_textures * (changes + 1));
            // the pool holds the last few steps' shapes at most
            expect(most_shapes).toBeLessThanOrEqual(renderer.graph.pool.shape_count * (TransientTexturePool.EVICT_AFTER_FRAMES + 1));
            renderer.destroy();
        });
    });
});
