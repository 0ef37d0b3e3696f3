// The deferred renderer's built-in steps on Dawn: G-buffer contents, lighting, transparency.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../shade/renderer/extension/GBufferTextures.js";
import { SceneColor } from "../../../shade/renderer/extension/SceneColor.js";
import { ExtractExtension } from "../../../shade/renderer/extract/ExtractExtension.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { make_sphere_geometry } from "../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { PointLight } from "../../../shade/renderer/scene/PointLight.js";
import { Scene } from "../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { expect_pixel, pixel_at, read_texture, with_gpu_device, write_readback_png } from "../../harness/index.js";

const SIZE = 64;
/** The G-buffer albedo where no mesh is: the scene's default sky, unlit (alpha 0). */
const SKY_ALBEDO = [13, 18, 26, 0];

function capture(name: string, phase: FramePhase, select: (frame: FrameContext) => number) {
    return new ExtractExtension(name, phase, select);
}

function renderer_for(device: GPUDevice, scene: Scene) {
    const target = new TextureRenderTarget(SIZE, SIZE);
    const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false });
    const camera = renderer.view.camera;
    camera.position.set([0, 0, 5]);
    camera.target.set([0, 0, 0]);
    camera.fov_y = Math.PI / 4;
    return { renderer, target };
}

function no_lights(scene: Scene) {
    scene.sun.intensity = 0;
    scene.ambient.set([0, 0, 0]);
}

