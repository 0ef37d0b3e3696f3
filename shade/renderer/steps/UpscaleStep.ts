import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import { FullscreenEffect } from "../fullscreen/FullscreenEffect.js";
import { SCENE_COLOR_FORMAT } from "./LightingStep.js";

const SCENE_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

/**
 * The upscale boundary: resolves the internal-resolution scene colour to the output resolution and
 * republishes `SceneColor` at BeforePresent. Runs only with `feature_taa_enabled`; without it both sides
 * are one size and the colour passes through untouched. (Bilinear here; the temporal resolve replaces it.)
 */
export class UpscaleStep {
    readonly #effect = new FullscreenEffect({
        label: "upscale",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f { return sample_input_0(uv); }`,
    });

    /** Call at BeforePresent, before its extensions. */
    record(frame: FrameContext, enabled: boolean): void {
        if (!enabled) return;
        const scene = frame.get(SceneColor);
        const output = frame.graph.create(
            "upscaled scene colour",
            TextureResourceDescriptor.of(frame.output_resolution[0], frame.output_resolution[1], SCENE_COLOR_FORMAT, SCENE_USAGE),
        );
        scene.color = this.#effect.graph_draw(frame.graph, output, scene.color);
    }
}
