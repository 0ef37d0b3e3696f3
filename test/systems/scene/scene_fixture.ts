// A real-GPU engine with a SceneSystem (Dawn on SwiftShader): 64 x 64 offscreen, TAA off unless asked, every
// error collected; helpers to aim a Camera entity and to project world points to pixels with the view's camera.
import { mat4, quat, vec4 } from "gl-matrix";
import { Engine } from "../../../engine/Engine.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { SceneSystem } from "../../../systems/scene/SceneSystem.js";
import { get_gpu, read_texture, type TextureReadback } from "../../harness/index.js";

export const SIZE = 64;

export interface SceneFixture {
    readonly engine: Engine;
    readonly scene: SceneSystem;
    readonly target: TextureRenderTarget;
    readonly errors: Error[];
    read(): Promise<TextureReadback>;
    /** The output pixel where world point p lands with the view's camera as last rendered (TAA off: no jitter). */
    project(p: readonly number[]): [number, number];
}

export async function start_scene(options: { taa?: boolean; size?: number } = {}): Promise<SceneFixture> {
    const size = options.size ?? SIZE;
    const errors: Error[] = [];
    const target = new TextureRenderTarget(size, size);
    const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = options.taa === true;
    await engine.graphics.start();
    const scene = await engine.add_system(new SceneSystem(engine.graphics));
    return {
        engine,
        scene,
        target,
        errors,
        read: () => read_texture(engine.graphics.device!, target.acquire()),
        project(p) {
            const camera = engine.graphics.view.camera;
            const c = vec4.transformMat4(vec4.create(), vec4.fromValues(p[0], p[1], p[2], 1), camera.view_projection);
            return [Math.floor(((c[0] / c[3]) * 0.5 + 0.5) * size), Math.floor((0.5 - (c[1] / c[3]) * 0.5) * size)];
        },
    };
}

/** The rotation [x, y, z, w] of an entity at `eye` looking at `at` (its -z toward it, +y up). */
export function look_rotation(eye: readonly number[], at: readonly number[]): [number, number, number, number] {
    const m = mat4.targetTo(mat4.create(), eye as [number, number, number], at as [number, number, number], [0, 1, 0]);
    const q = mat4.getRotation(quat.create(), m);
    quat.normalize(q, q);
    return [q[0], q[1], q[2], q[3]];
}
