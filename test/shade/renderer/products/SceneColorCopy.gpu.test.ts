// The SceneColorCopy frame product on Dawn: made only where an extension declares it, readable while the scene
// colour is written (an inverting effect over the copy), absent and costless otherwise, misdeclarations named.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { SceneColorCopy } from "../../../../shade/renderer/products/SceneColorCopy.js";
import type { FrameProductClass } from "../../../../shade/renderer/products/FrameProduct.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { SCENE_COLOR_FORMAT } from "../../../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png } from "../../../harness/index.js";

const SIZE = 32;

/** Writes 0.5 - copy into the scene colour (clamped): only possible with a copy, since a pass cannot sample what it writes. */
class InvertOverCopy extends RenderExtension {
    override name = "invert over copy";
    override phase = FramePhase.AfterTransparency;
    override requires = [SceneColorCopy];
    readonly #effect = new FullscreenEffect({
        label: "invert over copy",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f { return vec4f(max(vec3f(0.5) - load_input_0(vec2i(frag_coord)).rgb, vec3f(0.0)), 1.0); }`,
    });
    override record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, frame.get(SceneColorCopy).color);
    }
}

/** Declares nothing and looks for the copy. */
class Looker extends RenderExtension {
    override name = "looker";
    override phase = FramePhase.AfterLighting;
    had = false;
    message = "";
    override record(frame: FrameContext): void {
        this.had = frame.has(SceneColorCopy);
        try {
            frame.get(SceneColorCopy);
        } catch (error) {
            this.message = (error as Error).message;
        }
    }
}

function sphere(): Scene {
    const scene = new Scene();
    scene.add(new Mesh(make_sphere_geometry(1.5, 16, 12), new StandardMaterial({ base_color: [0.9, 0.3, 0.1, 1] })));
    return scene;
}

describe("SceneColorCopy frame product on Dawn", () => {
    it("is made where declared, read while the scene colour is written; without a declaration there is no copy pass", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene: sphere(), feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.capture_pass_list = true;
            const looker = renderer.add_extension(new Looker());
            renderer.render_frame();
            const plain = await read_texture(device, target.acquire());
            expect(renderer.last_frame_passes.map((p) => p.name)).not.toContain("scene colour copy");
            expect(looker.had).toBe(false);
            expect(looker.message).toContain("nothing created a SceneColorCopy this frame");

            const invert = renderer.add_extension(new InvertOverCopy());
            renderer.render_frame();
            const inverted = await read_texture(device, target.acquire());
            write_readback_png(inverted, "scene_colour_copy_inverted");
            const copies = renderer.last_frame_passes.filter((p) => p.name === "scene colour copy");
            expect(copies, "one copy, at AfterTransparency only").toHaveLength(1);
            expect(looker.had, "not made at AfterLighting, where nobody declared it").toBe(false);
            // the dark sky inverts to bright; the red sphere (red over blue) inverts to blue over red
            const [sr, sg, sb] = pixel_at(plain, 1, 1);
            const [ir, ig, ib] = pixel_at(inverted, 1, 1);
            expect(ir + ig + ib).toBeGreaterThan(sr + sg + sb + 60);
            const [pr, , pb] = pixel_at(plain, SIZE / 2, SIZE / 2);
            const [vr, , vb] = pixel_at(inverted, SIZE / 2, SIZE / 2);
            expect(pr).toBeGreaterThan(pb + 60);
            expect(vb).toBeGreaterThan(vr + 20);

            renderer.remove_extension(invert);
            renderer.render_frame();
            expect(renderer.last_frame_passes.map((p) => p.name)).not.toContain("scene colour copy");
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("misdeclarations are refused at add_extension, naming the extension", async () => {
        await with_gpu_device(async (device) => {
            const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE) });
            class Early extends RenderExtension {
                override name = "early";
                override phase = FramePhase.FrameStart;
                override requires = [SceneColorCopy];
                override record(): void {}
            }
            expect(() => renderer.add_extension(new Early())).toThrow(
                "add_extension: render extension 'early' requires SceneColorCopy at FrameStart, but SceneColorCopy is made only at AfterLighting, AfterTransparency and BeforePresent",
            );
            class Wrong extends RenderExtension {
                override name = "wrong";
                override phase = FramePhase.AfterLighting;
                override requires = [SceneColor as unknown as FrameProductClass];
                override record(): void {}
            }
            expect(() => renderer.add_extension(new Wrong())).toThrow("requires[0] is SceneColor, which is not a FrameProduct class");
            expect(renderer.registry.all()).toEqual([]);
            renderer.destroy();
        });
    });
    it("a requires array reassigned after registration is checked at the next frame, naming the extension and the product", async () => {
        await with_gpu_device(async (device) => {
            const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE) });
            class Switch extends RenderExtension {
                override name = "switch";
                override phase = FramePhase.FrameStart;
                override record(): void {}
            }
            const extension = renderer.add_extension(new Switch());
            renderer.render_frame();
            extension.requires = [SceneColorCopy];
            let caught: unknown = null;
            try {
                renderer.render_frame();
            } catch (error) {
                caught = error;
            }
            expect(String(caught)).toContain("Render extension 'switch' failed to record at FrameStart");
            expect(String((caught as Error).cause)).toContain(
                "render extension 'switch' requires SceneColorCopy at FrameStart, but SceneColorCopy is made only at AfterLighting, AfterTransparency and BeforePresent",
            );
            // a valid array again: checked once, then frames go on
            extension.requires = [];
            expect(renderer.render_frame()).toBe(true);
            renderer.destroy();
        });
    });
});
