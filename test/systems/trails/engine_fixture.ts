// A real-GPU engine for system tests (Dawn on SwiftShader): a small offscreen target, TAA off (no jitter, no
// history: one frame is the picture), a camera on +z looking at the origin, every GPU error collected.
import { Engine } from "../../../engine/Engine.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu, read_texture, type TextureReadback } from "../../harness/index.js";

export const SIZE = 64;
/** The empty scene's sky after the tonemap (8-bit), as the renderer's own tests have it. */
export const SKY_8BIT = [60, 78, 101];

export interface EngineFixture {
    readonly engine: Engine;
    readonly target: TextureRenderTarget;
    readonly errors: Error[];
    read(): Promise<TextureReadback>;
}

export async function start_engine(size = SIZE): Promise<EngineFixture> {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(size, size);
    const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false;
    const camera = engine.graphics.view.camera;
    camera.position.set([0, 0, 5]);
    camera.target.set([0, 0, 0]);
    await engine.graphics.start();
    return {
        engine,
        target,
        errors,
        read: () => read_texture(engine.graphics.device!, target.acquire()),
    };
}

/** Pixel x (or y, flipped) of world x (or y) on the z = 0 plane for the fixture's camera. */
export function project(v: number, axis: "x" | "y", size = SIZE): number {
    const half = 5 * Math.tan(Math.PI / 6); // camera at z = 5, fov_y 60 degrees, square target
    const ndc = v / half;
    return axis === "x" ? (ndc * 0.5 + 0.5) * size : (0.5 - ndc * 0.5) * size;
}
