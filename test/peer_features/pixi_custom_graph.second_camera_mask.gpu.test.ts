// Worked example for @pixi/3d "Custom render graphs" (a `ForwardRenderPass` drawing the opaque meshes in white
// from a second `Camera3D` into a `RenderTexture`: a silhouette mask). Here: an extension at FrameStart draws
// the scene's opaque meshes from its own camera into a texture it owns across frames, imports it into each
// frame's graph (the write makes the pass a side effect) and publishes it in a record; an extension at
// AfterTransparency samples it (pixi's FullscreenPass cannot sample an imported texture; ours can). Without
// the mask extension nothing is recorded for it and the reader draws nothing.
import { mat4 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { FrameRecord } from "../../shade/renderer/extension/FrameRecord.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { make_sphere_geometry } from "../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { GPUGeometryCache } from "../../shade/renderer/mesh/GPUGeometryCache.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { Camera } from "../../shade/renderer/scene/Camera.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { SCENE_COLOR_FORMAT } from "../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const SIZE = 64;
const MASK_SIZE = 32;
const MAX_MESHES = 8;
const STRIDE = 256; // minUniformBufferOffsetAlignment

/** The mask of this frame: published at FrameStart, readable in every later phase. */
class SilhouetteMask extends FrameRecord {
    #mask: FrameGraphHandle = -1;
    static override is_present_at(phase: FramePhase): boolean {
        void phase;
        return true;
    }
    static override is_writable_at(phase: FramePhase): boolean {
        return phase === FramePhase.FrameStart;
    }
    get mask(): FrameGraphHandle {
        return this.read(this.#mask, "mask");
    }
    set mask(handle: FrameGraphHandle) {
        this.#mask = this.publish(handle, "mask");
    }
    override reset_for_reuse(): boolean {
        this.#mask = -1;
        return true;
    }
}

const MASK_WGSL = /* wgsl */ `
@group(0) @binding(0) var<uniform> model_view_projection: mat4x4f;
@vertex fn vs(@location(0) position: vec3f) -> @builtin(position) vec4f { return model_view_projection * vec4f(position, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }
`;

interface MaskDevice {
    readonly texture: GPUTexture;
    readonly pipeline: GPURenderPipeline;
    readonly uniforms: GPUBuffer;
    readonly group: GPUBindGroup;
}

/** Draws the opaque meshes in white from `camera` into a texture it owns (one per device). */
class SilhouetteMaskExtension extends RenderExtension {
    name = "silhouette mask";
    phase = FramePhase.FrameStart;
    /** pixi's `maskCamera`: place and move it; the view's camera does not affect the mask. */
    readonly camera = new Camera();
    readonly #per_device = new WeakMap<GPUDevice, MaskDevice>();
    #last: MaskDevice | null = null;
    readonly #matrices = new Float32Array((STRIDE / 4) * MAX_MESHES);
    readonly #offsets = new Uint32Array(1);
    readonly #mvp = mat4.create();
    readonly #meshes: Mesh[] = [];
    #mesh_count = 0;
    #target: FrameGraphHandle = -1;
    readonly #descriptor: GPURenderPassDescriptor = { label: "silhouette mask", colorAttachments: [] };
    readonly #attachments: GPURenderPassColorAttachment[] = [];
    readonly #black: GPUColorDict = { r: 0, g: 0, b: 0, a: 1 };

    /** The owned texture on the last device recorded with (for showing it, like pixi's Sprite(mask)). */
    get texture(): GPUTexture | null {
        return this.#last?.texture ?? null;
    }

    record(frame: FrameContext): void {
        const state = this.#state(frame.device);
        this.camera.update(MASK_SIZE, MASK_SIZE);
        // a count, not `length = 0`: V8 drops a cleared array's storage, and the next push allocates it again
        let count = 0;
        const meshes = frame.scene.meshes;
        for (let i = 0; i < meshes.length && count < MAX_MESHES; i++) {
            const mesh = meshes[i];
            if (!mesh.visible || mesh.material.transparency !== "opaque") continue;
            mesh.update_matrix();
            this.#meshes[count++] = mesh;
        }
        this.#mesh_count = count;
        const graph = frame.graph;
        const pass = graph.add("silhouette mask / draw", this, execute_mask);
        this.#target = pass.write(graph.import_texture("silhouette mask", state.texture), "clear");
        frame.create(SilhouetteMask).mask = this.#target;
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        const m = this.#matrices;
        const vp = this.camera.view_projection;
        for (let i = 0; i < this.#mesh_count; i++) {
            mat4.multiply(this.#mvp, vp, this.#meshes[i].world_matrix);
            m.set(this.#mvp, (i * STRIDE) / 4);
        }
        device.queue.writeBuffer(state.uniforms, 0, m, 0, (this.#mesh_count * STRIDE) / 4);
        this.#attachments[0] = resources.color_attachment(this.#target, this.#black);
        this.#descriptor.colorAttachments = this.#attachments;
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const encoder = execution.encoder.beginRenderPass(this.#descriptor);
        encoder.setPipeline(state.pipeline);
        const geometries = GPUGeometryCache.of(device);
        for (let i = 0; i < this.#mesh_count; i++) {
            const geometry = geometries.get(this.#meshes[i].geometry);
            this.#offsets[0] = i * STRIDE;
            encoder.setBindGroup(0, state.group, this.#offsets, 0, 1);
            encoder.setVertexBuffer(0, geometry.position);
            encoder.setIndexBuffer(geometry.index, geometry.index_format);
            encoder.drawIndexed(geometry.index_count);
        }
        encoder.end();
    }

    #state(device: GPUDevice): MaskDevice {
        let state = this.#per_device.get(device);
        if (state !== undefined) return state;
        const texture = device.createTexture({
            label: "silhouette mask",
            size: { width: MASK_SIZE, height: MASK_SIZE },
            format: "rgba8unorm",
            usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC,
        });
        const module = device.createShaderModule({ label: "silhouette mask shader", code: MASK_WGSL });
        const layout = device.createBindGroupLayout({
            label: "silhouette mask bind group layout",
            entries: [{ binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform", hasDynamicOffset: true } }],
        });
        const pipeline = device.createRenderPipeline({
            label: "silhouette mask pipeline",
            layout: device.createPipelineLayout({ label: "silhouette mask pipeline layout", bindGroupLayouts: [layout] }),
            vertex: { module, entryPoint: "vs", buffers: [{ arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: "float32x3" }] }] },
            fragment: { module, entryPoint: "fs", targets: [{ format: "rgba8unorm" }] },
            primitive: { topology: "triangle-list", cullMode: "back" },
        });
        const uniforms = device.createBuffer({ label: "silhouette mask matrices", size: STRIDE * MAX_MESHES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        const group = device.createBindGroup({
            label: "silhouette mask bind group",
            layout,
            entries: [{ binding: 0, resource: { buffer: uniforms, size: 64 } }],
        });
        state = { texture, pipeline, uniforms, group };
        this.#per_device.set(device, state);
        this.#last = state;
        return state;
    }

    override destroy(): void {
        this.#last?.texture.destroy();
        this.#last?.uniforms.destroy();
        this.#last = null;
    }
}

function execute_mask(extension: SilhouetteMaskExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}

/** Tints the scene red where this frame's mask is white; draws nothing in a frame without a mask. */
class MaskTint extends RenderExtension {
    name = "mask tint";
    phase = FramePhase.AfterTransparency;
    frames_with_mask = 0;
    readonly #effect = new FullscreenEffect({
        label: "mask tint",
        inputs: 2,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            let scene = load_input_0(vec2i(frag_coord));
            return vec4f(mix(scene.rgb, vec3f(4.0, 0.0, 0.0), sample_input_1(uv).r), 1.0);
        }`,
    });
    record(frame: FrameContext): void {
        if (!frame.has(SilhouetteMask)) return; // pixi's per-frame `condition`
        this.frames_with_mask++;
        const scene = frame.get(SceneColor);
        const output = frame.graph.create("mask tinted scene", frame.describe(scene.color));
        scene.color = this.#effect.graph_draw(frame.graph, output, scene.color, frame.get(SilhouetteMask).mask);
    }
}

function scene_with_sphere(): Scene {
    const scene = new Scene();
    scene.add(new Mesh(make_sphere_geometry(1, 24, 16), new StandardMaterial({ base_color: [0.2, 0.6, 0.9, 1] })));
    return scene;
}

/** The x centre of the pixels whose channel `c` exceeds `threshold`, and how many there are. */
function centroid_x(image: TextureReadback, c: number, threshold: number, other_max = 255): { x: number; count: number } {
    let sum = 0;
    let count = 0;
    for (let y = 0; y < image.height; y++) {
        for (let x = 0; x < image.width; x++) {
            const p = pixel_at(image, x, y);
            if (p[c] > threshold && p[(c + 1) % 3] <= other_max && p[(c + 2) % 3] <= other_max) {
                sum += x;
                count++;
            }
        }
    }
    return { x: count === 0 ? NaN : sum / count / image.width, count };
}

describe("pixi custom graph: a second camera's silhouette mask", () => {
    it("a FrameStart extension draws the mask from its own camera into a texture it owns; a later extension samples it", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene: scene_with_sphere(), feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.capture_pass_list = true;
            renderer.capture_graph_dump = true;
            const tint = renderer.add_extension(new MaskTint());

            // absent: nothing records a mask, the reader skips itself, the picture is the plain scene
            renderer.render_frame();
            const plain = await read_texture(device, target.acquire());
            expect(renderer.last_frame_passes.map((p) => p.name).filter((n) => n.includes("mask"))).toEqual([]);
            expect(tint.frames_with_mask).toBe(0);
            expect(centroid_x(plain, 0, 150, 60).count).toBe(0);

            // the mask camera looks from further right, so the sphere sits in the left part of its picture
            const mask = new SilhouetteMaskExtension();
            mask.camera.position.set([1.5, 0, 5]);
            mask.camera.target.set([1.5, 0, 0]);
            renderer.add_extension(mask);
            renderer.render_frame();
            const owned = mask.texture!;
            const mask_image = await read_texture(device, owned);
            write_readback_png(mask_image, "pixi_second_camera_mask");
            const white = centroid_x(mask_image, 0, 128);
            expect(white.count).toBeGreaterThan(40);
            expect(white.x, "the sphere is left of the mask's centre").toBeLessThan(0.4);
            expect(pixel_at(mask_image, MASK_SIZE - 2, MASK_SIZE / 2)[0]).toBe(0);

            const tinted = await read_texture(device, target.acquire());
            write_readback_png(tinted, "pixi_second_camera_mask_tinted");
            const red = centroid_x(tinted, 0, 150, 60);
            expect(red.count).toBeGreaterThan(100);
            expect(Math.abs(red.x - white.x), "the tint follows the mask, not the view's own sphere").toBeLessThan(0.06);
            // the view's sphere, right of the red, is drawn as the scene has it
            const [pr, pg, pb] = pixel_at(plain, 40, 32);
            expect(pixel_at(tinted, 40, 32).slice(0, 3)).toEqual([pr, pg, pb]);

            // owned across frames: the same texture every frame, imported (a double octagon in the dump), a side effect
            renderer.render_frame();
            expect(mask.texture).toBe(owned);
            expect(renderer.last_frame_dot).toMatch(/shape=doubleoctagon label="silhouette mask v1/);
            expect(tint.frames_with_mask).toBe(2);

            renderer.remove_extension(mask);
            renderer.render_frame();
            expect(renderer.last_frame_passes.map((p) => p.name).filter((n) => n.includes("mask"))).toEqual([]);
            expect(tint.frames_with_mask).toBe(2);
            mask.destroy();
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            r.add_extension(new MaskTint());
            const m = r.add_extension(new SilhouetteMaskExtension());
            m.camera.position.set([1.5, 0, 5]);
            m.camera.target.set([1.5, 0, 0]);
        }, scene_with_sphere());
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
