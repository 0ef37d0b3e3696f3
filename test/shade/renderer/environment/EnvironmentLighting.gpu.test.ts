// The scene environment in the deferred lighting on Dawn: ambient light from it (split sum), the sky showing it,
// nothing changed without it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Environment } from "../../../../shade/renderer/environment/Environment.js";
import type { HdrImage } from "../../../../shade/renderer/environment/parse_hdr.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ExtractExtension } from "../../../../shade/renderer/extract/ExtractExtension.js";
import type { FullscreenPath } from "../../../../shade/renderer/fullscreen/FullscreenPath.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { deferred_compute_wgsl, deferred_wgsl } from "../../../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";
import { split_sum_reference } from "./split_sum_reference.js";

const SIZE = 48;
const SMALL = { specular_size: 16, specular_levels: 5, irradiance_size: 8, samples: 32 } as const;

function uniform(r: number, g: number, b: number): HdrImage {
    const data = new Float32Array(32 * 16 * 4);
    for (let i = 0; i < 32 * 16; i++) data.set([r, g, b, 1], i * 4);
    return { width: 32, height: 16, data };
}

/** A sphere of radius 1.5 filling the middle of a SIZE x SIZE view from +Z, lit by nothing but what the test adds. */
function sphere_scene(device: GPUDevice, material: StandardMaterial, path: FullscreenPath = "auto") {
    const scene = new Scene();
    scene.sun.intensity = 0;
    scene.ambient.set([0, 0, 0]);
    scene.add(new Mesh(make_sphere_geometry(1.5, 48, 24), material));
    const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, fullscreen_paths: path });
    renderer.view.camera.position.set([0, 0, 5]);
    renderer.view.camera.target.set([0, 0, 0]);
    renderer.view.camera.fov_y = Math.PI / 4;
    const lit = renderer.add_extension(new ExtractExtension("capture lit", FramePhase.AfterLighting, (f) => f.get(SceneColor).color));
    const frame = async (): Promise<TextureReadback> => {
        renderer.render_frame();
        return read_texture(device, lit.texture!);
    };
    return { scene, renderer, frame };
}

const CENTRE = SIZE / 2;

