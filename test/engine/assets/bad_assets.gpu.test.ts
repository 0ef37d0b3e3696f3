// Bad assets are errors, never crashes: each case fails the load with an AssetError naming the file and the glTF
// JSON path, leaves no GPU object behind (the memory tracker's counts come back), and the next load still works.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AssetError } from "../../../engine/assets/AssetError.js";
import type { DecodedImage } from "../../../engine/assets/DecodedImage.js";
import { default_image_decoder } from "../../../engine/assets/default_image_decoder.js";
import type { ImageDecoder } from "../../../engine/assets/ImageDecoder.js";
import { load_gltf } from "../../../engine/assets/load_gltf.js";
import { GPUMemoryTracker } from "../../../shade/device/GPUMemoryTracker.js";
import { encode_png, with_gpu_device } from "../../harness/index.js";
import { FOX, MemoryReader, box_files } from "./asset_files.js";

interface BadCase {
    readonly name: string;
    /** Makes the files; returns the URL to load. */
    readonly make: (reader: MemoryReader, device: GPUDevice) => string;
    readonly path: string;
    readonly reason: RegExp;
    readonly decoder?: ImageDecoder;
}

/** The box with a second primitive whose indices (accessors[4]) are `indices`, appended to the buffer. */
function box_with_second_primitive(reader: MemoryReader, indices: number[]): Record<string, any> {
    const json = box_files(reader);
    const bin = reader.files.get("box/BoxTextured0.bin")!;
    const extra = new Uint8Array(bin.length + 8);
    extra.set(bin);
    new Uint16Array(extra.buffer, bin.length, 3).set(indices);
    reader.set("box/BoxTextured0.bin", extra);
    json.buffers[0].byteLength = extra.length;
    json.bufferViews.push({ buffer: 0, byteOffset: bin.length, byteLength: 6 });
    json.accessors.push({ bufferView: 3, componentType: 5123, count: 3, type: "SCALAR" });
    json.meshes[0].primitives.push({ ...json.meshes[0].primitives[0], indices: 4 });
    return json;
}

