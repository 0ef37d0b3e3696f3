import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import { FullscreenEffect } from "../fullscreen/FullscreenEffect.js";
import { SCENE_COLOR_FORMAT } from "../steps/LightingStep.js";
import { HalfResolutionColor } from "./HalfResolutionColor.js";

// storage: written from compute where that is the faster path
const HALF_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x08 /* STORAGE_BINDING */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

/** Makes `HalfResolutionColor`: one fullscreen 2x2 box filter, pass "half resolution colour". */
export class HalfResolutionColorStep {
    // load_input_0 clamps to the source: an odd edge reads its last texel twice, which averages what is there
    readonly #effect = new FullscreenEffect({
        label: "half resolution colour",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `
fn effect(uv: vec2f) -> vec4f {
    let p = vec2i(frag_coord) * 2;
    return 0.25 * (load_input_0(p) + load_input_0(p + vec2i(1, 0)) + load_input_0(p + vec2i(0, 1)) + load_input_0(p + vec2i(1, 1)));
}`,
    });

    record(frame: FrameContext): void {
        const graph = frame.graph;
        const source: FrameGraphHandle = frame.get(SceneColor).color;
        const d = graph.describe(source);
        const half = graph.create(
            "half resolution colour",
            TextureResourceDescriptor.of(Math.ceil(d.width / 2), Math.ceil(d.height / 2), SCENE_COLOR_FORMAT, HALF_USAGE),
        );
        // made per phase: one made at an earlier phase is still carried, and takes this phase's image
        const record = frame.has(HalfResolutionColor) ? frame.get(HalfResolutionColor) : frame.create(HalfResolutionColor);
        record.provide(this.#effect.graph_draw(graph, half, source), frame);
    }
}
