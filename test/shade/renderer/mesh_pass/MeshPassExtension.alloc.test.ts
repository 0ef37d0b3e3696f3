// Allocation per steady frame with an outline and a hover rim drawing joined meshes (method:
// test/harness/allocation.ts, rounds until steady). Zero is asserted on a FAKE device (device-independent: every
// object it hands out is made once), since Dawn's JS wrappers allocate per encoder and pass whatever our code
// does. The frame graph around an extension allocates a little per pass on its own, so the mesh passes are
// measured against a reference renderer whose two extensions record the same graph shape (a pass reading the
// depth and loading and writing the scene colour, opening and ending a render pass) and draw nothing.
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../../shade/renderer/extension/ViewTextures.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { make_outline_pass } from "../../../../shade/renderer/mesh_pass/make_outline_pass.js";
import { make_rim_pass } from "../../../../shade/renderer/mesh_pass/make_rim_pass.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { steady_bytes_per_frame } from "../../../harness/allocation.js";
import { fake_gpu_device } from "../fake_gpu_device.js";

/** The same graph shape as one mesh pass, drawing nothing. */
class ReferencePass extends RenderExtension {
    phase = FramePhase.AfterTransparency;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "reference", colorAttachments: this.#colors };
    #color: FrameGraphHandle = -1;
    #depth: FrameGraphHandle = -1;
    readonly #execute = (_d: unknown, r: FrameGraphResources, e: FrameExecution): void => {
        this.#colors[0] = r.color_attachment(this.#color);
        this.#descriptor.depthStencilAttachment = r.depth_attachment(this.#depth);
        e.encoder.beginRenderPass(this.#descriptor).end();
    };
    readonly #pass_name: string;
    constructor(name: string) {
        super();
        this.name = name;
        this.#pass_name = `${name} / draw`;
    }
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        const pass = frame.graph.add(this.#pass_name, this, this.#execute);
        this.#depth = pass.read(frame.get(ViewTextures).depth);
        this.#color = pass.write(scene.color, "load");
        scene.color = this.#color;
    }
}

function scene(): { scene: Scene; meshes: Mesh[] } {
    const s = new Scene();
    const meshes: Mesh[] = [];
    const sphere = make_sphere_geometry();
    const box = make_box_geometry();
    for (let i = 0; i < 6; i++) {
        const mesh = s.add(new Mesh(i % 2 === 0 ? sphere : box, new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] })));
        mesh.position.set([i - 3, 0, 0]);
        meshes.push(mesh);
    }
    return { scene: s, meshes };
}

describe("MeshPassExtension allocation per steady frame", () => {
    it("FAKE device (device-independent): an outline on 4 meshes and a rim on 2, values written every frame, allocate nothing beyond the reference", async () => {
        const mesh_pass = fake_gpu_device();
        const a = scene();
        const renderer = new Renderer({ device: mesh_pass.device, target: new TextureRenderTarget(64, 64), scene: a.scene, feature_taa_enabled: false });
        const outline = renderer.add_extension(make_outline_pass());
        const rim = renderer.add_extension(make_rim_pass());
        for (let i = 0; i < 4; i++) outline.add(a.meshes[i]);
        rim.add(a.meshes[4]);
        rim.add(a.meshes[5]);
        let t = 0;
        const frame = (): void => {
            rim.values.data[3] = 1 + Math.sin(t++ * 0.1); // a pulsing rim: per-frame values, in place
            renderer.render_frame();
        };

        const reference = fake_gpu_device();
        const b = scene();
        const reference_renderer = new Renderer({ device: reference.device, target: new TextureRenderTarget(64, 64), scene: b.scene, feature_taa_enabled: false });
        reference_renderer.add_extension(new ReferencePass("outline"));
        reference_renderer.add_extension(new ReferencePass("hover rim"));
        const reference_frame = (): void => {
            reference_renderer.render_frame();
        };

        for (let i = 0; i < 3000; i++) {
            frame();
            reference_frame();
        }
        const textures = mesh_pass.stats.textures;
        const bind_groups = mesh_pass.stats.bind_groups;
        const passes = mesh_pass.stats.render_passes;
        const reference_passes = reference.stats.render_passes;
        frame();
        reference_frame();
        expect(mesh_pass.stats.render_passes - passes, "the two mesh passes ran").toBe(reference.stats.render_passes - reference_passes);
        const reading = await steady_bytes_per_frame([frame, reference_frame], { window: 1000, accept: ([m, r]) => m - r < 8 });
        const [bytes, reference_bytes] = reading.medians;
        console.log(`[alloc] FAKE device, outline (4 meshes) + rim (2): ${bytes.toFixed(1)} young bytes/frame; reference ${reference_bytes.toFixed(1)}; rounds ${reading.rounds}`);
        expect(mesh_pass.stats.textures, "textures created in steady state").toBe(textures);
        expect(mesh_pass.stats.bind_groups, "bind groups created in steady state").toBe(bind_groups);
        expect(bytes - reference_bytes, "young bytes per steady frame beyond the reference").toBeLessThan(8);
        renderer.destroy();
        reference_renderer.destroy();
        outline.destroy();
        rim.destroy();
    });
});
