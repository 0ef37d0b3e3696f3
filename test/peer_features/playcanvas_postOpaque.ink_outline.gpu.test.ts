// Worked example for PlayCanvas "Effects with Passes" (the ink outline: an effect at the `postOpaque` stage with
// `requires: [FRAMERESOURCE_SCENECOLORGRAB, FRAMERESOURCE_SCENETARGET, FRAMERESOURCE_DEPTH]`, drawing lines into
// the scene where depth or brightness change abruptly, under the transparent geometry). Here: an extension at
// AfterLighting (after the opaque scene, before transparency) with `requires = [SceneColorCopy]` (the grab),
// reading `ViewTextures.depth` (the depth) and writing `SceneColor` (the scene target); `frame.resolution` is
// PlayCanvas's `frameUpdate` render size, and the camera's near/far linearise the depth.
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";
import { FULLSCREEN_VERTEX_WGSL } from "../../shade/renderer/fullscreen/fullscreen_vertex_wgsl.js";
import { make_plane_geometry } from "../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { make_sphere_geometry } from "../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { SceneColorCopy } from "../../shade/renderer/products/SceneColorCopy.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { CAMERA_WGSL } from "../../shade/renderer/scene/Camera.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { SCENE_COLOR_FORMAT } from "../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, with_gpu_device, write_readback_png } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const SIZE = 64;

const INK_WGSL = /* wgsl */ `
${CAMERA_WGSL}
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@group(0) @binding(1) var depth: texture_depth_2d;
@group(0) @binding(2) var grab: texture_2d<f32>;
@group(0) @binding(3) var<uniform> width: f32;
${FULLSCREEN_VERTEX_WGSL}
// PlayCanvas's getLinearScreenDepth: view distance from a [0, 1] perspective depth
fn linear_depth(p: vec2i) -> f32 {
    let size = vec2i(textureDimensions(depth));
    let d = textureLoad(depth, clamp(p, vec2i(0), size - 1), 0);
    let near = camera.jitter.z;
    let far = camera.jitter.w;
    return near * far / (far - d * (far - near));
}
fn luminance(p: vec2i) -> f32 {
    let size = vec2i(textureDimensions(grab));
    return dot(textureLoad(grab, clamp(p, vec2i(0), size - 1), 0).rgb, vec3f(0.2126, 0.7152, 0.0722));
}
@fragment fn fs_ink(in: FullscreenVarying) -> @location(0) vec4f {
    let p = vec2i(in.position.xy);
    let r = i32(width);
    let z = linear_depth(p);
    let l = luminance(p);
    var edge = false;
    for (var k = -r; k <= r; k++) {
        let q0 = p + vec2i(k, 0);
        let q1 = p + vec2i(0, k);
        edge = edge || abs(linear_depth(q0) - z) > 0.5 || abs(linear_depth(q1) - z) > 0.5;
        edge = edge || abs(luminance(q0) - l) > 0.5 || abs(luminance(q1) - l) > 0.5;
    }
    if (!edge) { discard; }
    return vec4f(0.0, 0.0, 0.0, 1.0);
}
`;

interface InkDevice {
    readonly pipeline: GPURenderPipeline;
    readonly layout: GPUBindGroupLayout;
    readonly width: GPUBuffer;
    group: GPUBindGroup | null;
    readonly keys: unknown[];
}

class InkOutlineExtension extends RenderExtension {
    name = "ink outline";
    phase = FramePhase.AfterLighting; // PlayCanvas postOpaque
    override requires = [SceneColorCopy]; // FRAMERESOURCE_SCENECOLORGRAB
    /** Half-width of the line in pixels (PlayCanvas `width`, picked up each frame like its `update`). */
    width = 1;
    readonly #per_device = new WeakMap<GPUDevice, InkDevice>();
    readonly #width = new Float32Array(4);
    #depth: FrameGraphHandle = -1;
    #grab: FrameGraphHandle = -1;
    #scene: FrameGraphHandle = -1;
    #camera: GPUBuffer | null = null;
    readonly #attachments: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "ink outline", colorAttachments: this.#attachments };

    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor); // FRAMERESOURCE_SCENETARGET
        const pass = frame.graph.add("ink outline / lines", this, execute_ink);
        this.#depth = pass.read(frame.get(ViewTextures).depth); // FRAMERESOURCE_DEPTH
        this.#grab = pass.read(frame.get(SceneColorCopy).color);
        this.#camera = frame.view.camera.buffer;
        this.#scene = scene.color = pass.write(scene.color, "load");
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state(device);
        this.#width[0] = this.width;
        device.queue.writeBuffer(state.width, 0, this.#width);
        const depth = resources.view(this.#depth);
        const grab = resources.view(this.#grab);
        const k = state.keys;
        if (state.group === null || k[0] !== depth || k[1] !== grab || k[2] !== this.#camera) {
            // a new pooled texture (first frames, a resize) or a new camera buffer
            k[0] = depth;
            k[1] = grab;
            k[2] = this.#camera;
            state.group = device.createBindGroup({
                label: "ink outline bind group",
                layout: state.layout,
                entries: [
                    { binding: 0, resource: { buffer: this.#camera! } },
                    { binding: 1, resource: depth },
                    { binding: 2, resource: grab },
                    { binding: 3, resource: { buffer: state.width } },
                ],
            });
        }
        this.#attachments[0] = resources.color_attachment(this.#scene);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.setPipeline(state.pipeline);
        pass.setBindGroup(0, state.group);
        pass.draw(3);
        pass.end();
    }

    #state(device: GPUDevice): InkDevice {
        let state = this.#per_device.get(device);
        if (state !== undefined) return state;
        const module = device.createShaderModule({ label: "ink outline shader", code: INK_WGSL });
        const layout = device.createBindGroupLayout({
            label: "ink outline bind group layout",
            entries: [
                { binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } },
                { binding: 1, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "depth" } },
                { binding: 2, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "float" } },
                { binding: 3, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } },
            ],
        });
        const pipeline = device.createRenderPipeline({
            label: "ink outline pipeline",
            layout: device.createPipelineLayout({ label: "ink outline pipeline layout", bindGroupLayouts: [layout] }),
            vertex: { module, entryPoint: "vs_fullscreen" },
            fragment: { module, entryPoint: "fs_ink", targets: [{ format: SCENE_COLOR_FORMAT }] },
            primitive: { topology: "triangle-list" },
        });
        const width = device.createBuffer({ label: "ink outline width", size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        state = { pipeline, layout, width, group: null, keys: [null, null, null] };
        this.#per_device.set(device, state);
        return state;
    }
}

