import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { PresentTarget } from "../../shade/renderer/extension/PresentTarget.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";

/** HDR colour of the sun disc's flat centre; the browser test checks the canvas centre against it. */
export const SUN_CORE = [1.6, 0.62, 0.18] as const;

/** A sun over a horizon, drawn into the scene colour before the upscale (so it is upscaled and tonemapped). */
export class SunExtension extends RenderExtension {
    name = "sun";
    phase = FramePhase.AfterTransparency;
    readonly #effect = new FullscreenEffect({
        label: "sun",
        inputs: 1,
        format: "rgba16float",
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let sky = load_input_0(vec2i(frag_coord)).rgb;
            let aspect = 16.0 / 9.0;
            let p = (uv - vec2f(0.5, 0.5)) * vec2f(aspect, 1.0);
            let r = length(p);
            let core = vec3f(${SUN_CORE.join(", ")});
            let glow = core * 0.35 * exp(-6.0 * max(r - 0.16, 0.0));
            let horizon = smoothstep(0.62, 0.8, uv.y);
            let ground = mix(vec3f(0.02, 0.025, 0.04), vec3f(0.05, 0.03, 0.06), uv.x);
            var color = mix(sky + glow * (1.0 - horizon), ground, horizon * step(r, 10.0));
            if (r < 0.14) { color = core; }
            else if (r < 0.16) { color = mix(core, color, (r - 0.14) / 0.02); }
            return vec4f(color, 1.0);
        }`,
    });

    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        const target = frame.graph.create("sun scene", frame.describe(scene.color));
        scene.color = this.#effect.graph_draw(frame.graph, target, scene.color);
    }
}

/** A thin frame drawn over the presented canvas: Overlay content keeps what is there and adds its pixels. */
export class FrameBorderExtension extends RenderExtension {
    name = "frame border";
    phase = FramePhase.Overlay;
    #effect: FullscreenEffect | null = null;

    record(frame: FrameContext): void {
        const present = frame.get(PresentTarget);
        const format = frame.describe(present.target).format;
        if (this.#effect === null || this.#effect.options.format !== format) {
            this.#effect = new FullscreenEffect({
                label: "frame border",
                inputs: 0,
                format,
                blend: {
                    color: { srcFactor: "src-alpha", dstFactor: "one-minus-src-alpha" },
                    alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha" },
                },
                fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
                    let d = min(min(uv.x, 1.0 - uv.x), min(uv.y, 1.0 - uv.y));
                    if (d > 0.012) { discard; }
                    return vec4f(0.85, 0.87, 0.92, 0.5);
                }`,
            });
        }
        present.target = this.#effect.graph_draw(frame.graph, present.target);
    }
}
