// A real-GPU engine (Dawn on SwiftShader) looking straight down at the ground: 64 x 64, TAA off, every GPU
// error collected; a G-buffer capture at AfterLighting.
import { mat4, vec4 } from "gl-matrix";
import { Engine } from "../../../engine/Engine.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu, read_texture, type TextureReadback } from "../../harness/index.js";
import { GBufferCapture } from "./gbuffer_capture.js";

export const SIZE = 64;

export interface GroundFixture {
    readonly engine: Engine;
    readonly errors: Error[];
    readonly capture: GBufferCapture;
    read(): Promise<TextureReadback>;
    /** The world point under pixel (x, y) rebuilt from a depth value (the lighting step's reconstruction). */
    unproject(x: number, y: number, depth: number): [number, number, number];
    /** The pixel (x, y) where world point p lands. */
    project(p: readonly number[]): [number, number];
}

export async function start_ground(options: { height?: number; size?: number; tilt?: number } = {}): Promise<GroundFixture> {
    const size = options.size ?? SIZE;
    const errors: Error[] = [];
    const target = new TextureRenderTarget(size, size);
    const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false;
    const camera = engine.graphics.view.camera;
    // straight down (screen right = +x, screen up = -z), or tilted toward -z
    camera.position.set([0, options.height ?? 12, options.tilt ?? 0]);
    camera.target.set([0, 0, 0]);
    camera.up.set([0, 0, -1]);
    await engine.graphics.start();
    const capture = engine.graphics.add_extension(new GBufferCapture());
    const matrix = (): mat4 => {
        const vp = mat4.create();
        const view = mat4.lookAt(mat4.create(), camera.position, camera.target, camera.up);
        mat4.multiply(vp, mat4.perspectiveZO(mat4.create(), camera.fov_y, 1, camera.near, camera.far), view);
        return vp;
    };
    return {
        engine,
        errors,
        capture,
        read: () => read_texture(engine.graphics.device!, target.acquire()),
        unproject(x, y, depth) {
            const inverse = mat4.create();
            mat4.invert(inverse, matrix());
            const ndc = vec4.fromValues(((x + 0.5) / size) * 2 - 1, 1 - ((y + 0.5) / size) * 2, depth, 1);
            const w = vec4.transformMat4(vec4.create(), ndc, inverse);
            return [w[0] / w[3], w[1] / w[3], w[2] / w[3]];
        },
        project(p) {
            const c = vec4.transformMat4(vec4.create(), vec4.fromValues(p[0], p[1], p[2], 1), matrix());
            return [Math.floor(((c[0] / c[3]) * 0.5 + 0.5) * size), Math.floor((0.5 - (c[1] / c[3]) * 0.5) * size)];
        },
    };
}

/** A `resolution`-square heightmap with a round hill of height `peak` (units of height_scale) at the centre. */
export function hill_heights(resolution: number, peak: number, radius = 0.3): Float32Array {
    const heights = new Float32Array(resolution * resolution);
    for (let j = 0; j < resolution; j++) {
        for (let i = 0; i < resolution; i++) {
            const u = i / (resolution - 1) - 0.5;
            const v = j / (resolution - 1) - 0.5;
            heights[j * resolution + i] = peak * Math.exp(-(u * u + v * v) / (2 * radius * radius * 0.25));
        }
    }
    return heights;
}
