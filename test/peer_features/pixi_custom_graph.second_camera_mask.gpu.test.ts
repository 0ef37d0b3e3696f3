// Worked example for @pixi/3d "Custom render graphs" (a `ForwardRenderPass` drawing the opaque meshes in white
// from a second `Camera3D` into a `RenderTexture`: a silhouette mask). Here: a MeshPassExtension with a camera
// and a target of its own, at FrameStart, draws the scene's opaque meshes in a flat white from that camera into
// a texture it owns across frames, imports it into each frame's graph (the write makes the pass a side effect)
// and publishes it in `MeshPassTargets`; an extension at AfterTransparency samples it (pixi's FullscreenPass
// cannot sample an imported texture; ours can). Without the mask extension nothing is recorded for it and the
// reader draws nothing. (This file used to carry its own ~80-line pipeline over GPUGeometryCache; the mesh pass
// does that now.)
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { make_sphere_geometry } from "../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { FLAT_WGSL } from "../../shade/renderer/mesh_pass/mesh_pass_wgsl.js";
import { MeshPassExtension } from "../../shade/renderer/mesh_pass/MeshPassExtension.js";
import { MeshPassTargets } from "../../shade/renderer/mesh_pass/MeshPassTargets.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { Camera } from "../../shade/renderer/scene/Camera.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { SCENE_COLOR_FORMAT } from "../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const SIZE = 64;
const MASK_SIZE = 32;
const MASK = "silhouette mask";

/** pixi's mask pass: the opaque meshes of the scene in white from `camera` (pixi's `maskCamera`) into an owned 32x32 texture. */
function silhouette_mask(): MeshPassExtension {
    const mask = new MeshPassExtension({
        name: MASK,
        shader: FLAT_WGSL,
        camera: new Camera(),
        target: { width: MASK_SIZE, height: MASK_SIZE, clear: { r: 0, g: 0, b: 0, a: 1 } },
        meshes: "scene",
        filter: (mesh) => mesh.material.transparency === "opaque",
    });
    mask.values.data.set([1, 1, 1, 1]);
    mask.camera!.position.set([1.5, 0, 5]); // further right, so the sphere sits in the left part of its picture
    mask.camera!.target.set([1.5, 0, 0]);
    return mask;
}

/** Tints the scene red where this frame's mask is white; draws nothing in a frame without a mask. */
class MaskTint extends RenderExtension {
    name = "mask tint";
    phase = FramePhase.AfterTransparency;
    frames_with_mask = 0;
    readonly #effect = new FullscreenEffect({
        label: "mask tint",
        inputs: 2,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let scene = load_input_0(vec2i(frag_coord));
            return vec4f(mix(scene.rgb, vec3f(4.0, 0.0, 0.0), sample_input_1(uv).r), 1.0);
        }`,
    });
    record(frame: FrameContext): void {
        if (!frame.has(MeshPassTargets) || !frame.get(MeshPassTargets).has(MASK)) return; // pixi's per-frame `condition`
        this.frames_with_mask++;
        const scene = frame.get(SceneColor);
        const output = frame.graph.create("mask tinted scene", frame.describe(scene.color));
        scene.color = this.#effect.graph_draw(frame.graph, output, scene.color, frame.get(MeshPassTargets).get(MASK));
    }
}

function scene_with_sphere(): Scene {
    const scene = new Scene();
    scene.add(new Mesh(make_sphere_geometry(1, 24, 16), new StandardMaterial({ base_color: [0.2, 0.6, 0.9, 1] })));
    return scene;
}

/** The x centre of the pixels whose channel `c` exceeds `threshold`, and how many there are. */
function centroid_x(image: TextureReadback, c: number, threshold: number, other_max = 255): { x: number; count: number } {
    let sum = 0;
    let count = 0;
    for (let y = 0; y < image.height; y++) {
        for (let x = 0; x < image.width; x++) {
            const p = pixel_at(image, x, y);
            if (p[c] > threshold && p[(c + 1) % 3] <= other_max && p[(c + 2) % 3] <= other_max) {
                sum += x;
                count++;
            }
        }
    }
    return { x: count === 0 ? NaN : sum / count / image.width, count };
}

describe("pixi custom graph: a second camera's silhouette mask", () => {
    it("a FrameStart mesh pass draws the mask from its own camera into a texture it owns; a later extension samples it", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene: scene_with_sphere(), feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.capture_pass_list = true;
            renderer.capture_graph_dump = true;
            const tint = renderer.add_extension(new MaskTint());

            // absent: nothing records a mask, the reader skips itself, the picture is the plain scene
            renderer.render_frame();
            const plain = await read_texture(device, target.acquire());
            expect(renderer.last_frame_passes.map((p) => p.name).filter((n) => n.includes("mask"))).toEqual([]);
            expect(tint.frames_with_mask).toBe(0);
            expect(centroid_x(plain, 0, 150, 60).count).toBe(0);

            const mask = renderer.add_extension(silhouette_mask());
            renderer.render_frame();
            const owned = mask.texture!;
            const mask_image = await read_texture(device, owned);
            write_readback_png(mask_image, "pixi_second_camera_mask");
            const white = centroid_x(mask_image, 0, 128);
            expect(white.count).toBeGreaterThan(40);
            expect(white.x, "the sphere is left of the mask's centre").toBeLessThan(0.4);
            expect(pixel_at(mask_image, MASK_SIZE - 2, MASK_SIZE / 2)[0]).toBe(0);

            const tinted = await read_texture(device, target.acquire());
            write_readback_png(tinted, "pixi_second_camera_mask_tinted");
            const red = centroid_x(tinted, 0, 150, 60);
            expect(red.count).toBeGreaterThan(100);
            expect(Math.abs(red.x - white.x), "the tint follows the mask, not the view's own sphere").toBeLessThan(0.06);
            // the view's sphere, right of the red, is drawn as the scene has it
            const [pr, pg, pb] = pixel_at(plain, 40, 32);
            expect(pixel_at(tinted, 40, 32).slice(0, 3)).toEqual([pr, pg, pb]);

            // owned across frames: the same texture every frame, imported (a double octagon in the dump), a side effect
            renderer.render_frame();
            expect(mask.texture).toBe(owned);
            expect(renderer.last_frame_dot).toMatch(/shape=doubleoctagon label="silhouette mask v1/);
            expect(tint.frames_with_mask).toBe(2);

            renderer.remove_extension(mask);
            renderer.render_frame();
            expect(renderer.last_frame_passes.map((p) => p.name).filter((n) => n.includes("mask"))).toEqual([]);
            expect(tint.frames_with_mask).toBe(2);
            mask.destroy();
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            r.add_extension(new MaskTint());
            r.add_extension(silhouette_mask());
        }, scene_with_sphere());
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
