import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { GBufferTextures } from "../extension/GBufferTextures.js";
import { SceneColor } from "../extension/SceneColor.js";
import { FullscreenEffect } from "../fullscreen/FullscreenEffect.js";

/** Format of the HDR scene colour. */
export const SCENE_COLOR_FORMAT: GPUTextureFormat = "rgba16float";
const SCENE_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

/**
 * The lighting step: reads the G-buffer and writes the HDR scene colour at the internal resolution, published
 * as `SceneColor`. Here it is unlit (albedo as radiance).
 */
export class LightingStep {
    readonly #effect = new FullscreenEffect({
        label: "lighting",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let albedo = load_input_0(vec2i(frag_coord));
            return vec4f(albedo.rgb, 1.0);
        }`,
    });

    record(frame: FrameContext): void {
        const albedo = frame.get(GBufferTextures).albedo;
        const target = frame.graph.create(
            "scene colour",
            TextureResourceDescriptor.of(frame.resolution[0], frame.resolution[1], SCENE_COLOR_FORMAT, SCENE_USAGE),
        );
        frame.create(SceneColor).color = this.#effect.graph_draw(frame.graph, target, albedo);
    }
}
