// Allocation per steady frame with every frame product made (Velocity for an extension and for TAA while a
// mesh moves, SceneColorCopy and HalfResolutionColor at two phases each), on a FAKE device (device-independent:
// every object it returns is made once, so only the renderer's own code can allocate). Positive control: one
// small object per frame is seen.
import { describe, expect, it } from "vitest";
import type { FrameGraphHandle } from "../../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { SCENE_COLOR_FORMAT } from "../../../../shade/renderer/steps/LightingStep.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { HalfResolutionColor } from "../../../../shade/renderer/products/HalfResolutionColor.js";
import { SceneColorCopy } from "../../../../shade/renderer/products/SceneColorCopy.js";
import { Velocity } from "../../../../shade/renderer/products/Velocity.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { steady_bytes_per_frame } from "../../../harness/allocation.js";
import { fake_gpu_device } from "../fake_gpu_device.js";

/** Draws from every product it requires into the scene colour (so no product pass is culled). */
class Reader extends RenderExtension {
    override name: string;
    override phase: FramePhase;
    override requires = [SceneColorCopy, HalfResolutionColor, Velocity];
    seen: FrameGraphHandle = 0;
    readonly #effect = new FullscreenEffect({
        label: "product reader",
        inputs: 3,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
    let p = vec2i(frag_coord);
    return load_input_0(p) * 0.5 + load_input_1(p / 2) * 0.25 + vec4f(load_input_2(p).xy, 0.0, 0.0);
}`,
    });
    kept: { frame: number } | null = null;
    leak = false;
    constructor(name: string, phase: FramePhase) {
        super();
        this.name = name;
        this.phase = phase;
    }
    override record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, frame.get(SceneColorCopy).color, frame.get(HalfResolutionColor).color, frame.get(Velocity).velocity);
        this.seen = scene.color;
        if (this.leak) this.kept = { frame: this.seen };
    }
}

/** Moves the box a little every frame without allocating (so TAA wants velocity too). */
class Mover extends RenderExtension {
    override name = "mover";
    override phase = FramePhase.FrameStart;
    frame = 0;
    constructor(readonly box: Mesh) {
        super();
    }
    override record(): void {
        this.box.position[0] = Math.sin(this.frame++ * 0.01);
    }
}

describe("frame products allocate nothing per steady frame (FAKE device, device-independent)", () => {
    it("Velocity, SceneColorCopy and HalfResolutionColor made every frame, with TAA and a moving mesh", async () => {
        const { device, stats } = fake_gpu_device();
        const scene = new Scene();
        const box = new Mesh(make_box_geometry(), new StandardMaterial({ base_color: [1, 0, 0, 1] }));
        scene.add(box);
        scene.add(new Mesh(make_box_geometry(4, 1, 4), new StandardMaterial({ base_color: [0, 1, 0, 1] })));
        const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 64), scene });
        renderer.capture_pass_list = false;
        renderer.add_extension(new Mover(box));
        const reader = renderer.add_extension(new Reader("reader (transparency)", FramePhase.AfterTransparency));
        renderer.add_extension(new Reader("reader (present)", FramePhase.BeforePresent));
        const frame = () => renderer.render_frame();
        const leaky = () => {
            reader.leak = true;
            renderer.render_frame();
            reader.leak = false;
        };
        for (let i = 0; i < 3000; i++) frame();
        const passes = stats.render_passes;
        frame();
        const per_frame = stats.render_passes - passes;
        const textures = stats.textures;
        const reading = await steady_bytes_per_frame([frame, leaky], { window: 500, accept: (m) => m[0] < 8 && m[1] >= 16 });
        console.log(
            `[alloc] FAKE device, products on: ${per_frame} render passes/frame; ${reading.medians[0].toFixed(1)} young bytes/frame ` +
                `(control ${reading.medians[1].toFixed(1)}), ${reading.rounds} rounds`,
        );
        // gbuffer, velocity, lighting, half-res x2, reader x2, taa resolve + sharpen, tonemap (transparency has
        // nothing to draw; the copies are not render passes)
        expect(per_frame).toBeGreaterThanOrEqual(10);
        expect(reading.medians[1], "the control's object is seen").toBeGreaterThanOrEqual(16);
        expect(reading.medians[0]).toBeLessThan(8);
        expect(stats.textures, "no texture created in steady state").toBe(textures);
        renderer.destroy();
    });
});
