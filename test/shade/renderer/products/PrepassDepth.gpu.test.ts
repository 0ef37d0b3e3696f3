// The PrepassDepth frame product on Dawn: with a FrameStart extension that requires it, pass "depth prepass"
// draws the opaque and masked meshes depth-only before FrameStart, the requirer reads real depth there, and the
// G-buffer (depth-compare "equal" over it) gives the same targets and the same picture as without a prepass;
// without a requirer there is no such pass and no pipeline made for one.
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { RenderExtensionRegistry } from "../../../../shade/renderer/extension/RenderExtensionRegistry.js";
import { ViewTextures } from "../../../../shade/renderer/extension/ViewTextures.js";
import { ExtractExtension } from "../../../../shade/renderer/extract/ExtractExtension.js";
import { FULLSCREEN_VERTEX_WGSL } from "../../../../shade/renderer/fullscreen/fullscreen_vertex_wgsl.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import type { FrameProductClass } from "../../../../shade/renderer/products/FrameProduct.js";
import { PrepassDepth } from "../../../../shade/renderer/products/PrepassDepth.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { MaterialTexture } from "../../../../shade/renderer/scene/MaterialTexture.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 64;
const NEAREST = { mag_filter: "nearest", min_filter: "nearest", mipmap_filter: "nearest", mipmaps: false } as const;
/** +90 degrees about x: a plane (normal +y) faces +z, the camera. */
const FACING = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];
/** -90 degrees about x: the plane shows the camera its back. */
const AWAY = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