const CASES: readonly BadCase[] = [
    {
        name: "a truncated GLB",
        make: (reader) => {
            const fox = readFileSync(FOX);
            reader.set("fox.glb", fox.subarray(0, fox.length >> 1));
            return "fox.glb";
        },
        path: "",
        reason: /is a truncated GLB: the header says 162852 bytes; the file has 81426/,
    },
    {
        name: "a missing buffer",
        make: (reader) => {
            const json = box_files(reader);
            json.buffers[0].uri = "missing.bin";
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "buffers[0].uri",
        reason: /'box\/missing\.bin' could not be read \(ENOENT/,
    },
    {
        name: "a missing image",
        make: (reader) => {
            const json = box_files(reader);
            json.images[0].uri = "missing.png";
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "images[0].uri",
        reason: /'box\/missing\.png' could not be read \(ENOENT/,
    },
    {
        name: "an accessor out of its buffer view's bounds (named where it is used)",
        make: (reader) => {
            const json = box_files(reader);
            json.accessors[0].count = 40; // 80 bytes of indices in a 72-byte view
            json.accessors[0].max = undefined;
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "meshes[0].primitives[0].indices",
        reason: /accessors\[0\] reads bytes 0\.\.80 of bufferViews\[0\], which holds 72/,
    },
    {
        name: "a buffer shorter than it declares",
        make: (reader) => {
            const json = box_files(reader);
            reader.set("box/BoxTextured0.bin", reader.files.get("box/BoxTextured0.bin")!.subarray(0, 800));
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "buffers[0]",
        reason: /declares 840 bytes, but its data has 800/,
    },
    {
        name: "an index beyond the vertex count",
        make: (reader) => {
            const json = box_with_second_primitive(reader, [0, 1, 24]);
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "meshes[0].primitives[1].indices",
        reason: /index 24 at position 2 is beyond the 24 vertices/,
    },
    {
        name: "a texture larger than the device's limit",
        make: (reader, device) => {
            const json = box_files(reader);
            const width = device.limits.maxTextureDimension2D + 1;
            reader.set("box/CesiumLogoFlat.png", encode_png(width, 1, new Uint8Array(width * 4)));
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "images[0]",
        reason: /is 8193x1, larger than the device's maxTextureDimension2D \(8192\)/,
    },
    {
        name: "an unknown required extension",
        make: (reader) => {
            const json = box_files(reader);
            json.extensionsUsed = ["KHR_texture_transform", "EXT_made_up"];
            json.extensionsRequired = ["KHR_texture_transform", "EXT_made_up"];
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "extensionsRequired[1]",
        reason: /requires extension 'EXT_made_up', which this loader does not support/,
    },
    {
        name: "a cyclic node graph",
        make: (reader) => {
            const json = box_files(reader);
            json.nodes[1].children = [0];
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "nodes[1].children[0]",
        reason: /makes node 0 its own ancestor: the node graph has a cycle \(nodes 0 -> 1 -> 0\)/,
    },
    {
        name: "an image that does not decode",
        make: (reader) => {
            const json = box_files(reader);
            const png = new Uint8Array(reader.files.get("box/CesiumLogoFlat.png")!);
            png.fill(7, 100); // the signature and header stay; the compressed data is garbage
            reader.set("box/CesiumLogoFlat.png", png);
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        path: "images[0]",
        reason: /could not be decoded as image\/png/,
    },
    {
        name: "a GPU failure after some objects were made (an image decoded to 0x0: its texture is invalid)",
        make: (reader) => {
            const json = box_with_second_primitive(reader, [0, 1, 2]);
            // a second image, used as emissive: the first texture is made before the second fails
            reader.set("box/second.png", reader.files.get("box/CesiumLogoFlat.png")!);
            json.images.push({ uri: "second.png" });
            json.textures.push({ source: 1 });
            json.materials[0].emissiveTexture = { index: 1 };
            return reader.set("box/box.gltf", json), "box/box.gltf";
        },
        decoder: {
            async decode(bytes: Uint8Array, mime: string): Promise<DecodedImage> {
                const image = await default_image_decoder().decode(bytes, mime);
                // the second decode comes back empty
                return (zero_next = !zero_next) ? image : { kind: "pixels", width: 0, height: 0, data: new Uint8Array(0) };
            },
        },
        path: "",
        reason: /could not be put on the GPU/,
    },
];
let zero_next = false;

describe("load_gltf refuses bad assets", () => {
    for (const bad of CASES) {
        it(`${bad.name}: an AssetError at '${bad.path}', nothing left on the GPU, the next load works`, async () => {
            await with_gpu_device(async (device) => {
                const tracker = GPUMemoryTracker.install(device);
                const reader = new MemoryReader();
                const url = bad.make(reader, device);
                const before = [tracker.buffer_count, tracker.texture_count, tracker.buffer_bytes, tracker.texture_bytes];
                const error = await load_gltf(url, { device, reader, decoder: bad.decoder }).then(
                    () => null,
                    (e: unknown) => e,
                );
                expect(error).toBeInstanceOf(AssetError);
                const asset_error = error as AssetError;
                expect(asset_error.file).toBe(url);
                expect(asset_error.path).toBe(bad.path);
                expect(asset_error.message).toMatch(bad.reason);
                expect(asset_error.message.startsWith(bad.path === "" ? `${url}: ` : `${url}: ${bad.path}: `)).toBe(true);
                expect([tracker.buffer_count, tracker.texture_count, tracker.buffer_bytes, tracker.texture_bytes]).toEqual(before);
                // the engine keeps going: a good file loads on the same device
                const good = new MemoryReader();
                good.set("ok/box.gltf", box_files(good, "ok"));
                const model = await load_gltf("ok/box.gltf", { device, reader: good });
                expect(model.textures.length).toBe(1);
                model.destroy();
            });
        });
    }
});
