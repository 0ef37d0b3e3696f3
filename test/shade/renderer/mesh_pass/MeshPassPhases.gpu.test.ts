// Where a mesh pass may record: it needs the scene colour and the depth at one size. Overlay is refused when the
// extension is made; BeforePresent draws without an upscale and, after one, fails to record with both sizes named.
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { OUTLINE_WGSL } from "../../../../shade/renderer/mesh_pass/mesh_pass_wgsl.js";
import { MeshPassExtension } from "../../../../shade/renderer/mesh_pass/MeshPassExtension.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device } from "../../../harness/index.js";

function outline_at(phase: FramePhase): MeshPassExtension {
    const pass = new MeshPassExtension({ name: "late outline", shader: OUTLINE_WGSL, cull: "front", phase });
    pass.values.data.set([0, 4, 0, 1, 0.1]);
    return pass;
}

describe("MeshPassExtension phases", () => {
    it("refuses a phase without scene colour and depth, naming the phases that work", () => {
        expect(() => outline_at(FramePhase.Overlay)).toThrow(/phase Overlay carries no scene colour and depth; use AfterLighting, AfterTransparency or BeforePresent/);
        expect(() => outline_at(FramePhase.AfterGBuffer)).toThrow(/phase AfterGBuffer/);
    });

    it("on Dawn, at BeforePresent it draws when nothing upscaled, and after the TAA upscale it fails to record naming both sizes", async () => {
        await with_gpu_device(async (device) => {
            for (const taa of [false, true]) {
                const scene = new Scene();
                const sphere = scene.add(new Mesh(make_sphere_geometry(0.8), new StandardMaterial()));
                const target = new TextureRenderTarget(48, 32);
                const renderer = new Renderer({ device, target, scene, feature_taa_enabled: taa });
                renderer.view.camera.position.set([0, 0, 4]);
                const outline = renderer.add_extension(outline_at(FramePhase.BeforePresent));
                outline.add(sphere);
                if (!taa) {
                    renderer.render_frame();
                    const image = await read_texture(device, target.acquire());
                    let green = 0;
                    for (let y = 0; y < 32; y++) for (let x = 0; x < 48; x++) if (pixel_at(image, x, y)[1] > 150 && pixel_at(image, x, y)[0] < 60) green++;
                    expect(green).toBeGreaterThan(20);
                } else {
                    let error: unknown = null;
                    try {
                        renderer.render_frame();
                    } catch (e) {
                        error = e;
                    }
                    expect(String(error)).toMatch(/late outline.*BeforePresent/);
                    expect(String((error as Error).cause)).toMatch(/scene colour is 48x32 but the depth is 36x24 \(an upscale ran\)/);
                }
                renderer.destroy();
            }
        });
    });
});