function texture(device: GPUDevice, label: string, width: number, height: number, texels: number[]): GPUTexture {
    const t = device.createTexture({ label, size: [width, height], format: "rgba8unorm", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    device.queue.writeTexture({ texture: t }, new Uint8Array(texels), { bytesPerRow: width * 4 }, [width, height]);
    return t;
}

/**
 * A backdrop; two boxes through each other (one with a normal map: the five-buffer variant); a masked plane in
 * front whose 4x4 checker of holes shows the boxes and the backdrop; a double-sided plane seen from behind.
 */
function make_scene(device: GPUDevice): Scene {
    const scene = new Scene();
    scene.sun.intensity = 2;
    scene.sun.direction.set([-0.3, -0.5, -0.8]);
    scene.ambient.set([0.2, 0.2, 0.2]);
    const backdrop = scene.add(new Mesh(make_box_geometry(8, 8, 0.2), new StandardMaterial({ label: "backdrop", base_color: [0.2, 0.5, 0.2, 1] })));
    backdrop.position.set([0, 0, -2]);
    const a = scene.add(new Mesh(make_box_geometry(1.4, 1.4, 1.4), new StandardMaterial({ label: "box a", base_color: [0.9, 0.3, 0.1, 1], roughness: 0.4 })));
    a.position.set([-0.4, 0.2, -0.3]);
    a.rotation.set([0.2, 0.3, 0, Math.sqrt(1 - 0.13)]);
    const bumpy = new MaterialTexture(texture(device, "normal map", 2, 1, [180, 128, 230, 255, 90, 160, 230, 255]), { sampler: NEAREST });
    const b = scene.add(new Mesh(make_box_geometry(1.2, 1.2, 1.2), new StandardMaterial({ label: "box b", base_color: [0.1, 0.3, 0.9, 1], normal_texture: bumpy })));
    b.position.set([0.4, -0.2, 0]);
    b.rotation.set([0, 0.38, 0.1, Math.sqrt(1 - 0.38 * 0.38 - 0.01)]);
    const checker: number[] = [];
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) checker.push(240, 240, 240, (x + y) % 2 === 0 ? 255 : 0);
    const masked = scene.add(
        new Mesh(
            make_plane_geometry(2.4, 2.4),
            new StandardMaterial({ label: "masked", base_color_texture: new MaterialTexture(texture(device, "checker", 4, 4, checker), { sampler: NEAREST }), transparency: "masked", alpha_cutoff: 0.5 }),
        ),
    );
    masked.position.set([-0.6, -0.4, 1]);
    masked.rotation.set(FACING);
    const back = scene.add(new Mesh(make_plane_geometry(1.5, 1.5), new StandardMaterial({ label: "double-sided", base_color: [0.8, 0.8, 0.2, 1], double_sided: true })));
    back.position.set([1.1, 0.9, 0.6]);
    back.rotation.set(AWAY);
    return scene;
}

/** Reads a depth handle (`select`) into an r32float texture it owns, in a shader, at `phase`. */
class DepthReader extends RenderExtension {
    override name: string;
    override phase: FramePhase;
    override requires: FrameProductClass[];
    texture: GPUTexture | null = null;
    readonly #select: (frame: FrameContext) => FrameGraphHandle;
    #pipeline: GPURenderPipeline | null = null;
    #depth: FrameGraphHandle = -1;
    #out: FrameGraphHandle = -1;

    constructor(name: string, phase: FramePhase, requires: FrameProductClass[], select: (frame: FrameContext) => FrameGraphHandle) {
        super();
        this.name = name;
        this.phase = phase;
        this.requires = requires;
        this.#select = select;
    }

    override record(frame: FrameContext): void {
        const device = frame.device;
        if (this.#pipeline === null) {
            const module = device.createShaderModule({
                label: `${this.name} shader`,
                code: /* wgsl */ `
${FULLSCREEN_VERTEX_WGSL}
@group(0) @binding(0) var depth: texture_depth_2d;
@fragment fn fs_main(in: FullscreenVarying) -> @location(0) vec4f {
    return vec4f(textureLoad(depth, vec2i(in.position.xy), 0), 0.0, 0.0, 1.0);
}`,
            });
            this.#pipeline = device.createRenderPipeline({
                label: `${this.name} pipeline`,
                layout: "auto",
                vertex: { module, entryPoint: "vs_fullscreen" },
                fragment: { module, entryPoint: "fs_main", targets: [{ format: "r32float" }] },
            });
        }
        const d = frame.describe(this.#select(frame));
        if (this.texture === null || this.texture.width !== d.width || this.texture.height !== d.height) {
            this.texture?.destroy();
            this.texture = device.createTexture({
                label: `${this.name} texture`,
                size: [d.width, d.height],
                format: "r32float",
                usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
            });
        }
        const pass = frame.graph.add(this.name, this, (self: DepthReader, r: FrameGraphResources, e: FrameExecution) => self.execute(r, e));
        this.#depth = pass.read(this.#select(frame));
        this.#out = pass.write(frame.graph.import_texture(`${this.name} texture`, this.texture), "clear");
    }

    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const pipeline = this.#pipeline!;
        const group = execution.graphics.createBindGroup({
            label: `${this.name} bind group`,
            layout: pipeline.getBindGroupLayout(0),
            entries: [{ binding: 0, resource: resources.view(this.#depth) }],
        });
        const pass = execution.encoder.beginRenderPass({ label: this.name, colorAttachments: [resources.color_attachment(this.#out)] });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, group);
        pass.draw(3);
        pass.end();
    }

    override destroy(): void {
        this.texture?.destroy();
    }
}

const TARGETS = ["albedo", "normal", "material", "object_id", "emissive"] as const;

interface Picture {
    gbuffer: Record<(typeof TARGETS)[number], TextureReadback>;
    /** ViewTextures.depth at AfterGBuffer. */
    depth: TextureReadback;
    /** The presented picture. */
    final: TextureReadback;
    passes: string[];
}

/** One scene for the renderers compared: the G-buffer holds material ids, which differ between two scenes. */
function make_renderer(device: GPUDevice, errors: Error[], scene: Scene): Renderer {
    const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, upscale: "none", on_error: (e) => errors.push(e) });
    renderer.view.camera.position.set([0, 0, 5]);
    renderer.view.camera.target.set([0, 0, 0]);
    renderer.view.camera.fov_y = Math.PI / 4;
    renderer.capture_pass_list = true;
    return renderer;
}

/** Renders one frame and reads the G-buffer targets, the depth at AfterGBuffer and the presented picture. */
async function picture(device: GPUDevice, renderer: Renderer): Promise<Picture> {
    const extracts = TARGETS.map((t) => renderer.add_extension(new ExtractExtension(`extract ${t}`, FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures)[t])));
    const depth = renderer.add_extension(new DepthReader("gbuffer depth reader", FramePhase.AfterGBuffer, [], (f) => f.get(ViewTextures).depth));
    renderer.render_frame();
    for (const e of extracts) renderer.remove_extension(e);
    renderer.remove_extension(depth);
    const gbuffer = {} as Picture["gbuffer"];
    for (let i = 0; i < TARGETS.length; i++) gbuffer[TARGETS[i]] = await read_texture(device, extracts[i].texture!);
    const out: Picture = {
        gbuffer,
        depth: await read_texture(device, depth.texture!),
        final: await read_texture(device, (renderer.target as TextureRenderTarget).texture!),
        passes: renderer.last_frame_passes.map((p) => p.name),
    };
    for (const e of extracts) e.destroy();
    depth.destroy();
    return out;
}

/** The largest difference between two read-backs, and how many values differ at all. */
function compare(a: TextureReadback, b: TextureReadback): { max: number; differing: number } {
    expect([a.width, a.height, a.format]).toEqual([b.width, b.height, b.format]);
    let max = 0;
    let differing = 0;
    for (let i = 0; i < a.data.length; i++) {
        const d = Math.abs(a.data[i] - b.data[i]);
        if (d > 0) differing++;
        if (d > max) max = d;
    }
    return { max, differing };
}

function expect_same(with_prepass: Picture, without: Picture): void {
    for (const t of TARGETS) {
        const { max, differing } = compare(with_prepass.gbuffer[t], without.gbuffer[t]);
        expect(differing, `G-buffer ${t}: ${differing} values differ (largest by ${max})`).toBe(0);
    }
    expect(compare(with_prepass.depth, without.depth).differing, "the G-buffer's depth").toBe(0);
    // the picture: exact on SwiftShader; allow 1/255 for implementations that reassociate the lighting
    const { max, differing } = compare(with_prepass.final, without.final);
    console.log(`[prepass] final picture: ${differing} channel values differ, by at most ${max}/255`);
    expect(max, "the presented picture").toBeLessThanOrEqual(1);
}

describe("PrepassDepth frame product on Dawn", () => {
    it("a FrameStart requirer reads the meshes' depth, and the G-buffer over the prepass gives the same targets and picture", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const scene = make_scene(device);
            const plain = make_renderer(device, errors, scene);
            const without = await picture(device, plain);
            expect(without.passes).not.toContain("depth prepass");

            const renderer = make_renderer(device, errors, scene);
            const reader = renderer.add_extension(new DepthReader("prepass reader", FramePhase.FrameStart, [PrepassDepth], (f) => f.get(PrepassDepth).depth));
            const with_prepass = await picture(device, renderer);
            expect(errors).toEqual([]);
            write_png("/tmp/prepass_depth_scene.png", SIZE, SIZE, with_prepass.final.data as Uint8Array);

            // the prepass runs first (after skinning, which has nothing to do here), before the FrameStart reader
            const order = with_prepass.passes;
            expect(order.indexOf("depth prepass")).toBeGreaterThanOrEqual(0);
            expect(order.indexOf("depth prepass")).toBeLessThan(order.indexOf("prepass reader"));
            expect(order.indexOf("prepass reader")).toBeLessThan(order.indexOf("gbuffer"));

            // the scene covers much of the view, and the masked plane's holes show what is behind (the sky shows
            // only round the backdrop's edges, if at all): the picture is worth comparing
            const albedo = without.gbuffer.albedo.data;
            let covered = 0;
            for (let i = 0; i < SIZE * SIZE; i++) if (albedo[i * 4 + 3] === 255) covered++;
            expect(covered).toBeGreaterThan(SIZE * SIZE * 0.9);
            expect_same(with_prepass, without);

            // what the requirer read at FrameStart: the opaque and masked meshes' depth, exactly the G-buffer's
            const early = await read_texture(device, reader.texture!);
            const d = early.data;
            let nearer = 0;
            let min = 1;
            for (let i = 0; i < SIZE * SIZE; i++) {
                expect(d[i]).toBe(without.depth.data[i]);
                if (d[i] < 1) nearer++;
                min = Math.min(min, d[i]);
            }
            console.log(`[prepass] FrameStart read ${nearer} pixels nearer than the far plane; nearest ${min.toFixed(5)}`);
            expect(nearer).toBe(covered);
            expect(min).toBeGreaterThan(0);
            expect(min).toBeLessThan(0.99);

            // the requirer removed: no prepass next frame, and the picture is still the same
            renderer.remove_extension(reader);
            const after = await picture(device, renderer);
            expect(after.passes).not.toContain("depth prepass");
            expect_same(after, without);
            expect(errors).toEqual([]);
            reader.destroy();
            plain.destroy();
            renderer.destroy();
        });
    });

    it("a FrameStart requirer that moves a mesh while it records: the prepass and the G-buffer draw it where it went, that frame", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            // the reference: the box where the mover will put it, no prepass
            const placed = make_scene(device);
            const box = placed.add(new Mesh(make_box_geometry(0.8, 0.8, 0.8), new StandardMaterial({ label: "moved box", base_color: [0.95, 0.9, 0.1, 1] })));
            box.position.set([0.9, -0.9, 1.5]);
            const plain = make_renderer(device, errors, placed);
            const without = await picture(device, plain);

            // the same box left of the view, moved by a FrameStart extension that requires the prepass
            const moving = make_scene(device);
            const mover_box = moving.add(new Mesh(make_box_geometry(0.8, 0.8, 0.8), new StandardMaterial({ label: "moved box", base_color: [0.95, 0.9, 0.1, 1] })));
            mover_box.position.set([-6, -0.9, 1.5]);
            const renderer = make_renderer(device, errors, moving);
            class Mover extends DepthReader {
                override record(frame: FrameContext): void {
                    mover_box.position.set([0.9, -0.9, 1.5]);
                    super.record(frame);
                }
            }
            const mover = renderer.add_extension(new Mover("mover", FramePhase.FrameStart, [PrepassDepth], (f) => f.get(PrepassDepth).depth));
            const with_prepass = await picture(device, renderer);
            expect(errors).toEqual([]);
            expect(with_prepass.passes).toContain("depth prepass");
            // the box shows where it was moved to (its yellow in the albedo), and the frame equals the reference
            const albedo = with_prepass.gbuffer.albedo;
            let yellow = 0;
            for (let i = 0; i < SIZE * SIZE; i++) if (albedo.data[i * 4] > 200 && albedo.data[i * 4 + 1] > 190 && albedo.data[i * 4 + 2] < 60) yellow++;
            expect(yellow, "pixels of the moved box").toBeGreaterThan(40);
            for (const t of ["albedo", "normal"] as const) {
                expect(compare(with_prepass.gbuffer[t], without.gbuffer[t]).differing, `G-buffer ${t}`).toBe(0);
            }
            expect(compare(with_prepass.depth, without.depth).differing, "the G-buffer's depth").toBe(0);
            // the requirer read the prepass's depth with the box in it
            const early = await read_texture(device, mover.texture!);
            for (let i = 0; i < SIZE * SIZE; i++) expect(early.data[i]).toBe(without.depth.data[i]);
            mover.destroy();
            plain.destroy();
            renderer.destroy();
        });
    });

    it("without a requirer nothing changes: no depth prepass pass, and no pipeline made for one", async () => {
        await with_gpu_device(async (device) => {
            const labels: string[] = [];
            const create = device.createRenderPipeline.bind(device);
            device.createRenderPipeline = (descriptor: GPURenderPipelineDescriptor) => {
                labels.push(descriptor.label ?? "");
                return create(descriptor);
            };
            const errors: Error[] = [];
            const renderer = make_renderer(device, errors, make_scene(device));
            // an extension reading the depth later, requiring nothing
            renderer.add_extension(new DepthReader("later reader", FramePhase.AfterLighting, [], (f) => f.get(ViewTextures).depth));
            for (let i = 0; i < 3; i++) renderer.render_frame();
            expect(errors).toEqual([]);
            expect(renderer.last_frame_passes.map((p) => p.name)).not.toContain("depth prepass");
            expect(labels.filter((l) => l.includes("gbuffer pipeline")).length, "the sixteen G-buffer variants (eight for flat-shaded geometries)").toBe(16);
            expect(labels.filter((l) => l.includes("prepass")), "no prepass pipeline, no G-buffer pipeline over one").toEqual([]);
            renderer.destroy();
        });
    });

    it("a PrepassDepth requirer at a phase that does not carry it is refused at registration", () => {
        const registry = new RenderExtensionRegistry();
        const late = new DepthReader("late reader", FramePhase.AfterGBuffer, [PrepassDepth], (f) => f.get(ViewTextures).depth);
        expect(() => registry.add(late)).toThrow(/requires PrepassDepth at AfterGBuffer, but PrepassDepth is made only at FrameStart/);
    });
});
