// A real-GPU engine looking straight down at a white ground plane (Dawn on SwiftShader, TAA off, every GPU
// error collected): world x to the right, world -z up the image, so a pixel maps to a point of the ground.
import { Engine } from "../../../engine/Engine.js";
import type { FullscreenPath } from "../../../shade/renderer/fullscreen/FullscreenPath.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu, pixel_at, read_texture, type TextureReadback } from "../../harness/index.js";

export const SIZE = 64;
const HEIGHT = 10;
/** Half the ground's width seen at y = 0 (fov 60 degrees, square target). */
export const HALF_VIEW = HEIGHT * Math.tan(Math.PI / 6);

export interface TopDownFixture {
    readonly engine: Engine;
    readonly target: TextureRenderTarget;
    readonly errors: Error[];
    readonly ground: Mesh;
    read(): Promise<TextureReadback>;
}

export async function start_top_down(size = SIZE, ground = true, fullscreen_paths: FullscreenPath = "auto"): Promise<TopDownFixture> {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(size, size);
    const engine = new Engine({ graphics: { gpu: get_gpu(), target, fullscreen_paths, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false;
    const camera = engine.graphics.view.camera;
    camera.position.set([0, HEIGHT, 0]);
    camera.target.set([0, 0, 0]);
    camera.up.set([0, 0, -1]);
    const plane = new Mesh(make_box_geometry(40, 0.2, 40), new StandardMaterial({ base_color: [0.8, 0.8, 0.8] }));
    plane.position.set([0, -0.1, 0]);
    if (ground) engine.graphics.scene.add(plane);
    await engine.graphics.start();
    return { engine, target, errors, ground: plane, read: () => read_texture(engine.graphics.device!, target.acquire()) };
}

/** The pixel (x, y) showing world point (x, 0, z). */
export function pixel_of(x: number, z: number, size = SIZE): [number, number] {
    return [Math.floor((x / HALF_VIEW) * 0.5 * size + size / 2), Math.floor((z / HALF_VIEW) * 0.5 * size + size / 2)];
}

/** Mean of r, g, b at the pixel showing world (x, 0, z). */
export function luminance(image: TextureReadback, x: number, z: number): number {
    const p = pixel_at(image, ...pixel_of(x, z, image.width));
    return (p[0] + p[1] + p[2]) / 3;
}
