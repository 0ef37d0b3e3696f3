// A mesh pass's pipeline is rebuilt only when its key changes (PlayCanvas buildKey), on Dawn through a counting
// proxy of the real device: warm frames create no pipeline; a scene colour of another format builds once and
// switching back builds nothing; a blend change builds once; a new device builds again and still draws.
import { describe, expect, it } from "vitest";
import { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { make_outline_pass } from "../../../../shade/renderer/mesh_pass/make_outline_pass.js";
import { MeshPassExtension } from "../../../../shade/renderer/mesh_pass/MeshPassExtension.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { Engine } from "../../../../engine/Engine.js";
import { get_gpu, pixel_at, read_texture, with_gpu_device, type TextureReadback } from "../../../harness/index.js";
import { counting_device } from "../pipeline/counting_device.js";

const W = 64;
const H = 48;

/** Replaces the scene colour with an rgba8unorm copy before the mesh passes, while `on`: another target format. */
class EightBitSceneColor extends RenderExtension {
    name = "eight bit scene colour";
    phase = FramePhase.AfterTransparency;
    before = [MeshPassExtension];
    on = false;
    readonly #copy = new FullscreenEffect({ label: "eight bit scene colour", inputs: 1, format: "rgba8unorm", fragment: "fn effect(uv: vec2f) -> vec4f { return load_input_0(vec2i(frag_coord)); }" });
    record(frame: FrameContext): void {
        if (!this.on) return;
        const scene = frame.get(SceneColor);
        const shape = frame.describe(scene.color);
        const target = frame.graph.create("eight bit scene colour", TextureResourceDescriptor.of(shape.width, shape.height, "rgba8unorm", shape.usage));
        scene.color = this.#copy.graph_draw(frame.graph, target, scene.color);
    }
}

function sphere_scene(): { scene: Scene; sphere: Mesh } {
    const scene = new Scene();
    const sphere = scene.add(new Mesh(make_sphere_geometry(0.8, 24, 12), new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] })));
    return { scene, sphere };
}

function renderer_for(device: GPUDevice, scene: Scene): Renderer {
    const renderer = new Renderer({ device, target: new TextureRenderTarget(W, H), scene, feature_taa_enabled: false });
    renderer.view.camera.position.set([0, 0, 4]);
    renderer.view.camera.fov_y = Math.PI / 4;
    return renderer;
}

function green_pixels(image: TextureReadback): number {
    let n = 0;
    for (let y = 0; y < image.height; y++) {
        for (let x = 0; x < image.width; x++) {
            const [r, g, b] = pixel_at(image, x, y);
            if (g > 150 && r < 60 && b < 60) n++;
        }
    }
    return n;
}

describe("MeshPassExtension pipelines by key, on Dawn through a counting proxy of the device", () => {
    it("warm frames create no pipeline; another colour format builds once, back again builds nothing; a blend change builds once", async () => {
        await with_gpu_device(async (real) => {
            const { device, counts } = counting_device(real);
            const { scene, sphere } = sphere_scene();
            const renderer = renderer_for(device, scene);
            const eight_bit = renderer.add_extension(new EightBitSceneColor());
            const outline = renderer.add_extension(make_outline_pass({ color: [0, 4, 0, 1], width: 0.1 }));
            outline.add(sphere);
            renderer.render_frame();
            expect(outline.pipelines.builds).toBe(1);
            expect(outline.key.value).toContain("rgba16float");
            const warm = counts.render_pipelines;
            for (let i = 0; i < 5; i++) renderer.render_frame();
            expect(counts.render_pipelines - warm, "warm frames: no createRenderPipeline").toBe(0);
            expect(outline.pipelines.builds).toBe(1);

            eight_bit.on = true;
            renderer.render_frame();
            expect(outline.key.value).toContain("rgba8unorm");
            expect(outline.pipelines.builds, "rgba8unorm scene colour: the outline's pipeline is built once").toBe(2);
            // the copy's own pipeline and the outline's new one
            expect(counts.render_pipelines - warm).toBe(2);
            for (let i = 0; i < 3; i++) renderer.render_frame();
            expect(counts.render_pipelines - warm, "then no more").toBe(2);
            const eight = await read_texture(real, (renderer.target as TextureRenderTarget).acquire());
            expect(green_pixels(eight), "the rebuilt pipeline draws the outline into the rgba8unorm target").toBeGreaterThan(30);

            eight_bit.on = false;
            for (let i = 0; i < 3; i++) renderer.render_frame();
            expect(outline.pipelines.builds, "back to rgba16float: the first pipeline, from the cache").toBe(2);
            expect(counts.render_pipelines - warm).toBe(2);

            outline.blend = "alpha";
            for (let i = 0; i < 3; i++) renderer.render_frame();
            expect(outline.pipelines.builds, "a blend change builds once").toBe(3);
            expect(counts.render_pipelines - warm).toBe(3);
            renderer.destroy();
        });
    });

    it("registered through GraphicsEngine, the outline draws again after stop() -> start() (a new device), its pipeline rebuilt once", async () => {
        const target = new TextureRenderTarget(W, H);
        const errors: Error[] = [];
        const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e: Error) => errors.push(e) } });
        const graphics = engine.graphics;
        graphics.feature_taa_enabled = false;
        const sphere = graphics.scene.add(new Mesh(make_sphere_geometry(0.8, 24, 12), new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] })));
        graphics.view.camera.position.set([0, 0, 4]);
        graphics.view.camera.fov_y = Math.PI / 4;
        const outline = make_outline_pass({ color: [0, 4, 0, 1], width: 0.1 });
        outline.add(sphere);
        graphics.add_extension(outline);
        for (let round = 1; round <= 2; round++) {
            await graphics.start();
            graphics.render();
            graphics.render();
            const image = await read_texture(graphics.device!, target.acquire());
            expect(green_pixels(image), `start ${round}: outline drawn`).toBeGreaterThan(30);
            expect(outline.pipelines.builds, `start ${round}`).toBe(round);
            await graphics.stop();
        }
        expect(errors).toEqual([]);
        outline.destroy();
    });

    it("on a new device the pipeline is built again and the outline still draws", async () => {
        const { scene, sphere } = sphere_scene();
        const outline = make_outline_pass({ color: [0, 4, 0, 1], width: 0.1 });
        outline.add(sphere);
        for (let round = 1; round <= 2; round++) {
            await with_gpu_device(async (device) => {
                const renderer = renderer_for(device, scene);
                renderer.add_extension(outline);
                renderer.render_frame();
                renderer.render_frame();
                expect(outline.pipelines.builds, `device ${round}`).toBe(round);
                const image = await read_texture(device, (renderer.target as TextureRenderTarget).acquire());
                expect(green_pixels(image), `device ${round}: outline drawn`).toBeGreaterThan(30);
                renderer.destroy();
            });
        }
        outline.destroy();
    });
});
