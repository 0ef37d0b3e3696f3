// The G-buffer's render bundle on Dawn: the unskinned opaque draws are recorded once and replayed while nothing
// they depend on changes. Every picture is compared with the same frame drawn again with the runs drawn directly
// (`gbuffer_bundles` off for that frame; TAA off, so the two are the same frame); `gbuffer_bundle_records` says
// when the bundle was recorded again. One renderer: two on one device would share the skinned buffers.
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { PrepassDepth } from "../../../../shade/renderer/products/PrepassDepth.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { MeshSkin } from "../../../../shade/renderer/scene/MeshSkin.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";
import { TextureProbe } from "../products/probe.js";

const SIZE = 48;

interface Pair {
    scene: Scene;
    renderer: Renderer;
    errors: Error[];
    boxes: Mesh[];
    red: StandardMaterial;
    blue: StandardMaterial;
    box: Geometry;
}

/** Four boxes in a row (two materials, one geometry: two instanced runs) and the same scene for both renderers. */
function pair(device: GPUDevice, prepass = false): Pair {
    const scene = new Scene();
    const box = make_box_geometry(0.7, 0.7, 0.7);
    const red = new StandardMaterial({ base_color: [0.9, 0.15, 0.1, 1], label: "red" });
    const blue = new StandardMaterial({ base_color: [0.1, 0.3, 0.9, 1], label: "blue" });
    const boxes: Mesh[] = [];
    for (let i = 0; i < 4; i++) {
        const mesh = scene.add(new Mesh(box, i % 2 === 0 ? red : blue));
        mesh.position.set([-1.8 + i * 1.2, 0, 0]);
        mesh.rotation.set([0.2, 0.3, 0, 0.93]);
        boxes.push(mesh);
    }
    const errors: Error[] = [];
    const renderer = new Renderer({
        device,
        target: new TextureRenderTarget(SIZE, SIZE),
        scene,
        feature_taa_enabled: false,
        resolution_scale: 1,
        on_error: (e) => errors.push(e),
    });
    renderer.view.camera.position.set([0, 1, 5]);
    // an extension asking for the depth prepass: the G-buffer then draws over it (depth-compare "equal")
    if (prepass) renderer.add_extension(new TextureProbe("prepass probe", FramePhase.FrameStart, [PrepassDepth], () => null));
    return { scene, renderer, errors, boxes, red, blue, box };
}

/** A frame with the bundle, then the same frame drawn directly: the pictures must agree. Returns the first. */
async function frame(device: GPUDevice, p: Pair, what: string): Promise<TextureReadback> {
    const r = p.renderer;
    expect(r.gbuffer_bundles).toBe(true);
    r.render_frame();
    const bundled = await read_texture(device, r.target.acquire());
    r.gbuffer_bundles = false;
    r.render_frame();
    r.gbuffer_bundles = true;
    const direct = await read_texture(device, r.target.acquire());
    expect(p.errors, what).toEqual([]);
    expect(largest_difference(bundled, direct), `${what}: bundled = drawn directly`).toBeLessThanOrEqual(1);
    return bundled;
}

function largest_difference(a: TextureReadback, b: TextureReadback): number {
    let worst = 0;
    for (let i = 0; i < a.data.length; i++) worst = Math.max(worst, Math.abs(a.data[i] - b.data[i]));
    return worst;
}

function differing_pixels(a: TextureReadback, b: TextureReadback): number {
    let count = 0;
    for (let p = 0; p < SIZE * SIZE; p++) {
        for (let c = 0; c < 3; c++) {
            if (Math.abs(a.data[p * 4 + c] - b.data[p * 4 + c]) > 2) {
                count++;
                break;
            }
        }
    }
    return count;
}

function destroy(p: Pair): void {
    p.renderer.destroy();
}

