// Worked example for @pixi/3d `ExtractPass` + `normalOutput` ("Scene outputs and textures you keep"), a read-back
// pass with `b.sideEffect()` and a per-frame `condition` ("How a graph runs passes"). Here: ExtractExtension
// copies the G-buffer's normals into a texture the extension keeps past the frame; a pass that only reads
// (a copy into a CPU-mappable buffer the graph cannot see) runs only with `make_side_effect()`; returning from
// `record` is the condition, and the kept copy then holds the last frame that recorded.
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { ExtractExtension } from "../../shade/renderer/extract/ExtractExtension.js";
import { make_sphere_geometry } from "../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const SIZE = 64;

/** pixi's `new ExtractPass({ output: normalOutput })`, with a `condition`: records only while `enabled_frames` lasts. */
class NormalsExtract extends ExtractExtension {
    enabled = true;
    constructor() {
        super("normals extract", FramePhase.AfterGBuffer, (frame) => frame.get(GBufferTextures).normal);
    }
    override record(frame: FrameContext): void {
        if (!this.enabled) return;
        super.record(frame);
    }
}

/** Reads one texel of the object ids to the CPU (a picking read-back); declares nothing it writes. */
class PickReadback extends RenderExtension {
    name = "pick readback";
    phase = FramePhase.AfterGBuffer;
    side_effect = true;
    buffer: GPUBuffer | null = null;
    readonly #source: GPUTexelCopyTextureInfo = { texture: null as unknown as GPUTexture, origin: { x: SIZE / 2, y: SIZE / 2 } };
    readonly #destination: GPUTexelCopyBufferInfo = { buffer: null as unknown as GPUBuffer, bytesPerRow: 256 };
    #ids: FrameGraphHandle = -1;
    record(frame: FrameContext): void {
        if (this.buffer === null) {
            this.buffer = frame.device.createBuffer({ label: "pick readback", size: 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
        }
        const pass = frame.graph.add("pick readback / copy", this, execute_pick);
        this.#ids = pass.read(frame.get(GBufferTextures).object_id);
        if (this.side_effect) pass.make_side_effect(); // pixi's b.sideEffect()
    }
    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        this.#source.texture = resources.texture(this.#ids);
        this.#destination.buffer = this.buffer!;
        execution.encoder.copyTextureToBuffer(this.#source, this.#destination, { width: 1, height: 1 });
    }
    async read(): Promise<number> {
        await this.buffer!.mapAsync(GPUMapMode.READ);
        const id = new Uint32Array(this.buffer!.getMappedRange().slice(0, 4))[0];
        this.buffer!.unmap();
        return id;
    }
}

function execute_pick(extension: PickReadback, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}

describe("pixi ExtractPass: textures you keep, read-back, condition", () => {
    it("the normals are copied into a kept texture nothing in the frame reads; it keeps the last recorded frame", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = new Scene();
            const sphere = scene.add(new Mesh(make_sphere_geometry(1.2, 32, 24), new StandardMaterial({ base_color: [0.8, 0.8, 0.8, 1] })));
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.capture_pass_list = true;
            const extract = renderer.add_extension(new NormalsExtract());
            renderer.render_frame();
            // nothing in the frame reads the copy: it survives culling because it writes a texture it owns
            expect(renderer.last_frame_passes.find((p) => p.name === "normals extract / copy")).toEqual({
                name: "normals extract / copy",
                scope: "normals extract",
                culled: false,
            });
            const kept = extract.texture!;
            const first = await read_texture(device, kept);
            write_readback_png(first, "pixi_extract_normals");
            // a sphere facing the camera: the normal points at it in the middle, to the left at the left rim
            const [cx, cy, cz] = pixel_at(first, 32, 32);
            expect(Math.abs(cx) + Math.abs(cy)).toBeLessThan(0.1);
            expect(cz).toBeGreaterThan(0.95);
            const left = pixel_at(first, 32 - 12, 32);
            expect(left[0]).toBeLessThan(-0.6);

            // the condition is false: nothing recorded, the kept copy still holds the last frame's normals
            extract.enabled = false;
            sphere.position.set([1.2, 0, 0]);
            renderer.render_frame();
            expect(renderer.last_frame_passes.map((p) => p.name)).not.toContain("normals extract / copy");
            expect(extract.texture).toBe(kept);
            const stale = await read_texture(device, kept);
            expect(pixel_at(stale, 32, 32)[2]).toBeCloseTo(cz, 3);

            // recording again: the same texture, now the moved sphere (its left rim at the picture's middle)
            extract.enabled = true;
            renderer.render_frame();
            expect(extract.texture).toBe(kept);
            const moved = await read_texture(device, kept);
            expect(pixel_at(moved, 32, 32)[0]).toBeLessThan(-0.3);
            expect(errors).toEqual([]);
            extract.destroy();
            renderer.destroy();
        });
    });

    it("a pass that only reads runs with make_side_effect (pixi's sideEffect) and is culled without it", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const sphere = scene.add(new Mesh(make_sphere_geometry(1.2, 16, 12), new StandardMaterial()));
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.capture_pass_list = true;
            const pick = renderer.add_extension(new PickReadback());
            pick.side_effect = false;
            renderer.render_frame();
            expect(renderer.last_frame_passes.find((p) => p.name === "pick readback / copy")?.culled).toBe(true);
            expect(await pick.read()).toBe(0);

            pick.side_effect = true;
            renderer.render_frame();
            expect(renderer.last_frame_passes.find((p) => p.name === "pick readback / copy")?.culled).toBe(false);
            expect(await pick.read()).toBe(sphere.object_id);
            expect(sphere.object_id).not.toBe(0);
            pick.buffer?.destroy();
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            r.add_extension(new NormalsExtract());
            r.add_extension(new PickReadback());
        });
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
