import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import { FullscreenEffect } from "../fullscreen/FullscreenEffect.js";
import { TAA_SHARPEN_WGSL } from "./UpscaleStep.js";

/** ACES filmic fit (Narkowicz) then the sRGB transfer for non-sRGB targets, in WGSL. */
export const TONEMAP_WGSL = /* wgsl */ `
fn aces(x: vec3f) -> vec3f {
    let a = 2.51; let b = 0.03; let c = 2.43; let d = 0.59; let e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), vec3f(0.0), vec3f(1.0));
}
fn linear_to_srgb(c: vec3f) -> vec3f {
    return select(1.055 * pow(c, vec3f(1.0 / 2.4)) - 0.055, c * 12.92, c <= vec3f(0.0031308));
}
`;

/**
 * Tonemap + present: reads the finished `SceneColor` at BeforePresent and writes the imported target
 * (the canvas). Returns the target's new handle, which the renderer publishes as `PresentTarget`. With `sharpen`
 * (the TAA upscale left its sharpen to it: nothing was recorded between them) it sharpens as it reads, one pass
 * ("tonemap + taa sharpen") where there were two.
 */
export class TonemapStep {
    readonly #effects = new Map<GPUTextureFormat, FullscreenEffect>();
    readonly #sharpening = new Map<GPUTextureFormat, FullscreenEffect>();

    record(frame: FrameContext, target: FrameGraphHandle, sharpen = false): FrameGraphHandle {
        const format = frame.describe(target).format;
        const effects = sharpen ? this.#sharpening : this.#effects;
        let effect = effects.get(format);
        if (effect === undefined) {
            const srgb_target = format.endsWith("-srgb");
            effect = new FullscreenEffect({
                label: sharpen ? "tonemap + taa sharpen" : "tonemap",
                inputs: 1,
                format,
                fragment: `${TONEMAP_WGSL}
                ${sharpen ? TAA_SHARPEN_WGSL : ""}
                fn effect(uv: vec2f) -> vec4f {
                    let hdr = ${sharpen ? "sharpen_at(vec2i(frag_coord))" : "load_input_0(vec2i(frag_coord))"}.rgb;
                    let ldr = aces(max(hdr, vec3f(0.0)));
                    return vec4f(${srgb_target ? "ldr" : "linear_to_srgb(ldr)"}, 1.0);
                }`,
            });
            effects.set(format, effect);
        }
        return effect.graph_draw(frame.graph, target, frame.get(SceneColor).color);
    }
}
