// The dynamic pool's position region: rewriting only the positions of many geometries uploads one contiguous span
// of exactly their position bytes - what one raw writeBuffer of the positions uploads - and nothing of their colours
// or indices; the pixels follow. Dawn (SwiftShader on CI); writeBuffer is counted by wrapping the queue's method.
import { describe, expect, it } from "vitest";
import { GPUDynamicMeshRenderer } from "../../../../shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { DynamicMesh } from "../../../../shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "../../../../shade/renderer/scene/DynamicMeshBatch.js";
import { expect_pixel, read_texture, with_gpu_device } from "../../../harness/index.js";
import { DynamicScene } from "./dynamic_scene.js";

const SIZE = 64;
const BARS = 8;
/** Points per bar (two vertices each): a ribbon of 64 segments, as in the peers' ribbons workload. */
const POINTS = 65;
const VERTICES = POINTS * 2;
const HALF_WIDTH = 0.1;
/** World x of bar i at the plane z = 0 (3 units from the camera, 60 degree fov: 1.732 units per half screen). */
const bar_x = (i: number): number => -1.2 + i * 0.3;
const pixel_x = (x: number): number => Math.round(SIZE / 2 + (x / (3 * Math.tan(Math.PI / 6))) * (SIZE / 2) - 0.5);
const GREY_8 = [128, 128, 128, 255];
const RED_8 = [255, 0, 0, 255];

/** A vertical ribbon at `x`, y in [-0.3, 0.3], red per vertex, 16-bit index. */
function bar(x: number): Geometry {
    const position = new Float32Array(VERTICES * 3);
    const color = new Float32Array(VERTICES * 4);
    const index = new Uint16Array((POINTS - 1) * 6);
    write_bar(position, x);
    for (let v = 0; v < VERTICES; v++) color.set([1, 0, 0, 1], v * 4);
    for (let s = 0; s < POINTS - 1; s++) index.set([s * 2, s * 2 + 1, s * 2 + 2, s * 2 + 1, s * 2 + 3, s * 2 + 2], s * 6);
    return new Geometry({ position, color, index });
}

function write_bar(position: Float32Array, x: number): void {
    for (let p = 0; p < POINTS; p++) {
        const y = -0.3 + (0.6 * p) / (POINTS - 1);
        position.set([x - HALF_WIDTH, y, 0, x + HALF_WIDTH, y, 0], p * 6);
    }
}

/** Calls `fn` with the queue's writeBuffer counted: the byte size of every call (the rest passed through). */
function count_uploads(device: GPUDevice, fn: () => void): number[] {
    const queue = device.queue;
    const original = queue.writeBuffer;
    const sizes: number[] = [];
    queue.writeBuffer = function (this: GPUQueue, buffer: GPUBuffer, offset: number, data: BufferSource, data_offset?: number, size?: number): undefined {
        sizes.push(size ?? data.byteLength - (data_offset ?? 0));
        return original.call(this, buffer, offset, data as GPUAllowSharedBufferSource, data_offset, size);
    } as GPUQueue["writeBuffer"];
    try {
        fn();
    } finally {
        delete (queue as { writeBuffer?: unknown }).writeBuffer;
        if (queue.writeBuffer !== original) queue.writeBuffer = original;
    }
    return sizes;
}