function execute_ink(extension: InkOutlineExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}

/** A bright sphere; a white see-through sheet in front of its right half. */
function scene_with_sheet(): Scene {
    const scene = new Scene();
    scene.ambient.set([1, 1, 1]);
    scene.add(new Mesh(make_sphere_geometry(1.2, 32, 24), new StandardMaterial({ base_color: [0.9, 0.6, 0.3, 1] })));
    const sheet = scene.add(new Mesh(make_plane_geometry(2, 4), new StandardMaterial({ base_color: [1, 1, 1, 0.6], transparency: "blended" })));
    sheet.rotation.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
    sheet.position.set([1.5, 0, 2]);
    return scene;
}

/** The darkest red value along row `y` from x0 to x1. */
function darkest(image: Awaited<ReturnType<typeof read_texture>>, y: number, x0: number, x1: number): number {
    let min = 255;
    for (let x = x0; x <= x1; x++) min = Math.min(min, pixel_at(image, x, y)[0]);
    return min;
}

describe("PlayCanvas postOpaque: an ink outline effect", () => {
    it("draws lines at the silhouette from depth and the colour grab, and the transparent sheet lies over them", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene: scene_with_sheet(), feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.capture_pass_list = true;
            renderer.render_frame();
            const plain = await read_texture(device, target.acquire());
            expect(renderer.last_frame_passes.map((p) => p.name)).not.toContain("scene colour copy");

            const ink = renderer.add_extension(new InkOutlineExtension());
            renderer.render_frame();
            const inked = await read_texture(device, target.acquire());
            write_readback_png(inked, "playcanvas_ink_outline");
            // the pass order PlayCanvas's stage gives: opaque, grab, the effect, then the transparent scene
            const names = renderer.last_frame_passes.filter((p) => !p.culled).map((p) => p.name);
            const at = (n: string) => names.indexOf(n);
            expect(at("lighting")).toBeLessThan(at("scene colour copy"));
            expect(at("scene colour copy")).toBeLessThan(at("ink outline / lines"));
            expect(at("ink outline / lines")).toBeLessThan(at("transparency"));

            // the sphere (radius 1.2 at distance 5, 60 degree field of view) spans about x = 19 .. 45 on row 32
            const left_plain = darkest(plain, 32, 14, 24);
            const left_inked = darkest(inked, 32, 14, 24);
            expect(left_plain).toBeGreaterThan(20); // sky and a lit sphere: no black there before
            expect(left_inked).toBeLessThan(3); // black ink on the left silhouette, not under the sheet
            // the right silhouette is under the sheet: the sheet blends over the ink, so no black there
            const right_inked = darkest(inked, 32, 40, 50);
            expect(right_inked).toBeGreaterThan(60);
            // the middle of the sphere is untouched
            expect(pixel_at(inked, 26, 32)).toEqual(pixel_at(plain, 26, 32));

            // a wider line (a uniform, no rebuild) covers more pixels
            const count_black = (img: typeof inked) => {
                let n = 0;
                for (let y = 0; y < SIZE; y++) for (let x = 0; x < 32; x++) if (pixel_at(img, x, y)[0] < 3) n++;
                return n;
            };
            const thin = count_black(inked);
            ink.width = 2;
            renderer.render_frame();
            const wide = await read_texture(device, target.acquire());
            expect(count_black(wide)).toBeGreaterThan(thin * 1.4);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            r.add_extension(new InkOutlineExtension());
        }, scene_with_sheet());
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
