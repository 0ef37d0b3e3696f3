// Allocation per steady frame of mesh passes with owned targets (method: test/harness/allocation.ts, rounds until
// steady), on a FAKE device (device-independent: every object it hands out is made once; Dawn's JS wrappers
// allocate per encoder whatever our code does). Unlike MeshPassExtension.alloc.test.ts no reference is needed:
// the renderer's own frame allocates nothing (test/peer_features/steady_frame_bytes.ts), so the bound is absolute.
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { FLAT_WGSL } from "../../../../shade/renderer/mesh_pass/mesh_pass_wgsl.js";
import { MeshPassExtension } from "../../../../shade/renderer/mesh_pass/MeshPassExtension.js";
import { make_outline_pass } from "../../../../shade/renderer/mesh_pass/make_outline_pass.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Camera } from "../../../../shade/renderer/scene/Camera.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { steady_bytes_per_frame } from "../../../harness/allocation.js";
import { fake_gpu_device } from "../fake_gpu_device.js";

const BOUND = 8; // below the smallest JS object

describe("MeshPassExtension with targets: allocation per steady frame", () => {
    it("FAKE device (device-independent): a second camera (moved every frame) into an owned target with depth, every scene mesh, three variants; and an outline with a variant; allocate nothing", async () => {
        const { device, stats } = fake_gpu_device();
        const scene = new Scene();
        const sphere = make_sphere_geometry();
        const box = make_box_geometry();
        const meshes: Mesh[] = [];
        for (let i = 0; i < 6; i++) {
            const mesh = scene.add(new Mesh(i % 2 === 0 ? sphere : box, new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] })));
            mesh.position.set([i - 3, 0, 0]);
            meshes.push(mesh);
        }
        const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 64), scene, feature_taa_enabled: false });
        const camera = new Camera();
        const mask = renderer.add_extension(
            new MeshPassExtension({
                name: "mask",
                shader: FLAT_WGSL,
                variants: { a: FLAT_WGSL + "\n// a", b: FLAT_WGSL + "\n// b" },
                camera,
                target: { width: 32, height: 32, depth: "depth24plus" },
                meshes: "scene",
                filter: (mesh) => mesh.material.transparency === "opaque",
            }),
        );
        mask.add(meshes[1], "a");
        mask.add(meshes[2], "b");
        const outline = renderer.add_extension(make_outline_pass());
        outline.define_variant("thick", FLAT_WGSL);
        outline.add(meshes[0]);
        outline.add(meshes[3], "thick");
        let t = 0;
        const frame = (): void => {
            camera.position[0] = Math.sin(t++ * 0.01); // a moving second camera: uploaded in place every frame
            renderer.render_frame();
        };
        for (let i = 0; i < 3000; i++) frame();
        const textures = stats.textures;
        const bind_groups = stats.bind_groups;
        const passes = stats.render_passes;
        const draws = mask.draw_count;
        frame();
        expect(mask.draw_count - draws, "the mask drew its three variants (one geometry run each at least)").toBeGreaterThanOrEqual(3);
        expect(stats.render_passes - passes, "G-buffer etc. plus the two mesh passes ran").toBeGreaterThan(2);
        const reading = await steady_bytes_per_frame([frame], { window: 1000, accept: ([m]) => m < BOUND });
        console.log(`[alloc] FAKE device, target + camera + 3 variants over the scene, outline with 2 variants: ${reading.medians[0].toFixed(1)} young bytes/frame; rounds ${reading.rounds}`);
        expect(stats.textures, "textures created in steady state").toBe(textures);
        expect(stats.bind_groups, "bind groups created in steady state").toBe(bind_groups);
        expect(reading.medians[0], "young bytes per steady frame").toBeLessThan(BOUND);
        renderer.destroy();
        mask.destroy();
        outline.destroy();
    });
});
