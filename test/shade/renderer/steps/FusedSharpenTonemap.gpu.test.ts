// Fused full-screen steps on Dawn (issue 23: "adjacent full-screen steps with nothing registered between them are
// fused where that saves a pass"): with the built-in TAA and no BeforePresent extension, the TAA sharpen is done by
// the tonemap as it reads, one pass ("tonemap + taa sharpen") where there were two, drawing the same picture; an
// extension at BeforePresent keeps them apart (it must see the sharpened colour).
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import type { FullscreenPath } from "../../../../shade/renderer/fullscreen/FullscreenPath.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 64;

function scene(): Scene {
    const s = new Scene();
    const box = make_box_geometry(1, 1, 1);
    const ball = make_sphere_geometry(0.5, 16, 8);
    const colours: [number, number, number, number][] = [
        [0.9, 0.2, 0.1, 1],
        [0.1, 0.7, 0.2, 1],
        [0.9, 0.9, 0.9, 1],
    ];
    for (let i = 0; i < 6; i++) {
        const mesh = s.add(new Mesh(i % 2 === 0 ? box : ball, new StandardMaterial({ base_color: colours[i % 3] })));
        mesh.position.set([(i - 2.5) * 0.9, (i % 3) * 0.4 - 0.4, -i * 0.3]);
    }
    return s;
}

/** A BeforePresent extension that records nothing: its presence is what counts. */
class BeforePresentProbe extends RenderExtension {
    name = "before present probe";
    phase = FramePhase.BeforePresent;
    record(_frame: FrameContext): void {}
}

async function sequence(device: GPUDevice, fuse: boolean, paths: FullscreenPath, extension: boolean): Promise<{ picture: TextureReadback; passes: string[] }> {
    const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene: scene(), fullscreen_paths: paths });
    renderer.fuse_fullscreen_steps = fuse;
    renderer.capture_pass_list = true;
    if (extension) renderer.add_extension(new BeforePresentProbe());
    const camera = renderer.view.camera;
    // a slow pan: the history is reprojected every frame, the sharpen has edges to work on
    for (let i = 0; i < 12; i++) {
        camera.position.set([0.05 * i, 0.6, 4]);
        camera.target.set([0.05 * i, 0, 0]);
        renderer.render_frame();
    }
    const picture = await read_texture(device, renderer.target.acquire());
    const passes = renderer.last_frame_passes.filter((p) => !p.culled).map((p) => p.name);
    renderer.destroy();
    return { picture, passes };
}

function max_difference(a: TextureReadback, b: TextureReadback): number {
    let worst = 0;
    for (let i = 0; i < a.data.length; i++) worst = Math.max(worst, Math.abs(a.data[i] - b.data[i]));
    return worst;
}

describe("fused TAA sharpen and tonemap on Dawn", () => {
    for (const paths of ["raster", "compute"] as const) {
        it(`${paths}: one pass where there were two, the same picture`, async () => {
            await with_gpu_device(async (device) => {
                const fused = await sequence(device, true, paths, false);
                const apart = await sequence(device, false, paths, false);
                write_readback_png(fused.picture, `fused_sharpen_tonemap_${paths}`);
                expect(fused.passes).toContain("tonemap + taa sharpen");
                expect(fused.passes).not.toContain("taa sharpen");
                expect(fused.passes).not.toContain("tonemap");
                expect(apart.passes).toContain("taa sharpen");
                expect(apart.passes).toContain("tonemap");
                expect(fused.passes.length).toBe(apart.passes.length - 1);
                expect(max_difference(fused.picture, apart.picture), "fused against two passes").toBeLessThanOrEqual(1);
            });
        });
    }

    it("an extension at BeforePresent keeps them apart", async () => {
        await with_gpu_device(async (device) => {
            const { passes } = await sequence(device, true, "raster", true);
            expect(passes).toContain("taa sharpen");
            expect(passes).toContain("tonemap");
            expect(passes).not.toContain("tonemap + taa sharpen");
        });
    });
});
