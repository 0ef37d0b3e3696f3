// Steady-state allocation of GPUDynamicMeshRenderer, on a real device (Dawn).
//
// Method: test/harness/allocation.ts (young-generation bytes over windows after a full GC, read in rounds until
// steady).
//
// WebGPU itself allocates per frame (a command encoder, a render pass encoder and a command buffer are JS
// objects: ~450 bytes a frame in Dawn). So the renderer is measured against a reference frame of the same
// graph shape (which also keeps the test honest if the graph ever allocates again): one pass
// reading the depth and loading + writing the colour, opening and ending a render pass with the same
// attachments. The difference is what the renderer's record + upload + draw allocate. The two are measured
// in interleaved windows.
import { describe, expect, it } from "vitest";
import type { FrameGraphResources } from "../../../../shade/device/graph/FrameGraphResources.js";
import type { FrameExecution } from "../../../../shade/device/graph/FrameExecution.js";
import { GPUDynamicMeshRenderer } from "../../../../shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { DynamicMesh } from "../../../../shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "../../../../shade/renderer/scene/DynamicMeshBatch.js";
import { steady_bytes_per_frame } from "../../../harness/allocation.js";
import { with_gpu_device } from "../../../harness/index.js";
import { DynamicScene } from "./dynamic_scene.js";

const FRAMES = 150;
const WINDOWS = 5;

describe("GPUDynamicMeshRenderer allocation (Dawn)", () => {
    it("after warm-up, recording, uploading and drawing a batch allocates nothing beyond what WebGPU itself does", async () => {
        await with_gpu_device(async (device, track) => {
            const scene = new DynamicScene(device, track, {
                width: 32,
                height: 32,
                format: "rgba8unorm",
                scene_color: { r: 0.5, g: 0.5, b: 0.5, a: 1 },
                clear_depth: 1,
            });
            const graph = scene.graph;
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            for (let i = 0; i < 64; i++) {
                const mesh = batch.add(DynamicMesh.from(make_box_geometry(0.1, 0.1, 0.1), [1, 0.2, 0, 0.8]));
                mesh.position[0] = (i % 8) * 0.2 - 0.8;
                mesh.position[1] = Math.floor(i / 8) * 0.2 - 0.8;
                mesh.updateMatrices();
            }
            // a geometry rewritten every frame, as a trail would be
            const moving = batch.get(0).geometry;
            const moving_position = moving.attributes.position.array;
            const spec = { graph, batch, color: -1, depth: -1, camera: scene.camera.buffer };
            let tick = 0;
            // what an extension's owner does every frame, the same in both frames
            const user_work = (): void => {
                moving_position[0] = (tick++ & 7) * 0.001;
                moving.needsUpdate = true;
                batch.get(1).updateMatrices();
            };
            const dynamic_frame = (): void => {
                user_work();
                spec.color = graph.import_texture("scene colour", scene.color);
                spec.depth = graph.import_texture("scene depth", scene.depth);
                renderer.graph_draw(spec);
                scene.end();
            };

            // the reference: the same graph shape with a pass that only opens and ends a render pass
            const reference_data = { color: -1, depth: -1 };
            const attachments: GPURenderPassColorAttachment[] = [];
            const reference_pass: GPURenderPassDescriptor = { label: "reference", colorAttachments: attachments };
            const reference_execute = (data: typeof reference_data, resources: FrameGraphResources, execution: FrameExecution): void => {
                attachments[0] = resources.color_attachment(data.color);
                reference_pass.depthStencilAttachment = resources.depth_attachment(data.depth);
                execution.encoder.beginRenderPass(reference_pass).end();
            };
            const reference_frame = (): void => {
                user_work();
                const color = graph.import_texture("scene colour", scene.color);
                reference_data.depth = graph.import_texture("scene depth", scene.depth);
                const builder = graph.add("reference / draw", reference_data, reference_execute);
                builder.read(reference_data.depth);
                reference_data.color = builder.write(color, "load");
                scene.end();
            };

            // warm-up: first-frame GPU objects, JIT tiers
            for (let i = 0; i < 800; i++) {
                dynamic_frame();
                reference_frame();
            }
            await device.queue.onSubmittedWorkDone();
            const uploads_before = renderer.upload_count;

            const reading = await steady_bytes_per_frame([reference_frame, dynamic_frame], {
                window: FRAMES,
                windows: WINDOWS,
                accept: ([reference, dynamic]) => dynamic - reference < 8,
            });
            const [reference, dynamic] = reading.medians;
            await device.queue.onSubmittedWorkDone();
            console.info(
                `bytes per frame: reference pass ${reference.toFixed(1)}, dynamic mesh draw ${dynamic.toFixed(1)}, ` +
                    `difference ${(dynamic - reference).toFixed(1)}`,
            );
            // the flagged geometry really was uploaded every frame
            expect(renderer.upload_count - uploads_before).toBeGreaterThanOrEqual(FRAMES * WINDOWS);
            // the smallest JS object is 12-16 bytes: one per frame would show as >= 12 (measured: 0)
            expect(dynamic - reference).toBeLessThan(8);

            renderer.destroy();
            scene.destroy();
        });
    });

    it("the upload path alone allocates nothing per frame, through the mirror or straight from large arrays", async () => {
        await with_gpu_device(async (device) => {
            const renderer = new GPUDynamicMeshRenderer();
            const batch = new DynamicMeshBatch();
            for (let i = 0; i < 64; i++) batch.add(DynamicMesh.from(make_box_geometry(0.1, 0.1, 0.1), [1, 1, 1, 1])).updateMatrices();
            // past DynamicBuffer.DIRECT_BYTES: uploaded from its own arrays, 32-bit indices, per-vertex colour
            const vertices = 100_000;
            const large = new Geometry({
                position: new Float32Array(vertices * 3),
                color: new Float32Array(vertices * 4).fill(1),
                index: new Uint32Array(3 * (vertices - 2)),
            });
            batch.add(DynamicMesh.from(large, [1, 1, 1, 1])).updateMatrices();
            const frame = (): void => {
                for (let i = 0; i < 64; i += 2) batch.get(i).geometry.needsUpdate = true;
                large.needsUpdate = true;
                renderer.upload(device, batch);
            };
            for (let i = 0; i < 500; i++) frame();
            await device.queue.onSubmittedWorkDone();
            const uploads = renderer.upload_count;
            const [bytes] = (await steady_bytes_per_frame([frame], { window: 50, windows: WINDOWS, accept: ([b]) => b < 1 })).medians;
            expect(renderer.upload_count - uploads).toBeGreaterThanOrEqual(33 * 50 * WINDOWS);
            console.info(`upload path bytes per frame: ${bytes.toFixed(2)}`);
            expect(bytes).toBeLessThan(1);
            await device.queue.onSubmittedWorkDone();
            renderer.destroy();
        });
    });
});
