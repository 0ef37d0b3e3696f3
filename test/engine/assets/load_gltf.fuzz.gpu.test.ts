// Fuzz: the shared sample files mutated a few hundred times (seeded), bytes of the binary chunk and fields of the
// JSON. Every load ends in a Model or an AssetError, never another exception, and no GPU object outlives it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AssetError } from "../../../engine/assets/AssetError.js";
import type { ImageDecoder } from "../../../engine/assets/ImageDecoder.js";
import { load_gltf } from "../../../engine/assets/load_gltf.js";
import { GPUMemoryTracker } from "../../../shade/device/GPUMemoryTracker.js";
import { with_gpu_device } from "../../harness/index.js";
import { BOX, FOX, MemoryReader, box_files, read_glb, write_glb } from "./asset_files.js";

const SEED = 0x5eed22;
const ROUNDS = 600;

function mulberry32(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** Every [container, key] in a JSON tree (so a field can be replaced or deleted). */
function fields(value: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []): [Record<string, unknown> | unknown[], string | number][] {
    if (Array.isArray(value)) value.forEach((v, i) => (out.push([value, i]), fields(v, out)));
    else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) out.push([value as Record<string, unknown>, k]), fields(v, out);
    return out;
}

function mutate_json(json: any, random: () => number): void {
    const all = fields(json);
    for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
        const [owner, key] = all[Math.floor(random() * all.length)];
        const choices: unknown[] = [undefined, -1, 0, 1, 2, 3, 7, 24, 1e9, 0.5, "x", null, [], {}, [0, 0], true];
        const current = (owner as Record<string | number, unknown>)[key];
        if (typeof current === "number") choices.push(current + 1, current - 1, current * 2);
        const value = choices[Math.floor(random() * choices.length)];
        if (value === undefined && !Array.isArray(owner)) delete (owner as Record<string, unknown>)[key as string];
        else (owner as Record<string | number, unknown>)[key] = value;
    }
}

// the fuzz is after the loader's handling of structure, not JPEG speed: images decode to a small stand-in
const quick_decoder: ImageDecoder = {
    async decode(bytes) {
        if (bytes.length < 8) throw new Error("too short to be an image");
        return { kind: "pixels", width: 4, height: 4, data: new Uint8Array(64).fill(bytes[bytes.length >> 1]) };
    },
};

describe("load_gltf fuzz", () => {
    it(`${ROUNDS} seeded mutations of Fox.glb and BoxTextured: each a Model or an AssetError, the GPU memory back where it was`, async () => {
        await with_gpu_device(async (device) => {
            const tracker = GPUMemoryTracker.install(device);
            const random = mulberry32(SEED);
            const fox = read_glb(FOX);
            const fox_bytes = readFileSync(FOX);
            const outcomes = new Map<string, number>();
            const baseline = [tracker.buffer_count, tracker.texture_count, tracker.buffer_bytes + tracker.texture_bytes];
            const started = performance.now();
            for (let round = 0; round < ROUNDS; round++) {
                const reader = new MemoryReader();
                let url: string;
                const kind = round % 4;
                if (kind === 0) {
                    // bytes of the binary chunk
                    const bin = new Uint8Array(fox.bin);
                    for (let n = 1 + Math.floor(random() * 16); n > 0; n--) bin[Math.floor(random() * bin.length)] = Math.floor(random() * 256);
                    reader.set("fox.glb", write_glb(fox.json, bin));
                    url = "fox.glb";
                } else if (kind === 1) {
                    const json = structuredClone(fox.json);
                    mutate_json(json, random);
                    reader.set("fox.glb", write_glb(json, fox.bin));
                    url = "fox.glb";
                } else if (kind === 2) {
                    const json = box_files(reader);
                    mutate_json(json, random);
                    if (random() < 0.3) {
                        const bin = new Uint8Array(reader.files.get("box/BoxTextured0.bin")!);
                        for (let n = 1 + Math.floor(random() * 8); n > 0; n--) bin[Math.floor(random() * bin.length)] = Math.floor(random() * 256);
                        reader.set("box/BoxTextured0.bin", bin);
                    }
                    reader.set("box/box.gltf", json);
                    url = "box/box.gltf";
                } else {
                    // whole-file bytes: the header, the JSON text, a cut anywhere
                    const bytes = new Uint8Array(fox_bytes);
                    const cut = random() < 0.3 ? Math.floor(random() * bytes.length) : bytes.length;
                    for (let n = 1 + Math.floor(random() * 4); n > 0; n--) bytes[Math.floor(random() * Math.min(cut, 4000))] = Math.floor(random() * 256);
                    reader.set("fox.glb", bytes.subarray(0, cut));
                    url = "fox.glb";
                }
                try {
                    const model = await load_gltf(url, { device, reader, decoder: quick_decoder });
                    model.destroy();
                    outcomes.set("model", (outcomes.get("model") ?? 0) + 1);
                } catch (error) {
                    if (!(error instanceof AssetError)) throw new Error(`round ${round} (seed ${SEED}): not an AssetError: ${String(error)}`, { cause: error });
                    const key = /glTF-Transform/.test(error.reason) ? "(glTF-Transform)" : error.path.replace(/\d+/g, "#").split(".")[0] || "(file)";
                    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
                }
            }
            const seconds = (performance.now() - started) / 1000;
            console.log(`fuzz: ${ROUNDS} rounds in ${seconds.toFixed(1)} s:`, Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1])));
            expect([tracker.buffer_count, tracker.texture_count, tracker.buffer_bytes + tracker.texture_bytes]).toEqual(baseline);
            expect(outcomes.get("model") ?? 0).toBeGreaterThan(0);
            expect(seconds).toBeLessThan(20);
        });
    }, 60_000);
});
