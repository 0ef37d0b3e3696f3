// A mesh pass with a target of its own (pixi3d's ForwardRenderPass into a RenderTexture), on Dawn: it draws from
// its own camera into a texture it owns, leaving the scene colour alone; with no mesh to draw it records and
// publishes nothing; per-mesh variants draw with their own shaders; a target depth buffer hides what is behind.
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { FLAT_WGSL } from "../../../../shade/renderer/mesh_pass/mesh_pass_wgsl.js";
import { MeshPassExtension } from "../../../../shade/renderer/mesh_pass/MeshPassExtension.js";
import { MeshPassTargets } from "../../../../shade/renderer/mesh_pass/MeshPassTargets.js";
import { PipelineCache } from "../../../../shade/renderer/pipeline/PipelineCache.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Camera } from "../../../../shade/renderer/scene/Camera.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, to_rgba8, with_gpu_device, write_png, type TextureReadback } from "../../../harness/index.js";

const W = 96;
const H = 64;
const TW = 48;
const TH = 32;

const RED_WGSL = /* wgsl */ `
@vertex
fn vs_main(v: MeshPassVertex) -> @builtin(position) vec4f {
    return camera.view_projection * (objects[v.object].model * vec4f(v.position, 1.0));
}
@fragment
fn fs_main() -> @location(0) vec4f {
    return vec4f(1.0, 0.0, 0.0, 1.0);
}
`;

function two_spheres(): { scene: Scene; left: Mesh; right: Mesh } {
    const scene = new Scene();
    const grey = new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] });
    const geometry = make_sphere_geometry(0.6, 24, 12);
    const left = scene.add(new Mesh(geometry, grey));
    left.position.set([-1, 0, 0]);
    const right = scene.add(new Mesh(geometry, grey));
    right.position.set([1, 0, 0]);
    return { scene, left, right };
}

function renderer_for(device: GPUDevice, scene: Scene): Renderer {
    const renderer = new Renderer({ device, target: new TextureRenderTarget(W, H), scene, feature_taa_enabled: false });
    renderer.view.camera.position.set([0, 0, 5]);
    renderer.view.camera.target.set([0, 0, 0]);
    renderer.view.camera.fov_y = Math.PI / 4;
    renderer.capture_pass_list = true;
    return renderer;
}

interface FlatOptions {
    camera?: Camera;
    depth?: GPUTextureFormat;
    format?: GPUTextureFormat;
    meshes?: "joined" | "scene";
    pipelines?: PipelineCache;
}

function flat_pass(name: string, color: number[], options: FlatOptions = {}): MeshPassExtension {
    const pass = new MeshPassExtension({
        name,
        shader: FLAT_WGSL,
        camera: options.camera,
        target: { width: TW, height: TH, depth: options.depth, format: options.format },
        meshes: options.meshes,
        pipelines: options.pipelines,
        variants: { red: RED_WGSL },
    });
    pass.values.data.set(color);
    return pass;
}

async function owned(pass: MeshPassExtension, device: GPUDevice, name: string): Promise<TextureReadback> {
    const image = await read_texture(device, pass.texture!);
    const k = 4; // enlarged, nearest-neighbour, so that the PNG can be looked at
    const rgba = to_rgba8(image);
    const big = new Uint8Array(image.width * k * image.height * k * 4);
    for (let y = 0; y < image.height * k; y++) {
        for (let x = 0; x < image.width * k; x++) {
            const at = (((y / k) | 0) * image.width + ((x / k) | 0)) * 4;
            big.set(rgba.subarray(at, at + 4), (y * image.width * k + x) * 4);
        }
    }
    write_png(`/tmp/mesh_pass_target_${name}.png`, image.width * k, image.height * k, big);
    return image;
}

/** Centre x (0..1) and count of the pixels whose channel `c` is > 128 while the other two colour channels are < 64. */
function blob(image: TextureReadback, c: number): { x: number; count: number } {
    let sum = 0;
    let count = 0;
    for (let y = 0; y < image.height; y++) {
        for (let x = 0; x < image.width; x++) {
            const p = pixel_at(image, x, y);
            if (p[c] > 128 && p[(c + 1) % 3] < 64 && p[(c + 2) % 3] < 64) {
                sum += x;
                count++;
            }
        }
    }
    return { x: count === 0 ? NaN : sum / count / image.width, count };
}

function pass_names(renderer: Renderer): string[] {
    return renderer.last_frame_passes.filter((p) => !p.culled).map((p) => p.name);
}

