// Loading the three sample models on Dawn (SwiftShader): what the Model exposes, GPU textures and buffers made,
// the BoxTextured logo read back the right way up, data URIs, and progress events.
import { MaterialTexture, slot_texture } from "../../../shade/renderer/scene/MaterialTexture.js";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GPUMemoryTracker } from "../../../shade/device/GPUMemoryTracker.js";
import type { AssetProgress } from "../../../engine/assets/AssetProgress.js";
import { load_gltf } from "../../../engine/assets/load_gltf.js";
import { make_standard_material } from "../../../engine/assets/make_standard_material.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png } from "../../harness/index.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../shade/renderer/extension/GBufferTextures.js";
import { ExtractExtension } from "../../../shade/renderer/extract/ExtractExtension.js";
import { Renderer } from "../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../shade/renderer/scene/Scene.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { BOX, FOX, HELMET, MemoryReader, box_files, read_glb } from "./asset_files.js";

describe("load_gltf: BoxTextured (.gltf + .bin + png)", () => {
    it("exposes the node tree, the mesh as a Geometry, the material and a mipmapped sRGB texture", async () => {
        await with_gpu_device(async (device) => {
            const model = await load_gltf(BOX, { device });
            expect(model.nodes.map((n) => [n.parent, n.children, n.mesh, n.skin])).toEqual([
                [-1, [1], -1, -1],
                [0, [], 0, -1],
            ]);
            expect(model.scene_roots).toEqual([0]);
            // the root's matrix turns y to -z: -90 degrees about x
            expect([...model.nodes[0].rotation].map((v) => +v.toFixed(4))).toEqual([-0.7071, 0, 0, 0.7071]);
            const primitive = model.meshes[0].primitives[0];
            expect(primitive.geometry.vertex_count).toBe(24);
            expect(primitive.geometry.index.length).toBe(36);
            expect(primitive.geometry.attributes.uv!.count).toBe(24);
            expect(primitive.buffers.index_count).toBe(36);
            expect(primitive.material).toBe(0);
            const material = model.materials[0];
            expect([material.metallic_factor, material.roughness_factor, material.alpha_mode, material.double_sided]).toEqual([0, 1, "OPAQUE", false]);
            expect(material.base_color_texture).toMatchObject({
                texture: 0,
                tex_coord: 0,
                address_mode_u: "repeat",
                address_mode_v: "repeat",
                mag_filter: "linear",
                min_filter: "nearest", // 9986 NEAREST_MIPMAP_LINEAR
                mipmap_filter: "linear",
                mipmaps: true,
                transform: null,
            });
            const texture = model.textures[0];
            expect([texture.image, texture.color_space, texture.width, texture.height]).toEqual([0, "srgb", 256, 256]);
            expect(texture.texture.format).toBe("rgba8unorm-srgb");
            expect(texture.texture.mipLevelCount).toBe(9);
            const standard = make_standard_material(material);
            expect([...standard.base_color, standard.metalness, standard.roughness, standard.transparency]).toEqual([1, 1, 1, 1, 0, 1, "opaque"]);
            model.destroy();
        });
    });

    it("uploads the logo the right way up: sky blue near the top, green near the bottom (uv 0,0 is the top left)", async () => {
        await with_gpu_device(async (device) => {
            const model = await load_gltf(BOX, { device });
            const back = await read_texture(device, model.textures[0].texture);
            const texel = (x: number, y: number) => [...(back.data as Uint8Array).subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 4)];
            // values read from the PNG by hand (pngjs): the sky at (128, 30), the hill at (128, 200), grey corner
            expect(texel(128, 30)).toEqual([91, 156, 215, 255]);
            expect(texel(128, 200)).toEqual([75, 119, 30, 255]);
            expect(texel(0, 0)).toEqual([212, 212, 212, 255]);
            model.destroy();
        });
    });

    it("make_standard_material with the model's textures draws the base colour texture: the logo's blue and green in the G-buffer", async () => {
        await with_gpu_device(async (device) => {
            const model = await load_gltf(BOX, { device });
            const description = model.materials[0];
            const counts: number[][] = [];
            for (const textures of [undefined, model.textures]) {
                const scene = new Scene();
                const material = make_standard_material(description, "box", textures);
                expect(slot_texture(material.base_color_texture)).toBe(textures === undefined ? null : model.textures[0].texture);
                scene.add(new Mesh(model.meshes[0].primitives[0].geometry, material)).rotation.set([0.2, 0.3, 0, 0.93]);
                const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 64), scene, feature_taa_enabled: false });
                renderer.view.camera.position.set([0, 0, 2.2]);
                renderer.view.camera.target.set([0, 0, 0]);
                const albedo = renderer.add_extension(new ExtractExtension("albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo));
                renderer.render_frame();
                const image = await read_texture(device, albedo.texture!);
                if (textures !== undefined) write_readback_png(image, "box_textured_albedo");
                let blue = 0;
                let green = 0;
                for (let y = 0; y < 64; y++) {
                    for (let x = 0; x < 64; x++) {
                        const [r, g, b, a] = pixel_at(image, x, y);
                        if (a === 0) continue;
                        if (b > r + 40 && b > g + 30) blue++;
                        if (g > b + 15 && g > r + 10) green++;
                    }
                }
                counts.push([blue, green]);
                renderer.destroy();
            }
            expect(counts[0], "factors only: white, no logo").toEqual([0, 0]);
            expect(counts[1][0], "sky blue texels drawn").toBeGreaterThan(40);
            expect(counts[1][1], "hill green texels drawn").toBeGreaterThan(20);
            model.destroy();
        });
    });

    it("make_standard_material refuses a texture it would draw wrong (uv set 2, a texture transform), naming the material and slot", async () => {
        await with_gpu_device(async (device) => {
            const model = await load_gltf(BOX, { device });
            const description = model.materials[0];
            const on_uv2 = { ...description, base_color_texture: { ...description.base_color_texture!, tex_coord: 2 } };
            expect(() => make_standard_material(on_uv2, "crate", model.textures)).toThrow("material 'crate': its base colour texture uses uv set 2");
            const on_uv1 = { ...description, base_color_texture: { ...description.base_color_texture!, tex_coord: 1 } };
            expect((make_standard_material(on_uv1, "crate", model.textures).base_color_texture as MaterialTexture).uv_set).toBe(1);
            const moved = { ...description, base_color_texture: { ...description.base_color_texture!, transform: { offset: [0, 0] as const, rotation: 0, scale: [2, 2] as const, tex_coord: 0 } } };
            expect(() => make_standard_material(moved, "crate", model.textures)).toThrow("KHR_texture_transform");
            model.destroy();
        });
    });

    it("reads the same box from a .gltf whose buffer and image are data: URIs", async () => {
        await with_gpu_device(async (device) => {
            const reader = new MemoryReader();
            const json = box_files(reader);
            json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(reader.files.get("box/BoxTextured0.bin")!).toString("base64")}`;
            json.images[0].uri = `data:image/png;base64,${Buffer.from(reader.files.get("box/CesiumLogoFlat.png")!).toString("base64")}`;
            reader.files.clear();
            reader.set("inline.gltf", json);
            const model = await load_gltf("inline.gltf", { device, reader });
            expect(reader.reads).toBe(1); // nothing but the .gltf itself
            expect(model.meshes[0].primitives[0].geometry.vertex_count).toBe(24);
            expect(model.textures[0].width).toBe(256);
            model.destroy();
        });
    });

    it("reports progress in bytes and items, ending with everything loaded", async () => {
        await with_gpu_device(async (device) => {
            const events: AssetProgress[] = [];
            const model = await load_gltf(BOX, { device, on_progress: (p) => events.push(p) });
            const last = events[events.length - 1];
            const bytes = [BOX, "samples/assets/BoxTextured/BoxTextured0.bin", "samples/assets/BoxTextured/CesiumLogoFlat.png"].reduce((sum, f) => sum + readFileSync(f).byteLength, 0);
            // three files read and one image decoded
            expect(last).toEqual({ url: BOX, bytes_loaded: bytes, bytes_total: bytes, items_loaded: 4, items_total: 4 });
            for (let i = 1; i < events.length; i++) {
                expect(events[i].bytes_loaded).toBeGreaterThanOrEqual(events[i - 1].bytes_loaded);
                expect(events[i].items_loaded).toBeGreaterThanOrEqual(events[i - 1].items_loaded);
            }
            expect(events.some((e) => e.items_loaded > 0 && e.items_loaded < e.items_total)).toBe(true);
            model.destroy();
        });
    });
});

describe("load_gltf: Fox (skinned, three clips)", () => {
    it("exposes the skin's joints and inverse bind matrices, joints and weights per vertex, and the clips by name", async () => {
        await with_gpu_device(async (device) => {
            const { json, bin } = read_glb(FOX);
            const model = await load_gltf(FOX, { device });
            expect(model.nodes.length).toBe(json.nodes.length);
            expect(model.skins.length).toBe(1);
            const skin = model.skins[0];
            expect(skin.joints).toEqual(json.skins[0].joints);
            expect(skin.skeleton).toBe(json.skins[0].skeleton);
            // the inverse bind matrices as stored in the file
            const ibm = json.accessors[json.skins[0].inverseBindMatrices];
            const view = json.bufferViews[ibm.bufferView];
            const stored = new Float32Array(bin.buffer.slice(bin.byteOffset + (view.byteOffset ?? 0) + (ibm.byteOffset ?? 0), bin.byteOffset + (view.byteOffset ?? 0) + (ibm.byteOffset ?? 0) + 24 * 64));
            expect(skin.inverse_bind_matrices).toEqual(stored);
            const skinned = model.nodes.find((n) => n.skin === 0)!;
            expect(skinned.mesh).toBe(0);
            const geometry = model.meshes[0].primitives[0].geometry;
            expect(geometry.vertex_count).toBe(1728);
            expect(geometry.attributes.joints!.item_size).toBe(4);
            expect(geometry.attributes.weights!.count).toBe(1728);
            expect(geometry.attributes.normal!.count).toBe(1728); // computed: the Fox has none
            const max_joint = Math.max(...geometry.attributes.joints!.array);
            expect(max_joint).toBeLessThan(24);
            expect(model.animations.map((a) => a.name)).toEqual(["Survey", "Walk", "Run"]);
            expect(model.clip("Walk")!.channels.length).toBe(json.animations[1].channels.length);
            expect(model.clip("Nope")).toBe(null);
            expect(model.textures.map((t) => t.color_space)).toEqual(["srgb"]);
            model.destroy();
        });
    });
});

describe("load_gltf: DamagedHelmet (five embedded JPEG textures)", () => {
    it("makes five GPU textures (base colour and emissive sRGB, the rest linear) and two buffers, all freed by destroy", async () => {
        await with_gpu_device(async (device) => {
            const tracker = GPUMemoryTracker.install(device);
            const before = { textures: tracker.texture_count, buffers: tracker.buffer_count, bytes: tracker.texture_bytes + tracker.buffer_bytes };
            const model = await load_gltf(HELMET, { device });
            const material = model.materials[0];
            const space = (ref: typeof material.base_color_texture) => model.textures[ref!.texture].color_space;
            expect([space(material.base_color_texture), space(material.emissive_texture)]).toEqual(["srgb", "srgb"]);
            expect([space(material.metallic_roughness_texture), space(material.normal_texture), space(material.occlusion_texture)]).toEqual(["linear", "linear", "linear"]);
            expect(model.textures.map((t) => t.texture.format).sort()).toEqual(["rgba8unorm", "rgba8unorm", "rgba8unorm", "rgba8unorm-srgb", "rgba8unorm-srgb"]);
            expect(new Set(model.textures.map((t) => t.image)).size).toBe(5);
            expect([...material.emissive_factor]).toEqual([1, 1, 1]);
            // generate_mipmaps keeps its pipelines and sampler (no buffers or textures): the counts are the model's
            expect(tracker.texture_count - before.textures).toBe(5);
            expect(tracker.buffer_count - before.buffers).toBe(2);
            expect(model.meshes[0].primitives[0].geometry.vertex_count).toBe(14556);
            expect(model.meshes[0].primitives[0].buffers.index_count).toBe(46356);
            model.destroy();
            expect(tracker.texture_count).toBe(before.textures);
            expect(tracker.buffer_count).toBe(before.buffers);
            expect(tracker.texture_bytes + tracker.buffer_bytes).toBe(before.bytes);
        });
    });
});
