// The sun's cascaded shadow map on Dawn: a box on a plane casts its shadow where the sun direction says, and
// a renderer without the shadow extension has no shadow pass, no shadow texture and the lighting unchanged.
import { describe, expect, it } from "vitest";
import { Engine } from "../../../../engine/Engine.js";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { MaterialTexture } from "../../../../shade/renderer/scene/MaterialTexture.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { ShadowExtension } from "../../../../shade/renderer/shadows/ShadowExtension.js";
import { deferred_wgsl } from "../../../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu, pixel_at, read_texture, with_gpu_device, write_readback_png, type TextureReadback, screen_pixel, luminance_at } from "../../../harness/index.js";

const SIZE = 64;

/** A 1 m box standing on a 12 m plane, a sun travelling +x and down at 45 degrees, a camera above and in front. */
function box_on_plane(): Scene {
    const scene = new Scene();
    const grey = new StandardMaterial({ base_color: [0.7, 0.7, 0.7, 1], roughness: 0.9 });
    scene.add(new Mesh(make_plane_geometry(12, 12), grey));
    const box = scene.add(new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial({ base_color: [0.8, 0.3, 0.2, 1], roughness: 0.9 })));
    box.position.set([0, 0.5, 0]);
    scene.sun.direction.set([1, -1, 0]);
    scene.sun.intensity = 3;
    return scene;
}

function renderer_for(device: GPUDevice, scene: Scene, errors: Error[]) {
    const target = new TextureRenderTarget(SIZE, SIZE);
    const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
    const camera = renderer.view.camera;
    camera.position.set([0, 7, 6]);
    camera.target.set([0, 0, 0]);
    camera.fov_y = Math.PI / 4;
    return { renderer, target };
}

/** The output pixel where world point (x, y, z) lands with the camera of the last frame. */
function pixel_of(renderer: Renderer, x: number, y: number, z: number): [number, number] {
    return screen_pixel(renderer.view.camera.view_projection, SIZE, x, y, z);
}

const luminance = luminance_at;

async function render(renderer: Renderer, target: TextureRenderTarget, device: GPUDevice): Promise<TextureReadback> {
    renderer.render_frame();
    return read_texture(device, target.acquire());
}

