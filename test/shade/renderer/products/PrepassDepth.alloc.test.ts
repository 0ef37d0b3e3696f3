// Allocation per steady frame with the depth prepass made every frame (a FrameStart extension requires
// PrepassDepth and copies it), over opaque, masked and double-sided meshes, on a FAKE device (device-independent:
// every object it returns is made once, so only the renderer's own code can allocate). Positive control: one
// small object per frame is seen.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { ExtractExtension } from "../../../../shade/renderer/extract/ExtractExtension.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { PrepassDepth } from "../../../../shade/renderer/products/PrepassDepth.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { steady_bytes_per_frame } from "../../../harness/allocation.js";
import { fake_gpu_device } from "../fake_gpu_device.js";

/** FrameStart: copies this frame's prepass depth out (a side effect); while `leak`, keeps one object per frame. */
class PrepassCopy extends ExtractExtension {
    override requires = [PrepassDepth];
    leak = false;
    kept: { frame: number } | null = null;
    frames = 0;
    constructor() {
        super("prepass copy", FramePhase.FrameStart, (f) => f.get(PrepassDepth).depth);
    }
    override record(frame: FrameContext): void {
        super.record(frame);
        this.frames++;
        if (this.leak) this.kept = { frame: this.frames };
    }
}

describe("the depth prepass allocates nothing per steady frame (FAKE device, device-independent)", () => {
    it("PrepassDepth made every frame for a FrameStart requirer, the G-buffer drawn over it", async () => {
        const { device, stats } = fake_gpu_device();
        const scene = new Scene();
        scene.add(new Mesh(make_box_geometry(), new StandardMaterial({ base_color: [1, 0, 0, 1] })));
        scene.add(new Mesh(make_box_geometry(4, 1, 4), new StandardMaterial({ base_color: [0, 1, 0, 1], double_sided: true })));
        scene.add(new Mesh(make_box_geometry(2, 2, 0.1), new StandardMaterial({ base_color: [0, 0, 1, 0.8], transparency: "masked", alpha_cutoff: 0.5 })));
        const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 64), scene });
        const copy = renderer.add_extension(new PrepassCopy());
        renderer.capture_pass_list = true;
        renderer.render_frame();
        expect(renderer.last_frame_passes.map((p) => p.name)).toContain("depth prepass");
        renderer.capture_pass_list = false;
        const frame = () => renderer.render_frame();
        const leaky = () => {
            copy.leak = true;
            renderer.render_frame();
            copy.leak = false;
        };
        for (let i = 0; i < 3000; i++) frame();
        const passes = stats.render_passes;
        frame();
        const per_frame = stats.render_passes - passes;
        const textures = stats.textures;
        const reading = await steady_bytes_per_frame([frame, leaky], { window: 500, accept: (m) => m[0] < 8 && m[1] >= 16 });
        console.log(
            `[alloc] FAKE device, depth prepass on: ${per_frame} render passes/frame; ${reading.medians[0].toFixed(1)} young bytes/frame ` +
                `(control ${reading.medians[1].toFixed(1)}), ${reading.rounds} rounds`,
        );
        // depth prepass, gbuffer, lighting, taa resolve + sharpen, tonemap (the copy is not a render pass)
        expect(per_frame).toBeGreaterThanOrEqual(5);
        expect(reading.medians[1], "the control's object is seen").toBeGreaterThanOrEqual(16);
        expect(reading.medians[0]).toBeLessThan(8);
        expect(stats.textures, "no texture created in steady state").toBe(textures);
        renderer.destroy();
    });
});
