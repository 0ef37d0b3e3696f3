// LINEAR_DEPTH_WGSL on Dawn: an extension at AfterGBuffer that converts the frame's depth with the helpers
// reads back the view depth of two walls at known distances (7 and 50), and the Euclidean distance too.
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { ViewTextures } from "../../../../shade/renderer/extension/ViewTextures.js";
import { FULLSCREEN_VERTEX_WGSL } from "../../../../shade/renderer/fullscreen/fullscreen_vertex_wgsl.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { LINEAR_DEPTH_WGSL } from "../../../../shade/renderer/products/linear_depth_wgsl.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { CAMERA_WGSL } from "../../../../shade/renderer/scene/Camera.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device } from "../../../harness/index.js";

const W = 48;
const H = 32;

const SHADER = /* wgsl */ `
${CAMERA_WGSL}
${LINEAR_DEPTH_WGSL}
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var depth: texture_depth_2d;
${FULLSCREEN_VERTEX_WGSL}
@fragment
fn fs_main(in: FullscreenVarying) -> @location(0) vec4f {
    let d = textureLoad(depth, vec2i(in.position.xy), 0);
    let uv = in.position.xy * camera.viewport.zw;
    return vec4f(linear_depth(d, camera.jitter.z, camera.jitter.w),
                 view_distance_from_depth(uv, d, camera.inverse_view_projection, camera.position.xyz), 0.0, 1.0);
}
`;

/** Writes (view depth, view distance) of every pixel into `texture` (rgba32float), from the frame's depth. */
class LinearDepthReader extends RenderExtension {
    override name = "linear depth reader";
    override phase = FramePhase.AfterGBuffer;
    texture: GPUTexture | null = null;
    #pipeline: GPURenderPipeline | null = null;
    #depth: FrameGraphHandle = -1;
    #out: FrameGraphHandle = -1;
    #camera: GPUBuffer | null = null;

    override record(frame: FrameContext): void {
        const device = frame.device;
        if (this.texture === null) {
            this.texture = device.createTexture({
                label: "linear depth readback",
                size: { width: W, height: H },
                format: "rgba32float",
                usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
            });
            const module = device.createShaderModule({ label: "linear depth reader shader", code: SHADER });
            this.#pipeline = device.createRenderPipeline({
                label: "linear depth reader pipeline",
                layout: "auto",
                vertex: { module, entryPoint: "vs_fullscreen" },
                fragment: { module, entryPoint: "fs_main", targets: [{ format: "rgba32float" }] },
            });
        }
        this.#camera = frame.view.camera.buffer;
        const pass = frame.graph.add("linear depth reader", this, (self: LinearDepthReader, r: FrameGraphResources, e: FrameExecution) => self.execute(r, e));
        this.#depth = pass.read(frame.get(ViewTextures).depth);
        this.#out = pass.write(frame.graph.import_texture("linear depth readback", this.texture), "clear");
    }

    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const group = device.createBindGroup({
            label: "linear depth reader bind group",
            layout: this.#pipeline!.getBindGroupLayout(0),
            entries: [
                { binding: 0, resource: { buffer: this.#camera! } },
                { binding: 1, resource: resources.view(this.#depth) },
            ],
        });
        const pass = execution.encoder.beginRenderPass({ label: "linear depth reader", colorAttachments: [resources.color_attachment(this.#out)] });
        pass.setPipeline(this.#pipeline!);
        pass.setBindGroup(0, group);
        pass.draw(3);
        pass.end();
    }
}

describe("LINEAR_DEPTH_WGSL on Dawn", () => {
    it("an extension reads back the view depth of walls at 7 and 50 units (near 0.1, far 200)", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            // two walls facing the camera, their front faces at z = -7 (left half) and z = -50 (right half)
            const near = new Mesh(make_box_geometry(20, 40, 1), new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] }));
            near.position.set([-10, 0, -7.5]);
            scene.add(near);
            const far = new Mesh(make_box_geometry(200, 200, 1), new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] }));
            far.position.set([0, 0, -50.5]);
            scene.add(far);
            const renderer = new Renderer({ device, target: new TextureRenderTarget(W, H), scene, feature_taa_enabled: false });
            renderer.view.camera.position.set([0, 0, 0]);
            renderer.view.camera.target.set([0, 0, -1]);
            const reader = renderer.add_extension(new LinearDepthReader());
            renderer.render_frame();
            const out = await read_texture(device, reader.texture!);
            const at = (x: number, y: number) => [out.data[(y * W + x) * out.channels], out.data[(y * W + x) * out.channels + 1]];
            const [left_depth, left_distance] = at(4, H / 2);
            const [right_depth] = at(W - 4, H / 2);
            const [corner_depth, corner_distance] = at(W - 1, 0);
            console.log(`[linear depth] left ${left_depth.toFixed(4)} (distance ${left_distance.toFixed(4)}), right ${right_depth.toFixed(4)}, corner ${corner_depth.toFixed(4)} (distance ${corner_distance.toFixed(4)})`);
            expect(Math.abs(left_depth - 7)).toBeLessThan(7e-3);
            expect(Math.abs(right_depth - 50)).toBeLessThan(0.05);
            // the far wall's corner: the same view depth, farther away by the ray's slant
            expect(Math.abs(corner_depth - 50)).toBeLessThan(0.05);
            const x_ndc = (W - 0.5) / W * 2 - 1;
            const y_ndc = 1 - 0.5 / H * 2;
            const t = Math.tan(Math.PI / 6);
            const slant = Math.hypot(1, x_ndc * t * (W / H), y_ndc * t);
            expect(Math.abs(corner_distance - 50 * slant)).toBeLessThan(0.1);
            expect(left_distance).toBeGreaterThan(7);
            renderer.destroy();
        });
    });
});