describe("ShadowExtension on Dawn", () => {
    it("a box on a plane casts a shadow on the plane on the side the sun direction says; without the extension the plane is lit there", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const { renderer, target } = renderer_for(device, box_on_plane(), errors);
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256 }));
            const shadowed = await render(renderer, target, device);
            write_readback_png(shadowed, "shadow_box_on_plane");
            // the sun travels +x and down at 45 degrees: the 1 m box shades the ground from x = 0.5 to 1.5
            const in_shadow = pixel_of(renderer, 1.1, 0, 0);
            const opposite = pixel_of(renderer, -1.1, 0, 0); // the sunlit side, as far from the box
            const beyond = pixel_of(renderer, 2.2, 0, 0); // past the shadow's end
            const lit_left = luminance(shadowed, opposite);
            const dark = luminance(shadowed, in_shadow);
            const lit_right = luminance(shadowed, beyond);
            expect(dark, `shadow at ${in_shadow} vs sunlit ground at ${opposite}`).toBeLessThan(lit_left * 0.5);
            expect(lit_right, "the ground past the shadow's end is sunlit").toBeGreaterThan(lit_left * 0.9);

            renderer.remove_extension(shadows);
            const unshadowed = await render(renderer, target, device);
            write_readback_png(unshadowed, "shadow_box_on_plane_removed");
            expect(luminance(unshadowed, in_shadow), "without the extension, the shadowed ground is as lit as the ground opposite").toBeCloseTo(lit_left, -0.5);
            expect(luminance(unshadowed, opposite)).toBeCloseTo(lit_left, -0.5);
            expect(errors).toEqual([]);
            shadows.destroy();
            renderer.destroy();
        });
    });

    it("a masked material casts its holes: the cut-away half of a leaf lets the sun through, the kept half shades", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            scene.add(new Mesh(make_plane_geometry(12, 12), new StandardMaterial({ base_color: [0.7, 0.7, 0.7, 1], roughness: 0.9 })));
            // a 2 m leaf 1 m up: its left half (u < 0.5) kept, its right half cut away
            const texels = device.createTexture({ label: "leaf", size: [2, 1], format: "rgba8unorm", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
            device.queue.writeTexture({ texture: texels }, new Uint8Array([60, 160, 60, 255, 60, 160, 60, 0]), { bytesPerRow: 8 }, [2, 1]);
            const nearest = { mag_filter: "nearest", min_filter: "nearest", mipmap_filter: "nearest", mipmaps: false } as const;
            const leaf = new StandardMaterial({ base_color_texture: new MaterialTexture(texels, { sampler: nearest }), transparency: "masked", alpha_cutoff: 0.5, double_sided: true });
            scene.add(new Mesh(make_plane_geometry(2, 2), leaf)).position.set([0, 1, 0]);
            scene.sun.direction.set([1, -1, 0]);
            scene.sun.intensity = 3;
            const { renderer, target } = renderer_for(device, scene, errors);
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256 }));
            const image = await render(renderer, target, device);
            write_readback_png(image, "shadow_masked_leaf");
            // the sun travels +x and down at 45 degrees: the kept half [-1, 0] shades the ground at [0, 1], the cut
            // half [0, 1] would shade [1, 2]
            const lit = luminance(image, pixel_of(renderer, -2.5, 0, 0));
            expect(luminance(image, pixel_of(renderer, 0.5, 0, 0)), "under the kept half's shadow").toBeLessThan(lit * 0.5);
            expect(luminance(image, pixel_of(renderer, 1.5, 0, 0)), "where the cut half's shadow would be: sunlit").toBeGreaterThan(lit * 0.9);
            expect(errors).toEqual([]);
            shadows.destroy();
            renderer.destroy();
        });
    });

    it("a masked caster keeps its own uvs where a seam splits vertices of one position (its index is not glued by position)", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            scene.add(new Mesh(make_plane_geometry(12, 12), new StandardMaterial({ base_color: [0.7, 0.7, 0.7, 1], roughness: 0.9 })));
            const texels = device.createTexture({ label: "leaf", size: [2, 1], format: "rgba8unorm", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
            device.queue.writeTexture({ texture: texels }, new Uint8Array([60, 160, 60, 255, 60, 160, 60, 0]), { bytesPerRow: 8 }, [2, 1]);
            const nearest = { mag_filter: "nearest", min_filter: "nearest", mipmap_filter: "nearest", mipmaps: false } as const;
            const leaf = new StandardMaterial({ base_color_texture: new MaterialTexture(texels, { sampler: nearest }), transparency: "masked", alpha_cutoff: 0.5, double_sided: true });
            // two quads meeting at x = 0 with a uv seam there: the left one maps u 0..0.25 (kept), the right one
            // 0.75..1 (cut). Glued by position, the right quad's x = 0 corners would take u 0.25 and keep a third of it.
            const position = Float32Array.of(-1, 0, -1, 0, 0, -1, 0, 0, 1, -1, 0, 1, 0, 0, -1, 1, 0, -1, 1, 0, 1, 0, 0, 1);
            const normal = new Float32Array(24);
            for (let v = 0; v < 8; v++) normal[v * 3 + 1] = 1;
            const uv = Float32Array.of(0, 0, 0.25, 0, 0.25, 1, 0, 1, 0.75, 0, 1, 0, 1, 1, 0.75, 1);
            const seam = new Geometry({ position, normal, uv, index: Uint16Array.of(0, 2, 1, 0, 3, 2, 4, 6, 5, 4, 7, 6) });
            scene.add(new Mesh(seam, leaf)).position.set([0, 1, 0]);
            scene.sun.direction.set([1, -1, 0]);
            scene.sun.intensity = 3;
            const { renderer, target } = renderer_for(device, scene, errors);
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256 }));
            const image = await render(renderer, target, device);
            const lit = luminance(image, pixel_of(renderer, -2.5, 0, 0));
            expect(luminance(image, pixel_of(renderer, 0.5, 0, 0)), "under the kept quad's shadow").toBeLessThan(lit * 0.5);
            for (const x of [1.15, 1.5, 1.85]) expect(luminance(image, pixel_of(renderer, x, 0, 0)), `under the cut quad, x = ${x}: sunlit`).toBeGreaterThan(lit * 0.9);
            expect(errors).toEqual([]);
            shadows.destroy();
            renderer.destroy();
        });
    });

    it("moving the sun moves the shadow: travelling -x, it falls on the other side", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = box_on_plane();
            scene.sun.direction.set([-1, -1, 0]);
            const { renderer, target } = renderer_for(device, scene, errors);
            renderer.add_extension(new ShadowExtension({ resolution: 256, cascades: 2 }));
            const image = await render(renderer, target, device);
            expect(luminance(image, pixel_of(renderer, -1.1, 0, 0))).toBeLessThan(luminance(image, pixel_of(renderer, 1.1, 0, 0)) * 0.5);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("forward transparency is shadowed too: a blended sheet beside the box is darker where the box shades it", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            scene.add(new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial({ base_color: [0.8, 0.3, 0.2, 1] }))).position.set([0, 0.5, 0]);
            // no ground: behind the sheet is the unlit sky, the same everywhere
            const sheet = scene.add(new Mesh(make_plane_geometry(2.4, 3), new StandardMaterial({ base_color: [0.9, 0.9, 0.9, 0.6], roughness: 0.9, transparency: "blended" })));
            sheet.position.set([1.8, 0.3, 0]);
            scene.sun.direction.set([1, -1, 0]);
            const { renderer, target } = renderer_for(device, scene, errors);
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256 }));
            const image = await render(renderer, target, device);
            write_readback_png(image, "shadow_on_transparency");
            // the box's top edge (x 0.5, y 1) shades the sheet at y 0.3 up to x 1.2
            const shaded = pixel_of(renderer, 0.9, 0.3, 0);
            const lit = pixel_of(renderer, 2.0, 0.3, 0);
            expect(luminance(image, shaded)).toBeLessThan(luminance(image, lit) * 0.7);
            renderer.remove_extension(shadows);
            const plain = await render(renderer, target, device);
            expect(luminance(plain, shaded)).toBeGreaterThan(luminance(image, shaded) + 20);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("a mesh with cast_shadows off is drawn but casts nothing; turned on it shades again (a live mesh at once, a frozen one after changed())", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = box_on_plane();
            const box = scene.meshes[1];
            const { renderer, target } = renderer_for(device, scene, errors);
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256 }));
            const shaded = await render(renderer, target, device);
            const in_shadow = pixel_of(renderer, 1.1, 0, 0);
            const opposite = pixel_of(renderer, -1.1, 0, 0);
            const on_box = pixel_of(renderer, 0, 1, 0);
            const lit = luminance(shaded, opposite);
            expect(luminance(shaded, in_shadow), "casting: the ground behind the box is in shadow").toBeLessThan(lit * 0.5);

            box.cast_shadows = false;
            const unshaded = await render(renderer, target, device);
            write_readback_png(unshaded, "shadow_cast_shadows_off");
            expect(luminance(unshaded, in_shadow), "cast_shadows off: the ground behind the box is sunlit").toBeGreaterThan(lit * 0.9);
            expect((await shadows.read_caster_counts(device))[0], "only the plane casts").toBe(1);
            const [r, g, b] = pixel_at(unshaded, on_box[0], on_box[1]);
            expect(r, "the box itself is still drawn (its red top)").toBeGreaterThan(g + 20);
            expect(r).toBeGreaterThan(b + 20);

            box.cast_shadows = true;
            expect(luminance(await render(renderer, target, device), in_shadow), "on again: shadow").toBeLessThan(lit * 0.5);

            // a frozen mesh is read again only after changed(): its flag too
            box.frozen = true;
            await render(renderer, target, device);
            box.cast_shadows = false;
            box.changed();
            expect(luminance(await render(renderer, target, device), in_shadow), "frozen, off after changed(): sunlit").toBeGreaterThan(lit * 0.9);
            box.cast_shadows = true;
            box.changed();
            expect(luminance(await render(renderer, target, device), in_shadow), "frozen, on after changed(): shadow").toBeLessThan(lit * 0.5);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    for (const gpu_culling of [true, false]) {
        it(`culls casters per cascade (${gpu_culling ? "on the GPU" : "on the CPU"}): a box far outside every cascade is not drawn, the shadow stays`, async () => {
            await with_gpu_device(async (device) => {
                const errors: Error[] = [];
                const scene = box_on_plane();
                const far = scene.add(new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial()));
                far.position.set([0, 0.5, 400]); // behind the camera, 400 m away
                const { renderer, target } = renderer_for(device, scene, errors);
                const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256, cascades: 3 }));
                shadows.gpu_culling = gpu_culling;
                renderer.capture_pass_list = true;
                const image = await render(renderer, target, device);
                write_readback_png(image, `shadow_culled_${gpu_culling ? "gpu" : "cpu"}`);
                const names = renderer.last_frame_passes.map((p) => p.name);
                expect(names.includes("shadows / cull"), "the GPU's cull pass runs where it culls").toBe(gpu_culling);
                // the plane reaches into every cascade; the near box at least into the first
                const counts = await shadows.read_caster_counts(device);
                expect(Array.from(counts.subarray(0, 3)).every((n) => n >= 1 && n <= 2), `casters per cascade ${Array.from(counts)}`).toBe(true);
                expect(counts[0]).toBe(2);
                expect(luminance(image, pixel_of(renderer, 1.1, 0, 0))).toBeLessThan(luminance(image, pixel_of(renderer, -1.1, 0, 0)) * 0.5);
                expect(errors).toEqual([]);
                renderer.destroy();
            });
        });
    }

    it("GPU culling draws the shadow map CPU culling draws: a field of boxes across the cascades, a camera sweep, the same casters per cascade and the same picture", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            scene.add(new Mesh(make_plane_geometry(80, 80), new StandardMaterial({ base_color: [0.7, 0.7, 0.7, 1], roughness: 0.9 })));
            const box = make_box_geometry(1, 1, 1);
            const materials = [new StandardMaterial({ base_color: [0.8, 0.3, 0.2, 1] }), new StandardMaterial({ base_color: [0.2, 0.5, 0.8, 1] })];
            for (let x = -6; x <= 6; x++) {
                for (let z = -6; z <= 6; z++) {
                    const mesh = scene.add(new Mesh(box, materials[(x + z) & 1]));
                    const h = 0.5 + ((x * 7 + z * 3) & 3) * 0.5;
                    mesh.position.set([x * 4, h / 2, z * 4]);
                    mesh.scale.set([1, h, 1]);
                    // every fifth casts nothing (the flag is read per slot)
                    if ((x * 13 + z) % 5 === 0) mesh.cast_shadows = false;
                }
            }
            scene.sun.direction.set([0.6, -1, 0.3]);
            scene.sun.intensity = 3;
            const { renderer, target } = renderer_for(device, scene, errors);
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256, cascades: 3, distance: 40 }));
            const camera = renderer.view.camera;
            for (const [i, [x, z]] of ([[0, 6], [-14, -10], [18, 4]] as const).entries()) {
                camera.position.set([x, 6, z]);
                camera.target.set([x * 0.5 + 3, 0, z - 8]);
                shadows.gpu_culling = false;
                const cpu = await render(renderer, target, device);
                const cpu_counts = await shadows.read_caster_counts(device);
                shadows.gpu_culling = true;
                const gpu = await render(renderer, target, device);
                const gpu_counts = await shadows.read_caster_counts(device);
                if (i === 0) write_readback_png(gpu, "shadow_field_gpu_culled");
                expect(Array.from(gpu_counts), `view ${i}: casters per cascade`).toEqual(Array.from(cpu_counts));
                expect(cpu_counts[0], `view ${i}: the first cascade has casters`).toBeGreaterThan(0);
                expect(cpu_counts[2], `view ${i}: the last cascade culls some (of ${scene.meshes.length})`).toBeLessThan(scene.meshes.length - 30);
                let differ = 0;
                for (let k = 0; k < cpu.data.length; k++) if (Math.abs(cpu.data[k] - gpu.data[k]) > 1) differ++;
                expect(differ, `view ${i}: channels that differ between the two pictures`).toBe(0);
            }
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("registered in one line through GraphicsEngine, it shadows again after stop() -> start() (a new device)", async () => {
        const target = new TextureRenderTarget(SIZE, SIZE);
        const errors: Error[] = [];
        const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e: Error) => errors.push(e) } });
        const graphics = engine.graphics;
        graphics.feature_taa_enabled = false;
        const scene = box_on_plane();
        for (const mesh of [...scene.meshes]) {
            scene.remove(mesh);
            graphics.scene.add(mesh);
        }
        graphics.scene.sun.direction.set([1, -1, 0]);
        graphics.view.camera.position.set([0, 7, 6]);
        graphics.view.camera.fov_y = Math.PI / 4;
        engine.graphics.add_extension(new ShadowExtension({ resolution: 256 }));
        for (let round = 0; round < 2; round++) {
            await graphics.start();
            graphics.render();
            const image = await read_texture(graphics.device!, target.acquire());
            const renderer = graphics.renderer!;
            expect(luminance(image, pixel_of(renderer, 1.1, 0, 0)), `round ${round}`).toBeLessThan(luminance(image, pixel_of(renderer, -1.1, 0, 0)) * 0.5);
            await graphics.stop();
        }
        expect(errors).toEqual([]);
    });

    it("costs nothing unregistered: no shadow pass, no shadow texture in the graph, the shadowless lighting shader", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const { renderer, target } = renderer_for(device, box_on_plane(), errors);
            renderer.capture_pass_list = true;
            renderer.capture_graph_dump = true;
            await render(renderer, target, device);
            const names = renderer.last_frame_passes.map((p) => p.name);
            expect(names).toContain("lighting");
            expect(names.filter((n) => /shadow/i.test(n))).toEqual([]);
            expect(renderer.last_frame_dot).not.toMatch(/shadow/i);

            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 128 }));
            await render(renderer, target, device);
            const with_shadows = renderer.last_frame_passes;
            expect(with_shadows.find((p) => p.name === "shadows / cascades")).toEqual({ name: "shadows / cascades", scope: "shadows", culled: false });
            expect(renderer.last_frame_dot).toMatch(/shadow map/);

            renderer.remove_extension(shadows);
            await render(renderer, target, device);
            expect(renderer.last_frame_passes.map((p) => p.name)).toEqual(names);
            expect(renderer.last_frame_dot).not.toMatch(/shadow/i);
            // the shader without shadows binds and samples nothing of them
            expect(deferred_wgsl(false)).not.toMatch(/shadow/i);
            expect(deferred_wgsl(true)).toMatch(/sun_shadow/);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });
});
