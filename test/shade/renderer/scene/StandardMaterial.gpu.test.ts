// The metallic-roughness material's parts on Dawn, each against the picture without it: masked cutoff, double-sided
// faces, the second uv set, the sampler's filter, emissive light and ambient occlusion.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../../shade/renderer/extension/GBufferTextures.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ExtractExtension } from "../../../../shade/renderer/extract/ExtractExtension.js";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_plane_geometry } from "../../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { MaterialTexture } from "../../../../shade/renderer/scene/MaterialTexture.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial, type StandardMaterialSpec } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, type TextureReadback } from "../../../harness/index.js";

const SIZE = 48;
/** +90 degrees about x: the plane (normal +y) faces +z, the camera; its uv's v grows downwards on screen. */
const FACING = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];
/** -90 degrees about x: the plane shows the camera its back. */
const AWAY = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

/** A 2x1 rgba8unorm texture: left texel, right texel. */
function two_texels(device: GPUDevice, left: number[], right: number[]): GPUTexture {
    const texture = device.createTexture({ label: "two texels", size: [2, 1], format: "rgba8unorm", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    device.queue.writeTexture({ texture }, new Uint8Array([...left, ...right]), { bytesPerRow: 8 }, [2, 1]);
    return texture;
}

/** A 3x3 plane whose first uv set is pinned to the left texel and whose second is the plane's real uvs. */
function two_uv_sets_plane(): Geometry {
    const plane = make_plane_geometry(3, 3);
    return new Geometry({
        position: plane.attributes.position.array,
        normal: plane.attributes.normal!.array,
        uv: new Float32Array(plane.vertex_count * 2).fill(0.1),
        uv1: plane.attributes.uv!.array,
        index: plane.index,
    });
}

const NEAREST = { mag_filter: "nearest", min_filter: "nearest", mipmap_filter: "nearest", mipmaps: false } as const;

interface Frame {
    albedo: TextureReadback;
    normal: TextureReadback;
    lit: TextureReadback;
}

/** A renderer of `scene` into a SIZE x SIZE texture, without TAA, looking down -z from 5 units away. */
function renderer_for(device: GPUDevice, scene: Scene, on_error?: (error: Error) => void): Renderer {
    const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, on_error });
    renderer.view.camera.position.set([0, 0, 5]);
    renderer.view.camera.target.set([0, 0, 0]);
    renderer.view.camera.fov_y = Math.PI / 4;
    return renderer;
}

/** Draws one 3x3 plane with `spec` (rotated by `rotation`) and reads back the G-buffer albedo, normal and the lit colour. */
async function draw(device: GPUDevice, spec: StandardMaterialSpec, options: { rotation?: number[]; geometry?: Geometry; setup?: (scene: Scene) => void } = {}): Promise<Frame> {
    const scene = new Scene();
    scene.sun.intensity = 0;
    scene.ambient.set([0, 0, 0]);
    options.setup?.(scene);
    const mesh = scene.add(new Mesh(options.geometry ?? make_plane_geometry(3, 3), new StandardMaterial({ roughness: 1, ...spec })));
    mesh.rotation.set(options.rotation ?? FACING);
    const renderer = renderer_for(device, scene);
    const capture = (name: string, phase: FramePhase, select: (f: FrameContext) => number) => renderer.add_extension(new ExtractExtension(name, phase, select));
    const albedo = capture("albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo);
    const normal = capture("normal", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).normal);
    const lit = capture("lit", FramePhase.AfterLighting, (f) => f.get(SceneColor).color);
    renderer.render_frame();
    const frame = { albedo: await read_texture(device, albedo.texture!), normal: await read_texture(device, normal.texture!), lit: await read_texture(device, lit.texture!) };
    renderer.destroy();
    return frame;
}

/** Covered (G-buffer albedo alpha 1) at a quarter and three quarters across the middle row. */
function covered(frame: Frame): [boolean, boolean] {
    return [pixel_at(frame.albedo, SIZE / 4, SIZE / 2)[3] === 255, pixel_at(frame.albedo, (3 * SIZE) / 4, SIZE / 2)[3] === 255];
}

