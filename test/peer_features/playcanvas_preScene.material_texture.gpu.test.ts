// Worked example for PlayCanvas's `preScene` stage ("rendering textures which the materials of the scene read":
// dynamic sky, lighting-type ambient occlusion). Here: an extension at FrameStart renders a texture it owns
// (imported, so the pass is a side effect) and hands it to a material as `base_color_texture`; the G-buffer,
// which opens after FrameStart, draws with this frame's content.
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { ExtractExtension } from "../../shade/renderer/extract/ExtractExtension.js";
import { make_plane_geometry } from "../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const SIZE = 48;
const COLOURS: GPUColorDict[] = [
    { r: 1, g: 0, b: 0, a: 1 },
    { r: 0, g: 0, b: 1, a: 1 },
];

/** Clears a texture it owns to this frame's colour and makes it `material`'s base colour texture. */
class DynamicMaterialTexture extends RenderExtension {
    name = "dynamic material texture";
    phase = FramePhase.FrameStart; // PlayCanvas preScene
    frame = 0;
    readonly #per_device = new WeakMap<GPUDevice, GPUTexture>();
    #handle: FrameGraphHandle = -1;
    #clear: GPUColorDict = COLOURS[0];
    readonly #attachments: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "dynamic material texture", colorAttachments: this.#attachments };
    constructor(readonly material: StandardMaterial) {
        super();
    }
    record(frame: FrameContext): void {
        let texture = this.#per_device.get(frame.device);
        if (texture === undefined) {
            texture = frame.device.createTexture({
                label: "dynamic material texture",
                size: { width: 8, height: 8 },
                format: "rgba8unorm",
                usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING,
            });
            this.#per_device.set(frame.device, texture);
        }
        this.material.base_color_texture = texture;
        this.#clear = COLOURS[this.frame++ % COLOURS.length];
        const pass = frame.graph.add("dynamic material texture / fill", this, execute_fill);
        this.#handle = pass.write(frame.graph.import_texture("dynamic material texture", texture), "clear");
    }
    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        this.#attachments[0] = resources.color_attachment(this.#handle, this.#clear);
        execution.encoder.beginRenderPass(this.#descriptor).end();
    }
}

function execute_fill(e: DynamicMaterialTexture, resources: FrameGraphResources, execution: FrameExecution): void {
    e.execute(resources, execution);
}

describe("PlayCanvas preScene: a texture the scene's materials read", () => {
    it("rendered at FrameStart, read by the G-buffer in the same frame", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            const material = new StandardMaterial({ base_color: [1, 1, 1, 1] });
            const wall = scene.add(new Mesh(make_plane_geometry(8, 8), material));
            wall.rotation.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            const albedo = renderer.add_extension(new ExtractExtension("albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo));
            renderer.add_extension(new DynamicMaterialTexture(material));

            renderer.render_frame();
            const red = await read_texture(device, albedo.texture!);
            write_readback_png(red, "playcanvas_prescene_albedo_0");
            expect(pixel_at(red, SIZE / 2, SIZE / 2)).toEqual([255, 0, 0, 255]);
            renderer.render_frame();
            const blue = await read_texture(device, albedo.texture!);
            expect(pixel_at(blue, SIZE / 2, SIZE / 2), "this frame's texture, not last frame's").toEqual([0, 0, 255, 255]);
            expect(errors).toEqual([]);
            albedo.destroy();
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            const s = r.scene;
            const mat = new StandardMaterial();
            s.add(new Mesh(make_plane_geometry(8, 8), mat));
            r.add_extension(new DynamicMaterialTexture(mat));
        });
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
