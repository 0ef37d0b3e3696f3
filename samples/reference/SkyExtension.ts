import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";

/**
 * A gradient sky behind the scene: at AfterLighting, where no mesh covered a pixel (the G-buffer's albedo
 * coverage is 0), the lit colour is replaced by a horizon-to-zenith gradient. Reads two records, publishes one.
 */
export class SkyExtension extends RenderExtension {
    name = "sky";
    phase = FramePhase.AfterLighting;
    readonly #effect = new FullscreenEffect({
        label: "sky",
        inputs: 2,
        format: "rgba16float",
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let pixel = vec2i(frag_coord);
            let lit = load_input_0(pixel);
            let coverage = load_input_1(pixel).a;
            let height = clamp(1.0 - uv.y, 0.0, 1.0);
            let horizon = vec3f(0.62, 0.66, 0.74);
            let zenith = vec3f(0.10, 0.20, 0.42);
            let sky = mix(horizon, zenith, smoothstep(0.35, 1.0, height)) * 0.9;
            return vec4f(mix(sky, lit.rgb, coverage), 1.0);
        }`,
    });

    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        const albedo = frame.get(GBufferTextures).albedo;
        const target = frame.graph.create("sky scene colour", frame.describe(scene.color));
        scene.color = this.#effect.graph_draw(frame.graph, target, scene.color, albedo);
    }
}