describe("StandardMaterial on Dawn", () => {
    it("masked: coverage below alpha_cutoff leaves a hole; opaque draws the same texels whole", async () => {
        await with_gpu_device(async (device) => {
            const texture = new MaterialTexture(two_texels(device, [255, 255, 255, 255], [255, 255, 255, 60]), { sampler: NEAREST });
            expect(covered(await draw(device, { base_color_texture: texture, transparency: "masked", alpha_cutoff: 0.5 }))).toEqual([true, false]);
            // 60/255 = 0.24 passes a lower cutoff
            expect(covered(await draw(device, { base_color_texture: texture, transparency: "masked", alpha_cutoff: 0.2 }))).toEqual([true, true]);
            expect(covered(await draw(device, { base_color_texture: texture, transparency: "opaque" }))).toEqual([true, true]);
        });
    });

    it("double-sided: a plane seen from behind is drawn, its normal turned to the viewer; single-sided it is culled", async () => {
        await with_gpu_device(async (device) => {
            expect(covered(await draw(device, {}, { rotation: AWAY }))).toEqual([false, false]);
            const back = await draw(device, { double_sided: true }, { rotation: AWAY });
            expect(covered(back)).toEqual([true, true]);
            // the plane's own normal points away (-z); the G-buffer has it towards the camera
            expect(pixel_at(back.normal, SIZE / 2, SIZE / 2)[2]).toBeGreaterThan(0.99);
        });
    });

    it("uv set 1: a texture on uv1 follows the geometry's second uv set, not the first", async () => {
        await with_gpu_device(async (device) => {
            const geometry = two_uv_sets_plane();
            const red_green = two_texels(device, [255, 0, 0, 255], [0, 255, 0, 255]);
            const on = (uv_set: 0 | 1) => new MaterialTexture(red_green, { uv_set, sampler: NEAREST });
            const left_right = (frame: Frame) => [pixel_at(frame.albedo, SIZE / 4, SIZE / 2).slice(0, 3), pixel_at(frame.albedo, (3 * SIZE) / 4, SIZE / 2).slice(0, 3)];
            expect(left_right(await draw(device, { base_color_texture: on(1) }, { geometry }))).toEqual([[255, 0, 0], [0, 255, 0]]);
            expect(left_right(await draw(device, { base_color_texture: on(0) }, { geometry }))).toEqual([[255, 0, 0], [255, 0, 0]]);
        });
    });

    it("a texture slot assigned after the first frame, moved to the other uv set and emptied: each frame draws what the slot holds, frozen or not", async () => {
        await with_gpu_device(async (device) => {
            const geometry = two_uv_sets_plane();
            const red_green = two_texels(device, [255, 0, 0, 255], [0, 255, 0, 255]);
            for (const frozen of [false, true]) {
                const scene = new Scene();
                scene.sun.intensity = 0;
                const material = new StandardMaterial({ roughness: 1 });
                const mesh = scene.add(new Mesh(geometry, material));
                mesh.rotation.set(FACING);
                mesh.frozen = frozen;
                const renderer = renderer_for(device, scene);
                const albedo = renderer.add_extension(new ExtractExtension("albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo));
                const left_right = async () => {
                    renderer.render_frame();
                    const a = await read_texture(device, albedo.texture!);
                    return [pixel_at(a, SIZE / 4, SIZE / 2).slice(0, 3), pixel_at(a, (3 * SIZE) / 4, SIZE / 2).slice(0, 3)];
                };
                const white = [255, 255, 255];
                expect(await left_right()).toEqual([white, white]);
                material.base_color_texture = new MaterialTexture(red_green, { uv_set: 1, sampler: NEAREST });
                expect(await left_right(), `on uv set 1 (frozen: ${frozen})`).toEqual([[255, 0, 0], [0, 255, 0]]);
                material.base_color_texture = new MaterialTexture(red_green, { uv_set: 0, sampler: NEAREST });
                expect(await left_right(), `on uv set 0 (frozen: ${frozen})`).toEqual([[255, 0, 0], [255, 0, 0]]);
                material.base_color_texture = null;
                expect(await left_right(), `emptied (frozen: ${frozen})`).toEqual([white, white]);
                renderer.destroy();
            }
        });
    });

    it("the sampler's filter: nearest magnifies two texels into two flat halves, linear blends between them", async () => {
        await with_gpu_device(async (device) => {
            const red_green = two_texels(device, [255, 0, 0, 255], [0, 255, 0, 255]);
            const blended = (frame: Frame) => {
                let count = 0;
                for (let x = 0; x < SIZE; x++) {
                    const [r, g, , a] = pixel_at(frame.albedo, x, SIZE / 2);
                    if (a === 255 && r > 40 && g > 40) count++;
                }
                return count;
            };
            expect(blended(await draw(device, { base_color_texture: new MaterialTexture(red_green, { sampler: NEAREST }) }))).toBe(0);
            expect(blended(await draw(device, { base_color_texture: new MaterialTexture(red_green, { sampler: { address_mode_u: "clamp-to-edge" } }) }))).toBeGreaterThan(6);
        });
    });

    it("emissive adds light in the dark; occlusion darkens the ambient light only, never the sun", async () => {
        await with_gpu_device(async (device) => {
            const centre = (frame: Frame) => pixel_at(frame.lit, SIZE / 2, SIZE / 2).slice(0, 3);
            // no light at all: emissive alone, times its texture
            expect(centre(await draw(device, {})).every((c) => c === 0)).toBe(true);
            const glow = centre(await draw(device, { emissive: [0.5, 0.25, 0], emissive_texture: two_texels(device, [255, 255, 255, 255], [255, 255, 255, 255]) }));
            expect(glow[0]).toBeCloseTo(0.5, 2);
            expect(glow[1]).toBeCloseTo(0.25, 2);
            const half = two_texels(device, [128, 0, 0, 255], [128, 0, 0, 255]);
            const masked_glow = centre(await draw(device, { emissive: [0.5, 0.5, 0.5], emissive_texture: new MaterialTexture(half, { sampler: NEAREST }) }));
            expect(masked_glow[0]).toBeCloseTo(0.5 * (128 / 255), 2);
            expect(masked_glow[1]).toBe(0);

            // ambient only: occlusion 0.25 at full strength scales it by 0.25, at strength 0.5 by 0.625
            const ambient = (scene: Scene) => scene.ambient.set([0.2, 0.2, 0.2]);
            const occlusion = new MaterialTexture(two_texels(device, [64, 0, 0, 255], [64, 0, 0, 255]), { sampler: NEAREST });
            const open = centre(await draw(device, {}, { setup: ambient }))[0];
            expect(open).toBeCloseTo(0.2, 2);
            expect(centre(await draw(device, { occlusion_texture: occlusion }, { setup: ambient }))[0] / open).toBeCloseTo(64 / 255, 2);
            expect(centre(await draw(device, { occlusion_texture: occlusion, occlusion_strength: 0.5 }, { setup: ambient }))[0] / open).toBeCloseTo(1 - 0.5 * (1 - 64 / 255), 2);

            // sun and ambient: occlusion takes away exactly the ambient share
            const sun_and_ambient = (scene: Scene) => {
                ambient(scene);
                scene.sun.intensity = 1;
                scene.sun.direction.set([0, 0, -1]);
            };
            const lit = centre(await draw(device, {}, { setup: sun_and_ambient }))[0];
            const lit_occluded = centre(await draw(device, { occlusion_texture: occlusion }, { setup: sun_and_ambient }))[0];
            expect(lit).toBeGreaterThan(open + 0.1);
            expect(lit - lit_occluded).toBeCloseTo(open * (1 - 64 / 255), 2);
        });
    });

    it("a normal map tilts the G-buffer normal along the tangent frame: from the geometry's tangents, else from screen derivatives", async () => {
        await with_gpu_device(async (device) => {
            const plane = make_plane_geometry(3, 3);
            const tangent = new Float32Array(plane.vertex_count * 4);
            for (let i = 0; i < plane.vertex_count; i++) tangent.set([1, 0, 0, 1], i * 4);
            const with_tangents = new Geometry({ position: plane.attributes.position.array, normal: plane.attributes.normal!.array, uv: plane.attributes.uv!.array, tangent, index: plane.index });
            const centre = (frame: Frame) => pixel_at(frame.normal, SIZE / 2, SIZE / 2).slice(0, 3);
            // +x in tangent space is +u (right on screen); +y is up the image (glTF), up on screen here
            const right = two_texels(device, [255, 128, 128, 255], [255, 128, 128, 255]);
            const up = two_texels(device, [128, 255, 128, 255], [128, 255, 128, 255]);
            for (const geometry of [plane, with_tangents]) {
                const tilted_right = centre(await draw(device, { normal_texture: right }, { geometry }));
                expect(tilted_right[0]).toBeGreaterThan(0.95);
                const tilted_up = centre(await draw(device, { normal_texture: up }, { geometry }));
                expect(tilted_up[1]).toBeGreaterThan(0.95);
                // normal_scale 0: flat again
                expect(centre(await draw(device, { normal_texture: up, normal_scale: 0 }, { geometry }))[2]).toBeGreaterThan(0.99);
            }
        });
    });

    it("materials with and without a normal map on one geometry in one frame: each draws with its vertex layout, in either order", async () => {
        await with_gpu_device(async (device) => {
            const right = two_texels(device, [255, 128, 128, 255], [255, 128, 128, 255]);
            const plane = make_plane_geometry(1.2, 3);
            for (const mapped_first of [true, false]) {
                // materials sort by creation: the first made draws first
                const made = mapped_first
                    ? [new StandardMaterial({ normal_texture: right, label: "mapped" }), new StandardMaterial({ label: "flat" })]
                    : [new StandardMaterial({ label: "flat" }), new StandardMaterial({ normal_texture: right, label: "mapped" })];
                const [mapped, flat] = mapped_first ? made : [made[1], made[0]];
                const errors: Error[] = [];
                const scene = new Scene();
                scene.sun.intensity = 0;
                const left_mesh = scene.add(new Mesh(plane, flat));
                left_mesh.rotation.set(FACING);
                left_mesh.position.set([-0.8, 0, 0]);
                const right_mesh = scene.add(new Mesh(plane, mapped));
                right_mesh.rotation.set(FACING);
                right_mesh.position.set([0.8, 0, 0]);
                const renderer = renderer_for(device, scene, (e) => errors.push(e));
                const normal = renderer.add_extension(new ExtractExtension("normal", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).normal));
                renderer.render_frame();
                const n = await read_texture(device, normal.texture!);
                renderer.destroy();
                expect(errors).toEqual([]);
                expect(pixel_at(n, SIZE / 4, SIZE / 2)[2], `flat on the left (${mapped_first ? "mapped" : "flat"} first)`).toBeGreaterThan(0.99);
                expect(pixel_at(n, (3 * SIZE) / 4, SIZE / 2)[0], `tilted on the right (${mapped_first ? "mapped" : "flat"} first)`).toBeGreaterThan(0.95);
            }
        });
    });
    it("a mesh given another material after its first frame draws with the new one's pipeline, also out of an instanced run, frozen or not (masked after opaque, and back)", async () => {
        await with_gpu_device(async (device) => {
            for (const frozen of [false, true]) {
                const texture = new MaterialTexture(two_texels(device, [255, 255, 255, 255], [255, 255, 255, 60]), { sampler: NEAREST });
                const opaque = new StandardMaterial({ base_color_texture: texture, transparency: "opaque", label: "opaque" });
                const masked = new StandardMaterial({ base_color_texture: texture, transparency: "masked", alpha_cutoff: 0.5, label: "masked" });
                const scene = new Scene();
                scene.sun.intensity = 0;
                // two planes of one geometry and material: one instanced run
                const plane = make_plane_geometry(1.2, 3);
                const left = scene.add(new Mesh(plane, opaque));
                left.rotation.set(FACING);
                left.position.set([-0.8, 0, 0]);
                const right = scene.add(new Mesh(plane, opaque));
                right.rotation.set(FACING);
                right.position.set([0.8, 0, 0]);
                left.frozen = frozen;
                right.frozen = frozen;
                const renderer = renderer_for(device, scene);
                const albedo = renderer.add_extension(new ExtractExtension("albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo));
                // each plane's right half (its texels of alpha 60/255): x = -0.5 and 1.1 in the world, 11.6 pixels a unit
                const coverage = async (): Promise<[boolean, boolean]> => {
                    renderer.render_frame();
                    const a = await read_texture(device, albedo.texture!);
                    return [pixel_at(a, 18, SIZE / 2)[3] === 255, pixel_at(a, 37, SIZE / 2)[3] === 255];
                };
                expect(await coverage()).toEqual([true, true]);
                right.material = masked;
                expect(await coverage(), `the right plane masked (frozen: ${frozen})`).toEqual([true, false]);
                right.material = opaque;
                expect(await coverage(), `opaque again (frozen: ${frozen})`).toEqual([true, true]);
                renderer.destroy();
            }
        });
    });
});
