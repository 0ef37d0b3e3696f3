// The extensions the loader reads, on documents built with glTF-Transform: EXT_meshopt_compression and
// KHR_draco_mesh_compression (decoders loaded only when a file needs them), KHR_mesh_quantization,
// KHR_texture_transform and KHR_materials_emissive_strength.
import { Document, WebIO } from "@gltf-transform/core";
import { EXTMeshoptCompression, KHRDracoMeshCompression, KHRMaterialsEmissiveStrength, KHRMeshQuantization, KHRTextureTransform } from "@gltf-transform/extensions";
import draco3d from "draco3dgltf";
import { MeshoptEncoder } from "meshoptimizer/encoder";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gltf_decoders_loaded } from "../../../engine/assets/load_gltf_decoders.js";
import { load_gltf } from "../../../engine/assets/load_gltf.js";
import type { Model } from "../../../engine/assets/Model.js";
import { with_gpu_device } from "../../harness/index.js";
import { BOX, MemoryReader } from "./asset_files.js";

const EXTENSIONS = [EXTMeshoptCompression, KHRDracoMeshCompression, KHRMaterialsEmissiveStrength, KHRMeshQuantization, KHRTextureTransform];

/** BoxTextured as a glTF-Transform document (its external files read from disk). */
async function box_document(): Promise<Document> {
    return new WebIO().registerExtensions(EXTENSIONS).readJSON({
        json: JSON.parse(readFileSync(BOX, "utf8")),
        resources: {
            "BoxTextured0.bin": new Uint8Array(readFileSync("samples/assets/BoxTextured/BoxTextured0.bin")),
            "CesiumLogoFlat.png": new Uint8Array(readFileSync("samples/assets/BoxTextured/CesiumLogoFlat.png")),
        },
    });
}

async function load_written(device: GPUDevice, doc: Document, dependencies: Record<string, unknown> = {}): Promise<Model> {
    await MeshoptEncoder.ready;
    const glb = await new WebIO().registerExtensions(EXTENSIONS).registerDependencies(dependencies).writeBinary(doc);
    return load_gltf("made.glb", { device, reader: new MemoryReader().set("made.glb", glb) });
}

/** The box's triangles as sorted position triples (compression may reorder vertices and indices). */
function triangles(model: Model): string[] {
    const g = model.meshes[0].primitives[0].geometry;
    const p = g.attributes.position.array;
    const out: string[] = [];
    for (let t = 0; t < g.index.length; t += 3) {
        const corners = [0, 1, 2].map((k) => [0, 1, 2].map((c) => p[g.index[t + k] * 3 + c].toFixed(2)).join(","));
        out.push(corners.sort().join(" "));
    }
    return out.sort();
}

describe("glTF extensions", () => {
    it("loads no decoder for a plain file; meshopt and draco files load theirs, once, and read as the plain box", async () => {
        await with_gpu_device(async (device) => {
            const plain = await load_gltf(BOX, { device });
            expect(gltf_decoders_loaded()).toEqual([]);
            const reference = triangles(plain);
            expect(reference.length).toBe(12);

            const meshopt_doc = await box_document();
            meshopt_doc.createExtension(EXTMeshoptCompression).setRequired(true);
            const meshopt = await load_written(device, meshopt_doc, { "meshopt.encoder": MeshoptEncoder });
            expect(gltf_decoders_loaded()).toEqual(["meshopt"]);
            expect(triangles(meshopt)).toEqual(reference);

            const draco_doc = await box_document();
            draco_doc.createExtension(KHRDracoMeshCompression).setRequired(true);
            const encoder = await draco3d.createEncoderModule({});
            const draco = await load_written(device, draco_doc, { "draco3d.encoder": encoder });
            const again = await load_written(device, draco_doc, { "draco3d.encoder": encoder });
            expect(gltf_decoders_loaded()).toEqual(["meshopt", "draco"]);
            expect(triangles(draco)).toEqual(reference);
            expect(draco.textures.length).toBe(1);
            for (const model of [plain, meshopt, draco, again]) model.destroy();
        });
    });

    it("KHR_mesh_quantization: normalised 16-bit positions and 8-bit uvs read as floats", async () => {
        await with_gpu_device(async (device) => {
            const doc = new Document();
            doc.createExtension(KHRMeshQuantization).setRequired(true);
            const buffer = doc.createBuffer();
            const position = doc.createAccessor().setType("VEC3").setArray(new Int16Array([0, 0, 0, 32767, 0, 0, 0, -32767, 0])).setNormalized(true).setBuffer(buffer);
            const uv = doc.createAccessor().setType("VEC2").setArray(new Uint8Array([0, 0, 255, 0, 0, 51])).setNormalized(true).setBuffer(buffer);
            const prim = doc.createPrimitive().setAttribute("POSITION", position).setAttribute("TEXCOORD_0", uv);
            doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)));
            const model = await load_written(device, doc);
            const g = model.meshes[0].primitives[0].geometry;
            expect([...g.attributes.position.array]).toEqual([0, 0, 0, 1, 0, 0, 0, -1, 0]);
            expect([...g.attributes.uv!.array].map((v) => +v.toFixed(3))).toEqual([0, 0, 1, 0, 0, 0.2]);
            expect([...g.index]).toEqual([0, 1, 2]); // unindexed: made sequential
            model.destroy();
        });
    });

    it("KHR_texture_transform and KHR_materials_emissive_strength reach the material description", async () => {
        await with_gpu_device(async (device) => {
            const doc = await box_document();
            const material = doc.getRoot().listMaterials()[0];
            const transform = doc.createExtension(KHRTextureTransform).createTransform().setOffset([0.25, 0.5]).setRotation(0.5).setScale([2, 3]).setTexCoord(1);
            material.getBaseColorTextureInfo()!.setExtension("KHR_texture_transform", transform);
            material.setEmissiveFactor([1, 0.5, 0]).setEmissiveTexture(material.getBaseColorTexture());
            material.setExtension("KHR_materials_emissive_strength", doc.createExtension(KHRMaterialsEmissiveStrength).createEmissiveStrength().setEmissiveStrength(4));
            material.setAlphaMode("MASK").setAlphaCutoff(0.3).setDoubleSided(true);
            const model = await load_written(device, doc);
            const m = model.materials[0];
            expect(m.base_color_texture!.transform).toEqual({ offset: [0.25, 0.5], rotation: 0.5, scale: [2, 3], tex_coord: 1 });
            expect(m.emissive_strength).toBe(4);
            expect([...m.emissive_factor]).toEqual([1, 0.5, 0]);
            expect([m.alpha_mode, m.alpha_cutoff, m.double_sided]).toEqual(["MASK", expect.closeTo(0.3, 6), true]);
            // the same image as colour twice (base colour, emissive): one sRGB texture
            expect(model.textures.map((t) => t.color_space)).toEqual(["srgb"]);
            expect(m.emissive_texture!.texture).toBe(m.base_color_texture!.texture);
            model.destroy();
        });
    });
});
