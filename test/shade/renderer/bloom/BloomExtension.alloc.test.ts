// Allocation per steady frame with the bloom registered (method: test/harness/allocation.ts, rounds until steady),
// on a FAKE device (device-independent: every object it hands out is made once; Dawn's JS wrappers allocate per
// encoder whatever our code does), on both paths: raster, and compute (the path GPUs take). A change of the
// settings (written into the uniform block only when they change) is in the frame.
import { describe, expect, it } from "vitest";
import { BloomExtension } from "../../../../shade/renderer/bloom/BloomExtension.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { steady_bytes_per_frame } from "../../../harness/allocation.js";
import { fake_gpu_device } from "../fake_gpu_device.js";

const BOUND = 8; // below the smallest JS object

describe("BloomExtension: allocation per steady frame", () => {
    for (const path of ["raster", "compute"] as const) {
        it(`FAKE device (device-independent), ${path} path: a frame with a 6-level bloom whose intensity changes every frame allocates nothing`, async () => {
            const { device, stats } = fake_gpu_device();
            const renderer = new Renderer({ device, target: new TextureRenderTarget(128, 96), fullscreen_paths: path });
            const bloom = renderer.add_extension(new BloomExtension({ levels: 6 }));
            let t = 0;
            const frame = (): void => {
                bloom.intensity = (t++ & 1) === 0 ? 0.04 : 0.05;
                renderer.render_frame();
            };
            for (let i = 0; i < 100; i++) frame();
            const passes = stats.render_passes + stats.compute_passes;
            const compute_passes = stats.compute_passes;
            renderer.render_frame();
            const with_bloom = stats.render_passes + stats.compute_passes - passes;
            bloom.intensity = 0;
            const without = stats.render_passes + stats.compute_passes;
            renderer.render_frame();
            expect(with_bloom - (stats.render_passes + stats.compute_passes - without), "the bloom's passes: 6 down, 5 up, 1 composite").toBe(12);
            if (path === "compute") expect(stats.compute_passes - compute_passes, "the bloom ran as compute passes").toBeGreaterThanOrEqual(12);
            for (let i = 0; i < 3000; i++) frame();
            const textures = stats.textures;
            const bind_groups = stats.bind_groups;
            const reading = await steady_bytes_per_frame([frame], { window: 1000, accept: ([m]) => m < BOUND });
            console.log(`[alloc] FAKE device, bloom (6 levels, ${path}): ${reading.medians[0].toFixed(1)} young bytes/frame; rounds ${reading.rounds}`);
            expect(stats.textures, "textures created in steady state").toBe(textures);
            expect(stats.bind_groups, "bind groups created in steady state").toBe(bind_groups);
            expect(reading.medians[0], "young bytes per steady frame").toBeLessThan(BOUND);
            bloom.destroy();
            renderer.destroy();
        });
    }
});