describe("the scene environment in the deferred lighting", () => {
    for (const path of ["raster", "compute"] as const) {
        it(`a rough dielectric under a uniform white environment reflects about its albedo; the sky shows the environment x intensity (${path})`, async () => {
            await with_gpu_device(async (device) => {
                const albedo = 0.5;
                const { scene, renderer, frame } = sphere_scene(device, new StandardMaterial({ base_color: [albedo, albedo, albedo, 1], roughness: 1, metalness: 0 }), path);
                const environment = new Environment(uniform(1, 1, 1), SMALL);
                scene.environment = environment;
                let image = await frame();
                write_readback_png(image, `environment_white_furnace_${path}`);
                // at the centre n.v = 1: diffuse albedo x (1 - F0) plus specular F0 x A + B
                const [a, b] = split_sum_reference(1, 1, 4096);
                const expected = albedo * (1 - 0.04) + 0.04 * a + b;
                const centre = pixel_at(image, CENTRE, CENTRE);
                for (let c = 0; c < 3; c++) expect(Math.abs(centre[c] - expected)).toBeLessThan(0.02);
                expect(Math.abs(centre[0] - albedo)).toBeLessThan(0.1 * albedo);
                // towards the rim (n.v lower) still about the albedo: a white furnace neither creates nor loses much
                expect(Math.abs(pixel_at(image, CENTRE + 12, CENTRE)[0] - albedo)).toBeLessThan(0.1 * albedo);
                // the sky: the environment's radiance
                expect(pixel_at(image, 1, 1)[0]).toBeCloseTo(1, 2);
                // a later change of intensity scales both
                environment.intensity = 2;
                image = await frame();
                expect(pixel_at(image, 1, 1)[0]).toBeCloseTo(2, 2);
                expect(pixel_at(image, CENTRE, CENTRE)[0]).toBeCloseTo(2 * centre[0], 2);
                renderer.destroy();
                environment.destroy();
            });
        });
    }

    it("blended surfaces take their ambient light from the environment too, as the deferred lighting gives opaque ones", async () => {
        await with_gpu_device(async (device) => {
            const environment = new Environment(uniform(1, 1, 1), SMALL);
            const centre_of = async (transparency: "opaque" | "blended", with_environment: boolean) => {
                const material = new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1], roughness: 1, transparency });
                const { scene, renderer } = sphere_scene(device, material);
                scene.environment = with_environment ? environment : null;
                const after = renderer.add_extension(new ExtractExtension("capture blended", FramePhase.AfterTransparency, (f) => f.get(SceneColor).color));
                renderer.render_frame();
                const image = await read_texture(device, after.texture!);
                renderer.destroy();
                return pixel_at(image, CENTRE, CENTRE)[0];
            };
            const opaque = await centre_of("opaque", true);
            const blended = await centre_of("blended", true);
            expect(opaque).toBeGreaterThan(0.4);
            expect(Math.abs(blended - opaque)).toBeLessThan(0.01);
            // without the environment: the flat ambient (black here)
            expect(await centre_of("blended", false)).toBeLessThan(0.01);
            environment.destroy();
        });
    });

    it("a metal's ambient is all specular (F0 x A + B, no diffuse); the sun still adds its light", async () => {
        await with_gpu_device(async (device) => {
            const { scene, renderer, frame } = sphere_scene(device, new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1], roughness: 0.5, metalness: 1 }));
            const environment = new Environment(uniform(1, 1, 1), SMALL);
            scene.environment = environment;
            const image = await frame();
            const [a, b] = split_sum_reference(1, 0.5, 4096);
            expect(Math.abs(pixel_at(image, CENTRE, CENTRE)[0] - (0.5 * a + b))).toBeLessThan(0.03);
            // the sun from behind the camera: more light on top of the environment's
            scene.sun.intensity = 1;
            scene.sun.direction.set([0, 0, -1]);
            const sunlit = await frame();
            expect(pixel_at(sunlit, CENTRE, CENTRE)[0]).toBeGreaterThan(pixel_at(image, CENTRE, CENTRE)[0] + 0.05);
            renderer.destroy();
            environment.destroy();
        });
    });

    it("the royal esplanade lights a rough sphere brighter on the side facing the bright sky than on the ground side", async () => {
        await with_gpu_device(async (device) => {
            const bytes = readFileSync(new URL("../../../../samples/assets/royal_esplanade/royal_esplanade_1k.hdr", import.meta.url));
            const environment = Environment.from_hdr(bytes, "royal_esplanade_1k.hdr", SMALL);
            const { scene, renderer, frame } = sphere_scene(device, new StandardMaterial({ base_color: [0.8, 0.8, 0.8, 1], roughness: 1 }));
            scene.environment = environment;
            const image = await frame();
            write_readback_png(image, "environment_royal_esplanade_sphere");
            const top = pixel_at(image, CENTRE, CENTRE - 14);
            const bottom = pixel_at(image, CENTRE, CENTRE + 14);
            const luminance = (p: number[]) => 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
            expect(luminance(top)).toBeGreaterThan(1.5 * luminance(bottom));
            expect(luminance(bottom)).toBeGreaterThan(0);
            for (const p of [top, bottom, pixel_at(image, 1, 1)]) for (const c of p) expect(Number.isFinite(c)).toBe(true);
            renderer.destroy();
            environment.destroy();
        });
    });

    it("without an environment the lighting is as before: the shader text and the picture; taking it away restores both", async () => {
        // the environment-free shaders never mention it
        for (const shadows of [false, true]) {
            expect(deferred_wgsl(shadows)).not.toMatch(/environment_|EnvironmentUniforms/);
            expect(deferred_compute_wgsl(shadows)).not.toMatch(/environment_|EnvironmentUniforms/);
            expect(deferred_wgsl(shadows, true)).toMatch(/environment_light\(n, v, albedo, roughness, metalness\) \* occlusion/);
        }
        await with_gpu_device(async (device) => {
            const { scene, renderer, frame } = sphere_scene(device, new StandardMaterial({ base_color: [0.6, 0.3, 0.2, 1], roughness: 0.4 }));
            scene.sun.intensity = 2;
            scene.sun.direction.set([-1, -1, -1]);
            scene.ambient.set([0.1, 0.1, 0.2]);
            const before = await frame();
            const environment = new Environment(uniform(0.3, 0.6, 0.9), SMALL);
            scene.environment = environment;
            const with_environment = await frame();
            expect(pixel_at(with_environment, 1, 1)[2]).toBeCloseTo(0.9, 2);
            expect(pixel_at(with_environment, CENTRE, CENTRE)[2]).not.toBeCloseTo(pixel_at(before, CENTRE, CENTRE)[2], 2);
            scene.environment = null;
            const after = await frame();
            expect([...after.data]).toEqual([...before.data]);
            renderer.destroy();
            environment.destroy();
        });
    });
});