describe("dynamic pool: position-only updates upload one span", () => {
    it("rewriting the positions of every geometry uploads one writeBuffer of exactly their bytes (raw's), and the bars move", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = new DynamicScene(device, track, { width: SIZE, height: SIZE, format: "rgba8unorm", scene_color: { r: 0.5, g: 0.5, b: 0.5, a: 1 }, clear_depth: 1 });
            const renderer = new GPUDynamicMeshRenderer({ label: "bars", cull_mode: "none" });
            const batch = new DynamicMeshBatch();
            const geometries: Geometry[] = [];
            const meshes: DynamicMesh[] = [];
            for (let i = 0; i < BARS; i++) {
                const geometry = bar(bar_x(i));
                geometries.push(geometry);
                meshes.push(batch.add(DynamicMesh.from(geometry, [1, 1, 1, 1])));
                meshes[i].updateMatrices();
            }
            scene.draw(renderer, batch);
            let image = await read_texture(device, scene.color);
            for (let i = 0; i < BARS; i++) expect_pixel(image, pixel_x(bar_x(i)), 32, RED_8, 2, "position_span_before");

            // what raw uploads for this update: one writeBuffer of every geometry's positions
            const raw_bytes = BARS * VERTICES * 12;
            const shift = 0.15;
            const move_all = (list: Geometry[], by: number): void => {
                for (const g of list) {
                    const position = g.attributes.position.array;
                    for (let k = 0; k < position.length; k += 3) position[k] += by;
                    g.attributes.position.needsUpdate = true;
                }
            };
            move_all(geometries, shift);
            let sizes = count_uploads(device, () => renderer.upload(device, batch));
            expect(sizes, "one call of exactly the position bytes").toEqual([raw_bytes]);
            scene.draw(renderer, batch);
            image = await read_texture(device, scene.color);
            for (let i = 0; i < BARS; i++) {
                expect_pixel(image, pixel_x(bar_x(i)), 32, GREY_8, 2, "position_span_after");
                expect_pixel(image, pixel_x(bar_x(i) + shift), 32, RED_8, 2, "position_span_after");
            }

            // the lowest geometry leaves (its range freed after a frame undrawn); the others' positions still
            // go up as one span of exactly their bytes, the gap below them not included
            batch.remove(meshes[0]);
            scene.draw(renderer, batch);
            scene.draw(renderer, batch);
            expect(renderer.geometry_count).toBe(BARS - 1);
            move_all(geometries.slice(1), -shift);
            sizes = count_uploads(device, () => renderer.upload(device, batch));
            expect(sizes).toEqual([(BARS - 1) * VERTICES * 12]);
            scene.draw(renderer, batch);
            image = await read_texture(device, scene.color);
            expect_pixel(image, pixel_x(bar_x(0)), 32, GREY_8, 2, "position_span_removed");
            for (let i = 1; i < BARS; i++) expect_pixel(image, pixel_x(bar_x(i)), 32, RED_8, 2, "position_span_removed");

            // a colour-only update uploads the colours alone: one span, no positions
            for (const g of geometries.slice(1)) g.attributes.color!.needsUpdate = true;
            sizes = count_uploads(device, () => renderer.upload(device, batch));
            expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan((BARS - 1) * VERTICES * 16 + 16 * 1024 * 2);
            expect(sizes.length).toBe(1);
            renderer.destroy();
            scene.destroy();
        });
    });

    it("a whole frame of position-only updates uploads the position span and no mesh record; a moved or recoloured mesh adds its record alone", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = new DynamicScene(device, track, { width: SIZE, height: SIZE, format: "rgba8unorm", scene_color: { r: 0.5, g: 0.5, b: 0.5, a: 1 }, clear_depth: 1 });
            const renderer = new GPUDynamicMeshRenderer({ label: "bars", cull_mode: "none" });
            const batch = new DynamicMeshBatch();
            const geometries: Geometry[] = [];
            const meshes: DynamicMesh[] = [];
            for (let i = 0; i < BARS; i++) {
                geometries.push(bar(bar_x(i)));
                meshes.push(batch.add(DynamicMesh.from(geometries[i], [1, 1, 1, 1])));
                meshes[i].updateMatrices();
            }
            scene.draw(renderer, batch);
            const raw_bytes = BARS * VERTICES * 12;
            const record_bytes = 96;
            const nudge = (by: number): void => {
                for (const g of geometries) {
                    const position = g.attributes.position.array;
                    for (let k = 1; k < position.length; k += 3) position[k] += by;
                    g.attributes.position.needsUpdate = true;
                }
            };

            // positions alone: the frame (pool and mesh table) uploads one span of exactly the position bytes
            nudge(0.01);
            let sizes = count_uploads(device, () => scene.draw(renderer, batch));
            expect(sizes, "a position-only frame").toEqual([raw_bytes]);
            // nothing flagged, nothing moved: nothing uploaded
            sizes = count_uploads(device, () => scene.draw(renderer, batch));
            expect(sizes, "an unchanged frame").toEqual([]);

            // the second mesh moves: its record alone goes up, and its bar follows
            const shift = 0.15;
            meshes[1].position[0] += shift;
            meshes[1].updateMatrices();
            sizes = count_uploads(device, () => scene.draw(renderer, batch));
            expect(sizes, "one moved mesh").toEqual([record_bytes]);
            let image = await read_texture(device, scene.color);
            expect_pixel(image, pixel_x(bar_x(1)), 32, GREY_8, 2, "record_moved");
            expect_pixel(image, pixel_x(bar_x(1) + shift), 32, RED_8, 2, "record_moved");

            // the third mesh's colour alone changes (half transparent): its record alone goes up
            meshes[2].set_color([1, 1, 1, 0.5]);
            sizes = count_uploads(device, () => scene.draw(renderer, batch));
            expect(sizes, "one recoloured mesh").toEqual([record_bytes]);
            image = await read_texture(device, scene.color);
            expect_pixel(image, pixel_x(bar_x(2)), 32, [191, 64, 64, 255], 2, "record_recoloured");
            expect_pixel(image, pixel_x(bar_x(3)), 32, RED_8, 2, "record_recoloured");

            // a ninth mesh arrives: the header's mesh count changes (its first vertex does not), and it is drawn
            const ninth = batch.add(DynamicMesh.from(bar(bar_x(BARS)), [1, 1, 1, 1]));
            ninth.updateMatrices();
            scene.draw(renderer, batch);
            image = await read_texture(device, scene.color);
            expect_pixel(image, pixel_x(bar_x(BARS)), 32, RED_8, 2, "record_added");

            // the lowest mesh leaves: the records after it shift down and are re-sent; every bar still right
            batch.remove(meshes[0]);
            scene.draw(renderer, batch);
            image = await read_texture(device, scene.color);
            expect_pixel(image, pixel_x(bar_x(BARS)), 32, RED_8, 2, "record_removed");
            expect_pixel(image, pixel_x(bar_x(0)), 32, GREY_8, 2, "record_removed");
            expect_pixel(image, pixel_x(bar_x(1) + shift), 32, RED_8, 2, "record_removed");
            expect_pixel(image, pixel_x(bar_x(2)), 32, [191, 64, 64, 255], 2, "record_removed");
            for (let i = 3; i < BARS; i++) expect_pixel(image, pixel_x(bar_x(i)), 32, RED_8, 2, "record_removed");
            renderer.destroy();
            scene.destroy();
        });
    });
});