describe("deferred renderer on Dawn", () => {
    it("tints each mesh by its color, also meshes sharing one geometry and one material (one instanced draw)", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const material = new StandardMaterial({ base_color: [0.8, 0.8, 0.8, 1] });
            const geometry = make_box_geometry(1.2, 1.2, 1.2);
            const left = scene.add(new Mesh(geometry, material));
            left.position.set([-1, 0, 0]);
            left.color.set([1, 0.25, 0.5, 1]);
            const right = scene.add(new Mesh(geometry, material));
            right.position.set([1, 0, 0]);
            right.color.set([0.25, 1, 1, 1]);
            const { renderer } = renderer_for(device, scene);
            const albedo = renderer.add_extension(capture("capture albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo));
            renderer.render_frame();
            let a = await read_texture(device, albedo.texture!);
            write_readback_png(a, "gbuffer_mesh_color");
            expect_pixel(a, 19, 32, [204, 51, 102, 255], 1, "gbuffer_mesh_color");
            expect_pixel(a, 45, 32, [51, 204, 204, 255], 1, "gbuffer_mesh_color");
            // written in place, read the next frame
            left.color.set([0.5, 0.5, 0.5, 1]);
            renderer.render_frame();
            a = await read_texture(device, albedo.texture!);
            expect_pixel(a, 19, 32, [102, 102, 102, 255], 1, "gbuffer_mesh_color");
            renderer.destroy();
        });
    });

    it("static meshes keep their object slots between frames, and any change in place, or a slot moving, shows the next frame", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const geometry = make_box_geometry(0.9, 0.9, 0.9);
            const red = new StandardMaterial({ base_color: [1, 0, 0, 1] });
            const green = new StandardMaterial({ base_color: [0, 1, 0, 1] });
            const a = scene.add(new Mesh(geometry, red));
            a.position.set([-1.2, 0, 0]);
            const b = scene.add(new Mesh(geometry, green));
            b.position.set([0, 0, 0]);
            const c = scene.add(new Mesh(geometry, green));
            c.position.set([1.2, 0, 0]);
            const { renderer } = renderer_for(device, scene);
            const albedo = renderer.add_extension(capture("capture albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo));
            const name = "gbuffer_static_slots";
            const frame = async () => {
                renderer.render_frame();
                return read_texture(device, albedo.texture!);
            };
            for (let i = 0; i < 3; i++) await frame();
            let image = await frame();
            expect_pixel(image, 16, 32, [255, 0, 0, 255], 1, name);
            expect_pixel(image, 32, 32, [0, 255, 0, 255], 1, name);
            // a material's colour changed in place
            green.base_color.set([0, 0, 1, 1]);
            image = await frame();
            expect_pixel(image, 32, 32, [0, 0, 255, 255], 1, name);
            expect_pixel(image, 48, 32, [0, 0, 255, 255], 1, name);
            // a mesh moved after standing still, then stops again: drawn where it is each frame
            c.position[1] = 1;
            image = await frame();
            expect_pixel(image, 48, 32, SKY_ALBEDO, 1, name);
            image = await frame();
            expect_pixel(image, 48, 20, [0, 0, 255, 255], 1, name);
            // removing the first mesh moves the others' slots down: each is still drawn with its own data
            scene.remove(a);
            image = await frame();
            expect_pixel(image, 16, 32, SKY_ALBEDO, 1, name);
            expect_pixel(image, 32, 32, [0, 0, 255, 255], 1, name);
            expect_pixel(image, 48, 20, [0, 0, 255, 255], 1, name);
            write_readback_png(image, name);
            renderer.destroy();
        });
    });

    it("writes the G-buffer of a known scene: ids and material values exact, normals within tolerance", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const material = new StandardMaterial({ base_color: [0.8, 0.2, 0.1, 1], roughness: 0.5, metalness: 1 });
            const box = scene.add(new Mesh(make_box_geometry(2, 2, 2), material));
            const other = scene.add(new Mesh(make_box_geometry(0.5, 0.5, 0.5), new StandardMaterial({ base_color: [0, 1, 0, 1] })));
            other.position.set([1.6, 1.6, 0]);
            const { renderer } = renderer_for(device, scene);
            const grab = (field: "albedo" | "normal" | "material" | "object_id") =>
                renderer.add_extension(capture(`capture ${field}`, FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures)[field]));
            const albedo = grab("albedo");
            const normal = grab("normal");
            const mat = grab("material");
            const ids = grab("object_id");
            renderer.render_frame();
            const a = await read_texture(device, albedo.texture!);
            const n = await read_texture(device, normal.texture!);
            const m = await read_texture(device, mat.texture!);
            const id = await read_texture(device, ids.texture!);
            write_readback_png(a, "gbuffer_albedo");
            expect(pixel_at(id, 32, 32)).toEqual([box.object_id]);
            expect(pixel_at(id, 1, 62)).toEqual([0]); // nothing there
            expect(box.object_id).toBe(1);
            expect(other.object_id).toBe(2);
            expect_pixel(a, 32, 32, [204, 51, 26, 255], 1, "gbuffer_albedo");
            // metalness 1 -> 255, flags: lit, material id
            expect(pixel_at(m, 32, 32)).toEqual([255, 1, material.id & 255, 0]);
            expect(pixel_at(m, 1, 62)).toEqual([0, 0, 0, 0]); // the sky is unlit
            const [nx, ny, nz, roughness] = pixel_at(n, 32, 32);
            expect(Math.abs(nx)).toBeLessThan(0.01);
            expect(Math.abs(ny)).toBeLessThan(0.01);
            expect(nz).toBeCloseTo(1, 2);
            expect(roughness).toBeCloseTo(0.5, 2);
            // the small box up and to the right has its own id
            const found = new Set<number>();
            for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) found.add(pixel_at(id, x, y)[0]);
            expect([...found].sort()).toEqual([0, 1, 2]);
            renderer.destroy();
        });
    });

    it("a lit sphere's brightness follows N.L for a directional light", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            no_lights(scene);
            scene.sun.intensity = 1;
            scene.sun.direction.set([-1, 0, 0]); // light travels -x: it comes from +x
            const albedo = 0.5;
            scene.add(new Mesh(make_sphere_geometry(1.5, 64, 32), new StandardMaterial({ base_color: [albedo, albedo, albedo, 1], roughness: 1 })));
            const { renderer } = renderer_for(device, scene);
            const hdr = renderer.add_extension(capture("capture lit", FramePhase.AfterLighting, (f) => f.get(SceneColor).color));
            const nrm = renderer.add_extension(capture("capture normal", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).normal));
            renderer.render_frame();
            const color = await read_texture(device, hdr.texture!);
            const normals = await read_texture(device, nrm.texture!);
            write_readback_png(color, "lit_sphere");
            // Lambert with roughness 1: the lit term over N.L is about albedo/pi (Fresnel takes a few percent)
            const ratios: number[] = [];
            for (const x of [34, 38, 42, 46, 50]) {
                const n_l = pixel_at(normals, x, 32)[0]; // N.(+x)
                const value = pixel_at(color, x, 32)[0];
                expect(n_l).toBeGreaterThan(0.05);
                ratios.push(value / n_l);
            }
            for (const r of ratios) expect(r / (albedo / Math.PI)).toBeGreaterThan(0.9);
            for (const r of ratios) expect(r / (albedo / Math.PI)).toBeLessThan(1.1);
            // the far side is dark
            expect(pixel_at(color, 16, 32)[0]).toBeLessThan(0.001);
            renderer.destroy();
        });
    });

    it("a point light falls off with the inverse square of distance", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            no_lights(scene);
            const floor = scene.add(new Mesh(make_plane_geometry(20, 20), new StandardMaterial({ base_color: [1, 1, 1, 1], roughness: 1 })));
            floor.rotation.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2]); // +90 deg about x: the plane faces +z, toward the camera
            const light = scene.add_point_light(new PointLight());
            light.position.set([0, 0, 1]);
            light.intensity = 1;
            light.range = 1000; // the window is ~1 here: pure inverse square
            const { renderer } = renderer_for(device, scene);
            const hdr = renderer.add_extension(capture("capture lit", FramePhase.AfterLighting, (f) => f.get(SceneColor).color));
            renderer.render_frame();
            const color = await read_texture(device, hdr.texture!);
            write_readback_png(color, "point_light");
            // on the wall (z = 0) at distance r from the light's foot, E ~ cos(theta) / d^2 = h / d^3 (h = 1)
            const centre = pixel_at(color, 32, 32)[0];
            // 64 px over 2*5*tan(22.5deg) = 4.14 units: 15.45 px per unit; 16 px right is ~1.035 units
            const px_per_unit = SIZE / (2 * 5 * Math.tan(Math.PI / 8));
            const r = 16 / px_per_unit;
            const expected = 1 / Math.pow(1 + r * r, 1.5);
            expect(pixel_at(color, 48, 32)[0] / centre).toBeCloseTo(expected, 1);
            expect(pixel_at(color, 32, 48)[0] / centre).toBeCloseTo(expected, 1);
            renderer.destroy();
        });
    });

    it("a blended quad composes over an opaque one, back to front", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            no_lights(scene);
            scene.ambient.set([1, 1, 1]); // radiance = albedo: compositing is checkable exactly
            const opaque = scene.add(new Mesh(make_plane_geometry(2, 2), new StandardMaterial({ base_color: [0, 0, 1, 1] })));
            opaque.rotation.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
            const glass = scene.add(
                new Mesh(make_plane_geometry(1, 1), new StandardMaterial({ base_color: [1, 0, 0, 0.25], transparency: "blended" })),
            );
            glass.rotation.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
            glass.position.set([0, 0, 1]);
            const { renderer } = renderer_for(device, scene);
            const hdr = renderer.add_extension(capture("capture", FramePhase.AfterTransparency, (f) => f.get(SceneColor).color));
            renderer.render_frame();
            const color = await read_texture(device, hdr.texture!);
            write_readback_png(color, "blended_quad");
            // albedo x ambient (the Lambert ambient term is albedo x ambient here)
            expect_pixel(color, 32, 32, [0.25, 0, 0.75], 0.01, "blended_quad"); // 0.25 red over blue
            expect_pixel(color, 32, 20, [0, 0, 1], 0.01, "blended_quad"); // outside the glass, on the opaque plane
            renderer.destroy();
        });
    });

    it("a base-colour texture multiplies the material colour in the G-buffer", async () => {
        await with_gpu_device(async (device, track) => {
            // 2x2 texels: red, green / blue, white
            const texture = track(
                device.createTexture({ label: "checker", size: [2, 2], format: "rgba8unorm", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST }),
            );
            const texels = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
            device.queue.writeTexture({ texture }, texels, { bytesPerRow: 8 }, [2, 2]);
            const scene = new Scene();
            const quad = scene.add(new Mesh(make_plane_geometry(4, 4), new StandardMaterial({ base_color: [1, 1, 1, 1], base_color_texture: texture })));
            quad.rotation.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2]); // faces the camera; uv (0,0) at top-left
            const { renderer } = renderer_for(device, scene);
            const albedo = renderer.add_extension(capture("capture albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo));
            renderer.render_frame();
            const a = await read_texture(device, albedo.texture!);
            write_readback_png(a, "textured_quad");
            const name = "textured_quad";
            expect_pixel(a, 16, 16, [255, 0, 0], 16, name);
            expect_pixel(a, 47, 16, [0, 255, 0], 16, name);
            expect_pixel(a, 16, 47, [0, 0, 255], 16, name);
            expect_pixel(a, 47, 47, [255, 255, 255], 16, name);
            renderer.destroy();
        });
    });
});
