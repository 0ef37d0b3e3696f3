// Allocation per steady frame with GTAO registered (its two passes and the lighting's ambient occlusion variant) (method: test/shade/renderer/Renderer.alloc.test.ts).
// Zero allocation is asserted on a FAKE device (device-independent: every object it returns is made once), so
// that Dawn's JS wrappers, which allocate per encoder and pass whatever our code does, are out of the count. A
// positive control (one small object per frame from a mutated copy of the frame) shows the method sees it.
import { describe, expect, it } from "vitest";
import { observed_bytes_per_frame } from "../../../harness/allocation.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { GTAOExtension } from "../../../../shade/renderer/ao/GTAOExtension.js";
import type { FullscreenPath } from "../../../../shade/renderer/fullscreen/FullscreenPath.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { fake_gpu_device } from "../fake_gpu_device.js";

function scene(): Scene {
    const s = new Scene();
    const grey = new StandardMaterial({ base_color: [0.7, 0.7, 0.7, 1] });
    s.add(new Mesh(make_plane_geometry(12, 12), grey));
    for (let i = 0; i < 4; i++) s.add(new Mesh(make_box_geometry(), new StandardMaterial({ base_color: [1, 0, 0, 1] }))).position.set([i, 0.5, 0]);
    return s;
}

describe("GTAOExtension allocation per steady frame", () => {
    for (const path of ["raster", "compute"] as FullscreenPath[]) {
        it(`FAKE device (device-independent): a frame with GTAO on its ${path} path allocates nothing once warm; the method sees one object per frame`, async () => {
            const { device, stats } = fake_gpu_device();
            const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 64), scene: scene() });
            const gtao = renderer.add_extension(new GTAOExtension({ path }));
            let kept: { frame: number } | null = null;
            let allocate = false;
            let n = 0;
            const frame = () => {
                renderer.render_frame();
                if (allocate) kept = { frame: n++ };
            };
            for (let i = 0; i < 5000; i++) frame();
            const textures = stats.textures;
            const passes = stats.render_passes + stats.compute_passes;
            const compute_passes = stats.compute_passes;
            frame();
            expect(stats.render_passes + stats.compute_passes - passes, "passes per frame, GTAO's two among them").toBeGreaterThanOrEqual(7);
            if (path === "compute") expect(stats.compute_passes - compute_passes, "GTAO's two passes ran as compute").toBeGreaterThanOrEqual(2);
            const windows: number[] = [];
            for (let i = 0; i < 3; i++) windows.push((await observed_bytes_per_frame(frame, 1000)).bytes);
            windows.sort((a, b) => a - b);
            allocate = true;
            for (let i = 0; i < 200; i++) frame();
            const control = (await observed_bytes_per_frame(frame, 1000)).bytes;
            console.log(`[alloc] FAKE device, GTAO (${path}): ${windows[1].toFixed(1)} young bytes/frame; positive control ${control.toFixed(1)}`);
            expect(kept).not.toBeNull();
            expect(stats.textures, "textures created in steady state").toBe(textures);
            expect(windows[1], "young bytes per steady frame").toBeLessThan(8);
            expect(control, "the positive control allocates a { frame } per frame").toBeGreaterThanOrEqual(24);
            gtao.destroy();
            renderer.destroy();
        });
    }
});
