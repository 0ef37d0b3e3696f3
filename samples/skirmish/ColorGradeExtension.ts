import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { TextureResourceDescriptor } from "../../shade/device/graph/TextureResourceDescriptor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";

/**
 * The skirmish's look, at BeforePresent over the finished HDR image (output resolution): a little warmth in the
 * highlights and cool in the shadows, gentle saturation, and a vignette. Off by returning from record.
 */
export class ColorGradeExtension extends RenderExtension {
    name = "colour grade";
    phase = FramePhase.BeforePresent;
    enabled_by_user = true;
    readonly #effect = new FullscreenEffect({
        label: "colour grade",
        inputs: 1,
        format: "rgba16float",
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
    let c = sample_input_0(uv).rgb;
    let luma = dot(c, vec3f(0.2126, 0.7152, 0.0722));
    // split toning: cool shadows, warm highlights
    let t = clamp(luma / (luma + 0.6), 0.0, 1.0);
    let toned = c * mix(vec3f(0.94, 0.98, 1.08), vec3f(1.06, 1.0, 0.92), t);
    let saturated = mix(vec3f(luma), toned, 1.12);
    let d = uv - vec2f(0.5);
    let vignette = 1.0 - 0.38 * smoothstep(0.25, 0.85, dot(d, d) * 2.2);
    return vec4f(max(saturated, vec3f(0.0)) * vignette, 1.0);
}`,
    });

    record(frame: FrameContext): void {
        if (!this.enabled_by_user) return;
        const scene = frame.get(SceneColor);
        const source = scene.color;
        const out = frame.graph.create(
            "graded colour",
            TextureResourceDescriptor.from({ resolution: frame.resolution, format: "rgba16float", // storage: the grade runs as compute where that is the faster path (FullscreenPath)
            usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.TEXTURE_BINDING }),
        );
        scene.color = this.#effect.graph_draw(frame.graph, out, source);
    }

    destroy(): void {
        this.#effect.destroy();
    }
}
