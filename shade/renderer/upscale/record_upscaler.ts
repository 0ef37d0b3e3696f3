import type { FrameGraph } from "../../device/graph/FrameGraph.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import type { Upscaler } from "./Upscaler.js";

/**
 * @internal A user upscaler at BeforePresent, scoped under its name; it must leave the scene colour at the
 * output size (the size every later pass works at), and a wrong one is named here rather than in a later pass.
 */
export function record_upscaler(upscaler: Upscaler, frame: FrameContext, graph: FrameGraph): void {
    const depth = graph.scope_depth;
    graph.push_scope(upscaler.name);
    try {
        upscaler.record(frame);
    } catch (error) {
        throw new Error(`Upscaler '${upscaler.name}' failed to record at BeforePresent`, { cause: error });
    } finally {
        graph.pop_scopes_to(depth);
    }
    const size = frame.describe(frame.get(SceneColor).color);
    const out = frame.output_resolution;
    if (size.width !== out[0] || size.height !== out[1]) {
        throw new Error(
            `Upscaler '${upscaler.name}' left SceneColor at ${size.width}x${size.height}; it must publish the scene colour at the output size ${out[0]}x${out[1]}`,
        );
    }
}
