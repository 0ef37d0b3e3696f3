// The picture the sample level shows: a generated terrain (sand, grass, rock, snow), units standing on it at
// height_at, selection circles and blob shadows under them, scorch marks, a crater and a target ring. Written to
// test/output/terrain_decals_showcase.png (look at it); asserts the marks are where they were put.
import { vec4 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { Engine } from "../../../engine/Engine.js";
import { Decal } from "../../../systems/decals/Decal.js";
import { DECAL_FRAMES } from "../../../systems/decals/DecalAtlas.js";
import { DecalSystem } from "../../../systems/decals/DecalSystem.js";
import { Terrain } from "../../../systems/terrain/Terrain.js";
import { TerrainSystem } from "../../../systems/terrain/TerrainSystem.js";
import { join } from "node:path";
import { get_gpu, pixel_at, read_texture, TEST_OUTPUT_DIR, to_rgba8, write_png, write_readback_png, type TextureReadback } from "../../harness/index.js";

/** An enlarged copy (nearest, x `k`) for looking at. */
function write_enlarged(image: TextureReadback, name: string, k: number): void {
    const rgba = to_rgba8(image);
    const w = image.width * k;
    const out = new Uint8Array(w * image.height * k * 4);
    for (let y = 0; y < image.height * k; y++) {
        for (let x = 0; x < w; x++) {
            const from = (Math.floor(y / k) * image.width + Math.floor(x / k)) * 4;
            out.set(rgba.subarray(from, from + 4), (y * w + x) * 4);
        }
    }
    write_png(join(TEST_OUTPUT_DIR, `${name}.png`), w, image.height * k, out);
}
import { GBufferCapture } from "../terrain/gbuffer_capture.js";

const SIZE = 128;

describe("terrain with decals (Dawn)", () => {
    it("renders the sample level's ground: layered terrain, units on height_at, marks on the ground", async () => {
        const errors: Error[] = [];
        const target = new TextureRenderTarget(SIZE, SIZE);
        const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e) => errors.push(e) } });
        engine.graphics.feature_taa_enabled = false;
        const camera = engine.graphics.view.camera;
        camera.position.set([0, 12, 12]);
        camera.target.set([0, 1, 1.5]);
        const scene = engine.graphics.scene;
        scene.sun.direction.set([-0.6, -1, -0.4]);
        scene.sun.intensity = 3.2;
        scene.ambient.set([0.12, 0.14, 0.18]);
        await engine.graphics.start();
        const capture = engine.graphics.add_extension(new GBufferCapture());
        const terrain = await engine.add_system(new TerrainSystem(engine.graphics));
        await engine.add_system(new DecalSystem(engine.graphics));
        const em = engine.entityManager;
        const ground = em.create_entity();
        em.add_component(ground, Transform);
        em.add_component(ground, Terrain);
        Terrain.write(ground, { size: 40, resolution: 129, height_scale: 7, seed: 11, frequency: 2.5, sand_level: 0.08, snow_level: 0.8, rock_slope: 0.3 });
        engine.update(0);
        const decal = (x: number, z: number, size: number, frame: number, color: number[], rotation = 0): number => {
            const eid = em.create_entity();
            em.add_component(eid, Transform);
            em.add_component(eid, Decal);
            Transform.position.set([x, terrain.height_at(x, z), z], eid * 3);
            Decal.write(eid, { size: [size, 2, size], frame, color, rotation });
            return eid;
        };
        const units: [number, number][] = [[-3, 4], [-1.5, 5.5], [0.5, 3.8]];
        const unit_material = new StandardMaterial({ base_color: [0.55, 0.6, 0.7, 1], roughness: 0.4, metalness: 0.3 });
        for (const [x, z] of units) {
            decal(x, z, 1.6, DECAL_FRAMES.blob_shadow, [1, 1, 1, 0.8]);
            decal(x, z, 2.2, DECAL_FRAMES.selection_circle, [0.2, 1, 0.3, 1]);
            const mesh = new Mesh(make_box_geometry(0.7, 0.9, 0.7), unit_material);
            mesh.position.set([x, terrain.height_at(x, z) + 0.45, z]);
            scene.add(mesh);
        }
        decal(3.5, 1.5, 3.6, DECAL_FRAMES.scorch, [1, 1, 1, 1], 0.4);
        decal(5.5, 4.2, 2.6, DECAL_FRAMES.scorch, [1, 1, 1, 0.9], 2.1);
        decal(1.5, -1.5, 3.5, DECAL_FRAMES.crater, [1, 1, 1, 1]);
        const target_ring = decal(-5, -1, 2.5, DECAL_FRAMES.target, [1, 0.25, 0.1, 1]);
        decal(-2, 0.5, 1.8, DECAL_FRAMES.splat, [1, 1, 1, 1], 1.2);
        decal(4, 6, 1.8, DECAL_FRAMES.arrow, [1, 0.85, 0.2, 1], -0.6);
        decal(-7, 3, 2, DECAL_FRAMES.selection_square, [0.3, 0.7, 1, 1]);
        engine.tick(1 / 30);
        const image = await read_texture(engine.graphics.device!, target.acquire());
        const path = write_readback_png(image, "terrain_decals_showcase");
        console.info(`showcase written to ${path}`);
        write_enlarged(image, "terrain_decals_showcase_x4", 4);
        const albedo = await capture.read("albedo");
        write_readback_png(albedo, "terrain_decals_showcase_albedo");
        // the target ring's centre dot (tinted red-orange) is in the albedo where its centre projects
        const p = Transform.position.subarray(target_ring * 3, target_ring * 3 + 3);
        const clip = vec4.transformMat4(vec4.create(), vec4.fromValues(p[0], p[1], p[2], 1), camera.view_projection);
        const px = Math.floor(((clip[0] / clip[3]) * 0.5 + 0.5) * SIZE);
        const py = Math.floor((0.5 - (clip[1] / clip[3]) * 0.5) * SIZE);
        const dot = pixel_at(albedo, px, py);
        expect(dot[0], `target centre at (${px}, ${py}): ${dot}`).toBeGreaterThan(dot[1] + 60);
        await engine.shutdown();
        expect(errors).toEqual([]);
    });
});