/** Notes, at AfterTransparency, whether the frame carries a target published under `name`. */
class TargetProbe extends RenderExtension {
    phase = FramePhase.AfterTransparency;
    published = false;
    constructor(readonly target_name: string) {
        super();
        this.name = `probe ${target_name}`;
    }
    record(frame: FrameContext): void {
        this.published = frame.has(MeshPassTargets) && frame.get(MeshPassTargets).has(this.target_name);
    }
}

describe("MeshPassExtension with an owned target, on Dawn", () => {
    it("a second camera's view lands in the owned texture (the joined mesh where that camera sees it, following the camera); the scene colour is untouched", async () => {
        await with_gpu_device(async (device) => {
            const { scene, right } = two_spheres();
            const renderer = renderer_for(device, scene);
            renderer.render_frame();
            const plain = await read_texture(device, (renderer.target as TextureRenderTarget).acquire());

            const camera = new Camera();
            camera.position.set([1, 0, 4]); // straight in front of the right sphere
            camera.target.set([1, 0, 0]);
            const side = renderer.add_extension(flat_pass("side view", [0, 1, 0, 1], { camera }));
            const view = renderer.add_extension(flat_pass("view mask", [0, 0, 1, 1])); // no camera: the view's
            side.add(right);
            view.add(right);
            renderer.render_frame();
            expect(pass_names(renderer)).toEqual(expect.arrayContaining(["side view / draw", "view mask / draw"]));
            const from_side = await owned(side, device, "second_camera");
            const from_view = await owned(view, device, "view_camera");
            const green = blob(from_side, 1);
            expect(green.count, "the joined sphere (radius ~4 px)").toBeGreaterThan(35);
            expect(Math.abs(green.x - 0.5), "centred: the second camera looks straight at it").toBeLessThan(0.04);
            expect(pixel_at(from_side, 2, TH / 2), "cleared where no mesh is (transparent black)").toEqual([0, 0, 0, 0]);
            expect(pixel_at(from_side, Math.round(TW * 0.21), TH / 2), "the other sphere did not join").toEqual([0, 0, 0, 0]);
            const blue = blob(from_view, 2);
            expect(blue.count).toBeGreaterThan(30);
            expect(blue.x, "from the view's camera the right sphere is right of centre").toBeGreaterThan(0.6);
            const image = await read_texture(device, (renderer.target as TextureRenderTarget).acquire());
            expect(Array.from(image.data), "the scene colour is not drawn over").toEqual(Array.from(plain.data));

            // the camera is uploaded every frame: moved left, the sphere moves right in its picture
            const texture = side.texture;
            camera.position.set([-0.5, 0, 4]);
            camera.target.set([-0.5, 0, 0]);
            renderer.render_frame();
            const moved_image = await owned(side, device, "second_camera_moved");
            const moved = blob(moved_image, 1);
            expect(pixel_at(moved_image, TW / 2, TH / 2), "cleared each frame: last frame's sphere is gone").toEqual([0, 0, 0, 0]);
            expect(moved.x - green.x, "the sphere moved right with the camera moved left").toBeGreaterThan(0.2);
            expect(side.texture, "the same owned texture every frame").toBe(texture);
            renderer.destroy();
            side.destroy();
            view.destroy();
        });
    });

    it("with no mesh to draw (none joined, hidden, removed) it records no pass and publishes no target", async () => {
        await with_gpu_device(async (device) => {
            const { scene, left } = two_spheres();
            const renderer = renderer_for(device, scene);
            const pass = renderer.add_extension(flat_pass("mask", [1, 1, 1, 1]));
            const probe = renderer.add_extension(new TargetProbe("mask"));
            renderer.render_frame();
            expect(pass_names(renderer)).not.toContain("mask / draw");
            expect(probe.published).toBe(false);
            expect(pass.texture, "nothing drawn yet: no texture made").toBeNull();

            pass.add(left);
            left.visible = false;
            renderer.render_frame();
            expect(pass_names(renderer)).not.toContain("mask / draw");
            expect(probe.published).toBe(false);

            left.visible = true;
            renderer.render_frame();
            expect(pass_names(renderer)).toContain("mask / draw");
            expect(probe.published).toBe(true);
            expect(blob(await owned(pass, device, "mask_joined"), 0).count).toBe(0); // white, not a pure channel
            const white = await owned(pass, device, "mask_joined");
            expect(pixel_at(white, Math.round(TW * 0.34), TH / 2)).toEqual([255, 255, 255, 255]);

            pass.remove(left);
            renderer.render_frame();
            expect(pass_names(renderer)).not.toContain("mask / draw");
            expect(probe.published).toBe(false);
            renderer.destroy();
            pass.destroy();
        });
    });

    it("per-mesh variants: each mesh drawn with its variant's shader, one pipeline per variant; a mesh moves between variants", async () => {
        await with_gpu_device(async (device) => {
            const { scene, left, right } = two_spheres();
            const renderer = renderer_for(device, scene);
            // every mesh of the scene; the one that joined with "red" is drawn with that shader
            const pass = renderer.add_extension(flat_pass("ids", [0, 1, 0, 1], { meshes: "scene" }));
            expect(pass.add(right, "red")).toBe(true);
            expect(() => pass.add(left, "blue")).toThrow(/no variant 'blue' \(defined: default, red\)/);
            renderer.render_frame();
            const image = await owned(pass, device, "variants");
            const green = blob(image, 1);
            const red = blob(image, 0);
            expect(green.count).toBeGreaterThan(30);
            expect(red.count).toBeGreaterThan(30);
            expect(green.x, "the left sphere: default variant, green").toBeLessThan(0.4);
            expect(red.x, "the right sphere: red variant").toBeGreaterThan(0.6);
            expect(pass.pipelines.builds, "two variants, two pipelines").toBe(2);

            expect(pass.add(left, "red"), "moved to the red variant").toBe(true);
            expect(pass.add(left, "red")).toBe(false);
            expect(pass.variant_of(left)).toBe("red");
            const draws = pass.draw_count;
            renderer.render_frame();
            const both = await owned(pass, device, "variants_both_red");
            expect(blob(both, 1).count).toBe(0);
            expect(blob(both, 0).count).toBeGreaterThan(red.count * 1.8);
            expect(pass.draw_count - draws, "one variant, one geometry: one instanced draw").toBe(1);
            expect(pass.pipelines.builds, "no pipeline built again").toBe(2);
            renderer.destroy();
            pass.destroy();
        });
    });

    it("a target depth buffer keeps the nearer mesh in front whatever the draw order", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const grey = new StandardMaterial({ base_color: [0.5, 0.5, 0.5, 1] });
            const near = scene.add(new Mesh(make_sphere_geometry(0.5, 24, 12), grey));
            near.position.set([0, 0, 1]);
            const far = scene.add(new Mesh(make_sphere_geometry(1, 24, 12), grey));
            far.position.set([0.3, 0, -1]);
            const renderer = renderer_for(device, scene);
            const with_depth = renderer.add_extension(flat_pass("with depth", [0, 1, 0, 1], { depth: "depth24plus" }));
            const without = renderer.add_extension(flat_pass("without depth", [0, 1, 0, 1]));
            for (const pass of [with_depth, without]) {
                pass.add(near); // default variant, drawn first
                pass.add(far, "red"); // drawn after it
            }
            renderer.render_frame();
            const a = await owned(with_depth, device, "with_depth");
            const b = await owned(without, device, "without_depth");
            expect(pixel_at(a, TW / 2, TH / 2), "the near sphere in front").toEqual([0, 255, 0, 255]);
            expect(pixel_at(b, TW / 2, TH / 2), "without depth the later draw wins").toEqual([255, 0, 0, 255]);
            expect(blob(a, 0).count, "the far sphere shows round the near one").toBeGreaterThan(20);
            renderer.destroy();
            with_depth.destroy();
            without.destroy();
        });
    });

    it("the target format is in the pipeline key: two targets of other formats sharing one cache build one pipeline each, and both draw", async () => {
        await with_gpu_device(async (device) => {
            const { scene, left } = two_spheres();
            const renderer = renderer_for(device, scene);
            const pipelines = new PipelineCache();
            const unorm = renderer.add_extension(flat_pass("unorm", [0, 1, 0, 1], { pipelines }));
            const half = renderer.add_extension(flat_pass("half", [0, 2, 0, 1], { pipelines, format: "rgba16float" }));
            unorm.add(left);
            half.add(left);
            const errors: GPUError[] = [];
            device.pushErrorScope("validation");
            renderer.render_frame();
            const error = await device.popErrorScope();
            if (error !== null) errors.push(error);
            expect(errors.map((e) => e.message)).toEqual([]);
            expect(pipelines.builds).toBe(2);
            expect(half.key.value).toContain("rgba16float");
            const a = await owned(unorm, device, "format_unorm");
            const b = await read_texture(device, half.texture!);
            const x = Math.round(TW * 0.34);
            expect(pixel_at(a, x, TH / 2)).toEqual([0, 255, 0, 255]);
            expect(Array.from(pixel_at(b, x, TH / 2))).toEqual([0, 2, 0, 1]);
            renderer.destroy();
            unorm.destroy();
            half.destroy();
        });
    });
});
