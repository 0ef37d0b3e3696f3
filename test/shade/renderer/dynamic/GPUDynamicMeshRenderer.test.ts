// GPUDynamicMeshRenderer on a real WebGPU device (Dawn; SwiftShader on CI), drawn through a hand-built frame
// graph standing in for the renderer at AfterTransparency. Pixels are read back and checked.
import { vec3 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { GPUDynamicMeshRenderer } from "../../../../shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { DynamicMesh } from "../../../../shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "../../../../shade/renderer/scene/DynamicMeshBatch.js";
import { expect_pixel, read_texture, with_gpu_device, write_readback_png } from "../../../harness/index.js";
import { DynamicScene } from "./dynamic_scene.js";

const SIZE = 64;
const GREY = { r: 0.5, g: 0.5, b: 0.5, a: 1 };
const MARKER = [1, 0.2, 0, 0.8];

// Camera at z = 3 looking at the origin, 60 degree fov, near 0.1, far 200. The unit box's front face
// (z = 0.5) is at distance 2.5: NDC depth 0.9605; its back face (z = -0.5) is at 0.9719. Clearing the scene
// depth to 0.965 lets the front face through and stops the back face, so a wrongly culled box stays hidden.
// The front face spans x, y in [-0.5, 0.5] -> pixels ~20.9 .. 43.1. The left half of the screen carries a
// near quad at depth 0.1, nearer than the box: the box is hidden there.
const SCENE_DEPTH = 0.965;
const NEAR_DEPTH = 0.1;

/**
 * Straight-alpha "over" of `c` (RGBA) on an opaque `scene` grey, in 8-bit units: rgb = a * c + (1 - a) * scene,
 * alpha = a + (1 - a) * 1. `scene` is the stored 8-bit value (0.5 is stored as 128).
 */
function over_8bit(c: number[], scene: number): number[] {
    const a = c[3];
    const s = scene / 255;
    return [0, 1, 2].map((i) => (a * c[i] + (1 - a) * s) * 255).concat([255]);
}

// 8-bit units: the blend is computed in float and rounded once on store
const TOLERANCE_8 = 2;
const GREY_8 = [128, 128, 128, 255];

function marker_scene(device: GPUDevice, track: Parameters<Parameters<typeof with_gpu_device>[0]>[1], format: GPUTextureFormat = "rgba8unorm") {
    return new DynamicScene(device, track, {
        width: SIZE,
        height: SIZE,
        format,
        scene_color: GREY,
        clear_depth: SCENE_DEPTH,
        near_depth: NEAR_DEPTH,
    });
}

describe("GPUDynamicMeshRenderer (Dawn)", () => {
    it("draws a box with [1, 0.2, 0, 0.8] over the scene with straight-alpha-over colour, hidden where the scene is nearer", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            const mesh = DynamicMesh.from(make_box_geometry(1, 1, 1), MARKER);
            mesh.updateMatrices();
            batch.add(mesh);

            expect(scene.draw(renderer, batch)).toBe(1);
            const image = await read_texture(device, scene.color);
            const name = "dynamic_mesh_marker";
            const path = write_readback_png(image, name);
            const blended = over_8bit(MARKER, 128); // [229.6, 66.4, 25.6, 255]
            expect_pixel(image, 38, 32, blended, TOLERANCE_8, name); // right half, inside the box
            expect_pixel(image, 42, 22, blended, TOLERANCE_8, name);
            expect_pixel(image, 26, 32, GREY_8, 0, name); // inside the box, behind the near quad
            expect_pixel(image, 10, 32, GREY_8, 0, name); // outside
            expect_pixel(image, 50, 32, GREY_8, 0, name);
            expect_pixel(image, 38, 50, GREY_8, 0, name);
            console.info(`marker read-back: ${path}`);
            renderer.destroy();
            scene.destroy();
        });
    });

    it("blends the same way into an rgba16float scene colour", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track, "rgba16float");
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            batch.add(DynamicMesh.from(make_box_geometry(), MARKER)).updateMatrices();
            scene.draw(renderer, batch);
            const image = await read_texture(device, scene.color);
            // exact in float: 0.8 * [1, 0.2, 0] + 0.2 * 0.5; half precision is ~5e-4 near 1
            expect_pixel(image, 38, 32, [0.9, 0.26, 0.1, 1], 2e-3, "dynamic_mesh_marker_f16");
            expect_pixel(image, 26, 32, [0.5, 0.5, 0.5, 1], 0, "dynamic_mesh_marker_f16");
            renderer.destroy();
            scene.destroy();
        });
    });

    it("multiplies per-vertex RGBA colour with the mesh colour", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const box = make_box_geometry();
            const colors = new Float32Array(box.vertex_count * 4);
            for (let v = 0; v < box.vertex_count; v++) colors.set([0.5, 1, 1, 0.5], v * 4);
            const geometry = new Geometry({ position: box.attributes.position.array, color: colors, index: box.index });
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            batch.add(DynamicMesh.from(geometry, MARKER)).updateMatrices();
            scene.draw(renderer, batch);
            const image = await read_texture(device, scene.color);
            expect_pixel(image, 38, 32, over_8bit([0.5, 0.2, 0, 0.4], 128), TOLERANCE_8, "dynamic_mesh_vertex_color");
            renderer.destroy();
            scene.destroy();
        });
    });

    it("moves the box the frame after its vertices are rewritten with needsUpdate, and not without the flag", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            const geometry = make_box_geometry(1, 1, 1);
            batch.add(DynamicMesh.from(geometry, MARKER)).updateMatrices();
            const blended = over_8bit(MARKER, 128);
            const name = "dynamic_mesh_move";

            scene.draw(renderer, batch);
            expect(renderer.upload_count).toBe(1);
            let image = await read_texture(device, scene.color);
            expect_pixel(image, 38, 32, blended, TOLERANCE_8, name);
            expect_pixel(image, 50, 32, GREY_8, 0, name);

            // shift +0.6 in x: the front face spans x in [0.1, 1.1] -> pixels ~34.2 .. 56.4
            const position = geometry.attributes.position.array;
            for (let i = 0; i < position.length; i += 3) position[i] += 0.6;

            // without the flag: nothing watches the arrays, the box stays
            scene.draw(renderer, batch);
            expect(renderer.upload_count).toBe(1);
            image = await read_texture(device, scene.color);
            expect_pixel(image, 38, 32, blended, TOLERANCE_8, name);
            expect_pixel(image, 33, 32, blended, TOLERANCE_8, name);
            expect_pixel(image, 50, 32, GREY_8, 0, name);

            const version = geometry.version;
            geometry.needsUpdate = true;
            expect(geometry.version).toBeGreaterThan(version);
            scene.draw(renderer, batch);
            expect(renderer.upload_count).toBe(2);
            expect(geometry.needsUpdate).toBe(false); // the renderer cleared it
            image = await read_texture(device, scene.color);
            write_readback_png(image, "dynamic_mesh_moved");
            expect_pixel(image, 33, 32, GREY_8, 0, name);
            expect_pixel(image, 50, 32, blended, TOLERANCE_8, name);
            expect_pixel(image, 38, 32, blended, TOLERANCE_8, name);

            // and the next frame, flag cleared, draws the same without uploading
            scene.draw(renderer, batch);
            expect(renderer.upload_count).toBe(2);
            renderer.destroy();
            scene.destroy();
        });
    });

    it("uploads only the attributes flagged: positions moved with position.needsUpdate keep the colours uploaded before", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const box = make_box_geometry();
            const colors = new Float32Array(box.vertex_count * 4);
            for (let v = 0; v < box.vertex_count; v++) colors.set([0.5, 1, 1, 0.5], v * 4);
            const geometry = new Geometry({ position: box.attributes.position.array.slice(), color: colors, index: box.index });
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            batch.add(DynamicMesh.from(geometry, MARKER)).updateMatrices();
            const name = "dynamic_mesh_attribute_update";
            const first = over_8bit([0.5, 0.2, 0, 0.4], 128);
            scene.draw(renderer, batch);
            let image = await read_texture(device, scene.color);
            expect_pixel(image, 38, 32, first, TOLERANCE_8, name);

            // move +0.6 in x (front face ~34..56 px) and change the colours in the array, flagging positions only
            const position = geometry.attributes.position.array;
            for (let i = 0; i < position.length; i += 3) position[i] += 0.6;
            for (let v = 0; v < geometry.vertex_count; v++) colors.set([1, 1, 1, 1], v * 4);
            geometry.attributes.position.needsUpdate = true;
            scene.draw(renderer, batch);
            expect(geometry.needsUpdate).toBe(false);
            image = await read_texture(device, scene.color);
            expect_pixel(image, 33, 32, GREY_8, 0, name); // moved away
            expect_pixel(image, 50, 32, first, TOLERANCE_8, name); // moved there, with the colours uploaded first

            // now the colours
            geometry.attributes.color!.needsUpdate = true;
            scene.draw(renderer, batch);
            image = await read_texture(device, scene.color);
            expect_pixel(image, 50, 32, over_8bit(MARKER, 128), TOLERANCE_8, name);
            renderer.destroy();
            scene.destroy();
        });
    });

    it("an empty batch returns the colour handle unchanged, records no pass and leaves the pixels exactly as they were", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            scene.fill();
            const before = await read_texture(device, scene.color);
            const frame = scene.begin();
            const color = renderer.graph_draw({ graph: scene.graph, batch, color: frame.color, depth: frame.depth, camera: scene.camera.buffer });
            expect(color).toBe(frame.color);
            expect(scene.graph.pass_count).toBe(0);
            expect(scene.graph.is_current(frame.color)).toBe(true);
            expect(scene.end()).toBe(0);
            const after = await read_texture(device, scene.color);
            expect(Array.from(after.data)).toEqual(Array.from(before.data));

            // a batch emptied after drawing is the same: no pass
            const mesh = batch.add(DynamicMesh.from(make_box_geometry(), MARKER));
            mesh.updateMatrices();
            expect(scene.draw(renderer, batch)).toBe(1);
            batch.remove(mesh);
            expect(batch.count).toBe(0);
            expect(scene.draw(renderer, batch)).toBe(0);
            renderer.destroy();
            scene.destroy();
        });
    });

    it("records one pass '<label> / draw' that reads the depth and loads and writes the colour", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const renderer = new GPUDynamicMeshRenderer({ label: "markers" });
            const batch = new DynamicMeshBatch();
            batch.add(DynamicMesh.from(make_box_geometry(), MARKER)).updateMatrices();
            scene.fill();
            const frame = scene.begin();
            const color = renderer.graph_draw({ graph: scene.graph, batch, color: frame.color, depth: frame.depth, camera: scene.camera.buffer });
            expect(color).not.toBe(frame.color);
            expect(scene.graph.is_current(frame.color)).toBe(false);
            expect(scene.graph.is_current(frame.depth)).toBe(true); // read, not written
            expect(scene.graph.pass_count).toBe(1);
            expect(scene.graph.compile()).toBe(1);
            expect(scene.graph.is_culled("markers / draw")).toBe(false);
            expect(scene.graph.attachment_ops(color)).toEqual({ load: "load", store: "store" });
            const dot = scene.graph.dump();
            expect(dot).toContain("markers / draw");
            expect(scene.execute_compiled()).toBe(1);
            renderer.destroy();
            scene.destroy();
        });
    });

    it("draws 10,000 small meshes, each its own geometry, in one frame and one draw", async () => {
        await with_gpu_device(async (device, track) => {
            const W = 200;
            const GRID = 100;
            const scene = new DynamicScene(device, track, {
                width: W,
                height: W,
                format: "rgba8unorm",
                scene_color: { r: 0, g: 0, b: 0, a: 1 },
                clear_depth: 1,
            });
            // the plane z = 0 at distance 3 spans [-h, h] with h = 3 tan(30 deg); cells of 2 x 2 pixels
            const half = 3 * Math.tan(Math.PI / 6);
            const cell = (2 * half) / GRID;
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            const color_of = (col: number, row: number) => [col / (GRID - 1), row / (GRID - 1), (col + row) % 2, 1];
            for (let row = 0; row < GRID; row++) {
                for (let col = 0; col < GRID; col++) {
                    // thin boxes, 0.9 of a cell wide: each pixel centre is well inside one cell
                    const mesh = DynamicMesh.from(make_box_geometry(cell * 0.9, cell * 0.9, cell * 0.1), color_of(col, row));
                    vec3.set(mesh.position, -half + (col + 0.5) * cell, -half + (row + 0.5) * cell, 0);
                    mesh.updateMatrices();
                    batch.add(mesh);
                }
            }
            expect(batch.count).toBe(10_000);
            const started = performance.now();
            expect(scene.draw(renderer, batch)).toBe(1);
            const image = await read_texture(device, scene.color);
            const ms = performance.now() - started;
            write_readback_png(image, "dynamic_mesh_10k");
            expect(renderer.geometry_count).toBe(10_000);
            expect(renderer.upload_count).toBe(10_000);
            let checked = 0;
            // pixel (2c, 2r') sits at the centre of cell c (x) and the cell row counted from the bottom
            for (const [col, row] of [[0, 0], [99, 0], [0, 99], [99, 99], [50, 50], [13, 87], [72, 5], [37, 61], [88, 44], [1, 98]]) {
                const x = 2 * col + 1;
                const y = W - 1 - (2 * row + 1);
                const expected = color_of(col, row).map((v) => Math.round(v * 255));
                expect_pixel(image, x, y, expected, TOLERANCE_8, "dynamic_mesh_10k");
                checked++;
            }
            expect(checked).toBe(10);
            console.info(`10,000 meshes: frame + read-back ${ms.toFixed(0)} ms on this adapter`);

            // one frame later, nothing flagged: nothing uploaded again
            scene.draw(renderer, batch);
            expect(renderer.upload_count).toBe(10_000);
            renderer.destroy();
            scene.destroy();
        });
    });

    it("fails with a clear message when used after destroy()", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const renderer = new GPUDynamicMeshRenderer({ label: "markers" });
            const batch = new DynamicMeshBatch();
            batch.add(DynamicMesh.from(make_box_geometry(), MARKER)).updateMatrices();
            scene.draw(renderer, batch);
            renderer.destroy();
            renderer.destroy(); // idempotent
            const frame = scene.begin();
            expect(() =>
                renderer.graph_draw({ graph: scene.graph, batch, color: frame.color, depth: frame.depth, camera: scene.camera.buffer }),
            ).toThrow("GPUDynamicMeshRenderer 'markers': graph_draw called after destroy(); build a new renderer");
            expect(() => renderer.upload(device, batch)).toThrow(/after destroy\(\)/);
            scene.end();
            scene.destroy();
        });
    });

    it("a mesh never placed with updateMatrices() fails with a clear message", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            batch.add(DynamicMesh.from(make_box_geometry(), MARKER));
            // thrown inside the draw pass, whose error may wrap it (naming the pass): read the cause chain too
            let messages = "";
            try {
                scene.draw(renderer, batch);
            } catch (error) {
                for (let e: unknown = error; e instanceof Error; e = e.cause) messages += `${e.message}\n`;
            }
            expect(messages).toMatch(/world_matrix read before updateMatrices\(\)/);
            scene.graph.reset();
            renderer.destroy();
            scene.destroy();
        });
    });

    it("on a new device (a renderer restart) the same renderer rebuilds its GPU objects and draws correctly", async () => {
        const renderer = new GPUDynamicMeshRenderer();
        const batch = new DynamicMeshBatch();
        const geometry = make_box_geometry();
        batch.add(DynamicMesh.from(geometry, MARKER)).updateMatrices();
        const blended = over_8bit(MARKER, 128);
        const seen: GPUDevice[] = [];
        for (let run = 0; run < 2; run++) {
            await with_gpu_device(async (device, track) => {
                seen.push(device);
                const scene = marker_scene(device, track);
                scene.draw(renderer, batch);
                const image = await read_texture(device, scene.color);
                expect_pixel(image, 38, 32, blended, TOLERANCE_8, `dynamic_mesh_restart_${run}`);
                expect_pixel(image, 26, 32, GREY_8, 0, `dynamic_mesh_restart_${run}`);
                scene.destroy();
            });
        }
        expect(seen[0]).not.toBe(seen[1]);
        // geometry is re-uploaded from its arrays on the new device, though it was never flagged
        expect(renderer.upload_count).toBe(2);
        renderer.destroy();
    });

    it("grows its pool as geometry arrives without losing what was uploaded; two draws a frame; a large geometry takes the direct path", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const renderer = new GPUDynamicMeshRenderer();
            const first = new DynamicMeshBatch();
            first.add(DynamicMesh.from(make_box_geometry(), MARKER)).updateMatrices();
            scene.draw(renderer, first);
            const capacity = renderer.pool_capacity;

            // a second batch, drawn in the same frame, with a geometry larger than the whole pool (its
            // positions go straight from the array to the GPU): all vertices at the origin but one triangle
            // in the top-right corner, on the plane z = 0.5 (pixel half-extent there: 2.5 tan 30 deg)
            const big = new DynamicMeshBatch();
            const vertices = Math.ceil(capacity / 12) + 1000;
            const position = new Float32Array(vertices * 3);
            position.set([0.9, 0.9, 0.5, 1.4, 0.9, 0.5, 1.4, 1.4, 0.5]);
            const geometry = new Geometry({ position, index: new Uint32Array([0, 1, 2]) });
            big.add(DynamicMesh.from(geometry, [0, 0, 1, 1])).updateMatrices();

            const frame = (): void => {
                scene.fill();
                const handles = scene.begin();
                const camera = scene.camera.buffer;
                let color = renderer.graph_draw({ graph: scene.graph, batch: first, color: handles.color, depth: handles.depth, camera });
                color = renderer.graph_draw({ graph: scene.graph, batch: big, color, depth: handles.depth, camera });
                expect(scene.end()).toBe(2);
            };
            frame();
            expect(renderer.pool_capacity).toBeGreaterThan(capacity);
            let image = await read_texture(device, scene.color);
            const name = "dynamic_mesh_grow";
            // the box (uploaded in an earlier frame, into the smaller pool) still draws from the grown one
            expect_pixel(image, 38, 32, over_8bit(MARKER, 128), TOLERANCE_8, name);
            expect_pixel(image, 56, 8, [0, 0, 255, 255], 0, name);

            // move the triangle 16 pixels down: a direct re-upload of the large array
            const step = (16 / 32) * 2.5 * Math.tan(Math.PI / 6);
            for (let i = 0; i < 3; i++) position[i * 3 + 1] -= step;
            geometry.needsUpdate = true;
            frame();
            image = await read_texture(device, scene.color);
            expect_pixel(image, 56, 8, GREY_8, 0, name);
            expect_pixel(image, 56, 24, [0, 0, 255, 255], 0, name);
            expect_pixel(image, 38, 32, over_8bit(MARKER, 128), TOLERANCE_8, name);
            renderer.destroy();
            scene.destroy();
        });
    });

    it("releases geometry no longer drawn, and after sustained low use shrinks its pool, moving what stays on the GPU", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = marker_scene(device, track);
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            const far: DynamicMesh[] = [];
            for (let i = 0; i < 1000; i++) {
                const mesh = batch.add(DynamicMesh.from(make_box_geometry(0.1, 0.1, 0.1), [0, 1, 0, 1]));
                mesh.position[0] = 100; // off screen
                mesh.updateMatrices();
                far.push(mesh);
            }
            // last: its range is at the top of the pool, so only compaction can bring the pool down
            batch.add(DynamicMesh.from(make_box_geometry(), MARKER)).updateMatrices();
            scene.draw(renderer, batch);
            const big = renderer.pool_capacity;
            expect(big).toBeGreaterThanOrEqual(512 * 1024);
            expect(renderer.geometry_count).toBe(1001);

            for (const mesh of far) batch.remove(mesh);
            scene.draw(renderer, batch); // the far geometry was drawn last frame: still resident
            expect(renderer.geometry_count).toBe(1001);
            scene.draw(renderer, batch); // not drawn last frame: released
            expect(renderer.geometry_count).toBe(1);
            expect(renderer.pool_capacity).toBe(big);

            const uploads = renderer.upload_count;
            let frames = 0;
            while (renderer.pool_capacity === big && frames < 200) {
                scene.draw(renderer, batch);
                frames++;
            }
            expect(renderer.pool_capacity).toBe(64 * 1024);
            expect(frames).toBeGreaterThanOrEqual(100); // sustained, not at the first quiet frame
            expect(renderer.upload_count).toBe(uploads); // moved on the GPU, not uploaded again
            const image = await read_texture(device, scene.color);
            expect_pixel(image, 38, 32, over_8bit(MARKER, 128), TOLERANCE_8, "dynamic_mesh_compacted");
            expect_pixel(image, 26, 32, GREY_8, 0, "dynamic_mesh_compacted");
            renderer.destroy();
            scene.destroy();
        });
    });
});