/** A 2x2 texture of one colour. */
function solid_texture(device: GPUDevice, rgba: readonly number[], label: string): GPUTexture {
    const texture = device.createTexture({ label, size: [2, 2], format: "rgba8unorm", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    const texels = new Uint8Array(16);
    for (let i = 0; i < 16; i++) texels[i] = rgba[i % 4];
    device.queue.writeTexture({ texture }, texels, { bytesPerRow: 8 }, [2, 2]);
    return texture;
}

describe("G-buffer render bundle on Dawn", () => {
    it("a static scene records its bundle once over many frames and draws what direct draws draw; bundles off records none", async () => {
        await with_gpu_device(async (device) => {
            const p = pair(device);
            const first = await frame(device, p, "first frame");
            write_readback_png(first, "gbuffer_bundle_static");
            expect(p.renderer.gbuffer_bundle_records).toBe(1);
            for (let i = 0; i < 8; i++) p.renderer.render_frame();
            const last = await frame(device, p, "tenth frame");
            expect(largest_difference(last, first)).toBeLessThanOrEqual(1);
            expect(p.renderer.gbuffer_bundle_records, "recorded once in ten frames").toBe(1);
            destroy(p);
            const off = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene: p.scene, feature_taa_enabled: false, gbuffer_bundles: false });
            off.render_frame();
            expect(off.gbuffer_bundles).toBe(false);
            expect(off.gbuffer_bundle_records, "the option off: none recorded").toBe(0);
            off.destroy();
        });
    });

    it("a mesh moving or a material's colour changing is object data: the bundle is replayed and the picture shows it", async () => {
        await with_gpu_device(async (device) => {
            const p = pair(device);
            const before = await frame(device, p, "before");
            p.boxes[1].position[1] = 0.8;
            const moved = await frame(device, p, "a box moved");
            expect(differing_pixels(moved, before), "the box moved").toBeGreaterThan(30);
            p.red.base_color.set([0.1, 0.9, 0.2, 1]);
            const recoloured = await frame(device, p, "red made green");
            expect(differing_pixels(recoloured, moved), "two boxes turned green").toBeGreaterThan(30);
            p.boxes[2].color.set([0.2, 0.2, 0.2, 1]);
            await frame(device, p, "a mesh colour");
            expect(p.renderer.gbuffer_bundle_records, "never recorded again").toBe(1);
            destroy(p);
        });
    });

    it("membership, visibility, geometry, material, a texture slot, a geometry re-uploaded: each records the bundle again, once", async () => {
        await with_gpu_device(async (device) => {
            const p = pair(device);
            // the last box's geometry is its own, to re-upload
            const grown = make_box_geometry(0.7, 0.7, 0.7);
            p.boxes[3].geometry = grown;
            let picture = await frame(device, p, "first frame");
            let records = 1;
            const green = new StandardMaterial({ base_color: [0.2, 0.8, 0.3, 1], label: "green" });
            // double-sided: another pipeline, so the swapped mesh leaves its instanced run (a material of the same
            // variant joins the run: its values travel in the object data, and the bundle stays as it is)
            const white = new StandardMaterial({ base_color: [1, 1, 1, 1], label: "white", double_sided: true });
            const sphere = make_sphere_geometry(0.5, 16, 8);
            const extra = new Mesh(p.box, green);
            extra.position.set([0, -1.2, 0]);
            const changes: [string, () => void][] = [
                ["a mesh hidden", () => (p.boxes[0].visible = false)],
                ["a mesh shown again", () => (p.boxes[0].visible = true)],
                ["a mesh added", () => p.scene.add(extra)],
                ["a mesh removed", () => p.scene.remove(extra)],
                ["a mesh's geometry swapped", () => (p.boxes[1].geometry = sphere)],
                ["a mesh's material swapped", () => (p.boxes[2].material = white)],
                ["a texture slot set", () => (white.base_color_texture = solid_texture(device, [255, 200, 0, 255], "yellow"))],
                ["a texture slot changed", () => (white.base_color_texture = solid_texture(device, [0, 255, 255, 255], "cyan"))],
                [
                    "a geometry re-uploaded into new buffers (a box become a sphere: more vertices)",
                    () => {
                        grown.attributes.position.array = sphere.attributes.position.array;
                        grown.attributes.normal!.array = sphere.attributes.normal!.array;
                        grown.attributes.uv!.array = sphere.attributes.uv!.array;
                        grown.index = sphere.index;
                        grown.needsUpdate = true;
                    },
                ],
                [
                    "the geometry re-uploaded in its buffers with fewer triangles",
                    () => {
                        grown.index = sphere.index.slice(0, Math.floor(sphere.index.length / 6) * 3);
                        grown.needsUpdate = true;
                    },
                ],
            ];
            for (const [what, change] of changes) {
                change();
                const after = await frame(device, p, what);
                expect(differing_pixels(after, picture), `${what}: the picture changed`).toBeGreaterThan(10);
                expect(p.renderer.gbuffer_bundle_records, `${what}: recorded again`).toBe(++records);
                await frame(device, p, `${what}, next frame`);
                expect(p.renderer.gbuffer_bundle_records, `${what}: once`).toBe(records);
                picture = after;
            }
            write_readback_png(picture, "gbuffer_bundle_changed");
            destroy(p);
        });
    });

    it("skinned meshes animated every frame are drawn apart: the rest stays one bundle, recorded once", async () => {
        await with_gpu_device(async (device) => {
            const p = pair(device);
            const box = make_box_geometry(0.6, 1.2, 0.6);
            const position = box.attributes.position.array;
            const n = position.length / 3;
            const joints = new Float32Array(n * 4);
            const weights = new Float32Array(n * 4);
            for (let i = 0; i < n; i++) {
                joints[i * 4] = position[i * 3 + 1] > 0 ? 1 : 0;
                weights[i * 4] = 1;
            }
            const skinned = new Geometry({ position, normal: box.attributes.normal!.array, uv: box.attributes.uv!.array, joints, weights, index: box.index });
            const skins: MeshSkin[] = [];
            // sorted among the static runs: one of the boxes' materials
            for (const material of [p.red, p.blue]) {
                const mesh = p.scene.add(new Mesh(skinned, material));
                const skin = (mesh.skin = new MeshSkin(2, `skin ${material.label}`));
                skins.push(skin);
            }
            let before = await frame(device, p, "first frame");
            for (let f = 1; f <= 4; f++) {
                for (let s = 0; s < skins.length; s++) {
                    skins[s].matrices[16 + 12] = (s === 0 ? -0.4 : 0.4) * f;
                    skins[s].matrices[16 + 13] = -1 + 0.3 * f;
                    skins[s].mark_changed();
                }
                const after = await frame(device, p, `skinned frame ${f}`);
                expect(differing_pixels(after, before), `frame ${f}: the skinned halves moved`).toBeGreaterThan(5);
                before = after;
            }
            write_readback_png(before, "gbuffer_bundle_skinned");
            expect(p.renderer.gbuffer_bundle_records, "the skins changing never recorded the bundle again").toBe(1);
            destroy(p);
        });
    });

    it("over a depth prepass the bundle is read-only depth and draws what direct draws draw; turning the prepass off records it again", async () => {
        await with_gpu_device(async (device) => {
            const p = pair(device, true);
            p.renderer.capture_pass_list = true;
            await frame(device, p, "over the prepass");
            expect(p.renderer.last_frame_passes.some((pass) => pass.name === "depth prepass" && !pass.culled), "a depth prepass ran").toBe(true);
            for (let i = 0; i < 3; i++) p.renderer.render_frame();
            p.boxes[0].position[1] = 0.5;
            await frame(device, p, "over the prepass, a box moved");
            expect(p.renderer.gbuffer_bundle_records, "over the prepass: once").toBe(1);
            for (const e of [...p.renderer.registry.all()]) p.renderer.remove_extension(e);
            await frame(device, p, "prepass gone");
            expect(p.renderer.gbuffer_bundle_records, "other pipelines: recorded again").toBe(2);
            destroy(p);
        });
    });
});
