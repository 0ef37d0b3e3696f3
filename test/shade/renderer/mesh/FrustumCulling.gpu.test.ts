// GPU frustum culling of the G-buffer's opaque runs on Dawn (issue 23: "GPU culling draws the same picture as
// drawing everything (a camera sweep over a field of meshes, including meshes straddling the frustum)").
// Each pose is drawn twice, culled (indirect draws of what the visibility pass let through) and not (every object
// drawn directly); the pictures must be the same, and the culled frames must have drawn fewer instances.
import { describe, expect, it } from "vitest";
import { GeometryAttribute } from "../../../../shade/renderer/geometry/GeometryAttribute.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_cylinder_geometry } from "../../../../shade/renderer/geometry/primitives/make_cylinder_geometry.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 96;
const GRID = 12;

function field(device: GPUDevice) {
    const scene = new Scene();
    const errors: Error[] = [];
    const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, resolution_scale: 1, on_error: (e) => errors.push(e) });
    const geometries = [make_box_geometry(1, 1, 1), make_sphere_geometry(0.6, 16, 8), make_cylinder_geometry(0.4, 1.4, 12)];
    const materials = [
        new StandardMaterial({ base_color: [0.9, 0.2, 0.15, 1], label: "red" }),
        new StandardMaterial({ base_color: [0.2, 0.8, 0.3, 1], roughness: 0.3, label: "green" }),
        new StandardMaterial({ base_color: [0.2, 0.35, 0.95, 1], metalness: 0.6, label: "blue" }),
    ];
    let n = 0;
    for (let x = 0; x < GRID; x++) {
        for (let z = 0; z < GRID; z++) {
            const mesh = scene.add(new Mesh(geometries[(x + 2 * z) % 3], materials[(x * 7 + z) % 3]));
            mesh.position.set([(x - GRID / 2) * 1.6, 0.5 + ((x * 3 + z) % 4) * 0.3, (z - GRID / 2) * 1.6]);
            const s = 0.7 + ((x + z) % 3) * 0.25;
            mesh.scale.set([s, s * 1.2, s]);
            // half frozen (kept runs), half live: both parts are culled
            mesh.frozen = (x + z) % 2 === 0;
            n++;
        }
    }
    return { scene, renderer, errors, count: n };
}

function max_difference(a: TextureReadback, b: TextureReadback): number {
    let worst = 0;
    for (let i = 0; i < a.data.length; i++) worst = Math.max(worst, Math.abs(a.data[i] - b.data[i]));
    return worst;
}

describe("GPU frustum culling on Dawn", () => {
    it("a camera sweep over a field of meshes: the culled picture is the picture of everything, and fewer are drawn", async () => {
        await with_gpu_device(async (device) => {
            expect(device.features.has("indirect-first-instance"), "the test device culls").toBe(true);
            const { renderer, errors, count } = field(device);
            const culling = renderer.gbuffer_culling;
            expect(culling.culls(device)).toBe(true);
            const camera = renderer.view.camera;
            // from the field's edge looking across it, turning: the frustum's sides cut through meshes every pose
            const poses = 8;
            let fewest = count;
            let culled_poses = 0;
            for (let i = 0; i < poses; i++) {
                const angle = (i / poses) * Math.PI * 2;
                camera.position.set([Math.cos(angle) * 4, 3 + (i % 3), Math.sin(angle) * 4]);
                camera.target.set([Math.cos(angle + 1.9) * 6, 0.5, Math.sin(angle + 1.9) * 6]);

                culling.enabled = true;
                renderer.render_frame();
                const culled = await read_texture(device, renderer.target.acquire());
                const drawn = (await culling.read_instance_counts(device)).reduce((a, b) => a + b, 0);

                culling.enabled = false;
                renderer.render_frame();
                const everything = await read_texture(device, renderer.target.acquire());
                if (i === 1) {
                    write_readback_png(culled, "frustum_culling_culled");
                    write_readback_png(everything, "frustum_culling_everything");
                }
                expect(max_difference(culled, everything), `pose ${i}: culled picture against everything drawn`).toBeLessThanOrEqual(1);
                // something of the field is in view, and the meshes behind the camera were not drawn
                expect(drawn, `pose ${i}: instances drawn`).toBeGreaterThan(0);
                fewest = Math.min(fewest, drawn);
                if (drawn < count * 0.75) culled_poses++;
            }
            expect(culled_poses, `poses where culling left out a quarter of the ${count} meshes (fewest drawn: ${fewest})`).toBeGreaterThanOrEqual(poses / 2);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("a mesh straddling the frustum's side is drawn; one just outside is not", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, resolution_scale: 1 });
            const material = new StandardMaterial({ base_color: [1, 1, 1, 1], label: "white" });
            const box = make_box_geometry(1, 1, 1);
            const camera = renderer.view.camera;
            camera.position.set([0, 0, 10]);
            camera.target.set([0, 0, 0]);
            renderer.render_frame();
            // the frustum's right side at the boxes' depth, from the camera's own matrix
            const half_width = 10 * Math.tan(camera.fov_y / 2);
            // centre outside the frustum, a corner still in: drawn by a sphere test, dropped by a centre test
            const straddling = scene.add(new Mesh(box, material));
            straddling.position.set([half_width + 0.3, 0, 0]);
            // its sphere (radius sqrt(3)/2 = 0.87) wholly outside
            const outside = scene.add(new Mesh(box, material));
            outside.position.set([half_width + 1.2, 2, 0]);
            renderer.render_frame();
            const counts = await culling_counts(renderer, device);
            expect(counts, "one box of the run drawn").toBe(1);
            const picture = await read_texture(device, renderer.target.acquire());
            write_readback_png(picture, "frustum_culling_straddling");
            // the straddling box's side shows at the right edge: pixels there that are not the sky (the left edge's)
            let lit = 0;
            for (let y = 0; y < picture.height; y++) {
                const o = (y * picture.width + picture.width - 1) * picture.channels;
                const sky = y * picture.width * picture.channels;
                if (Math.abs(picture.data[o] - picture.data[sky]) + Math.abs(picture.data[o + 1] - picture.data[sky + 1]) + Math.abs(picture.data[o + 2] - picture.data[sky + 2]) > 12) lit++;
            }
            expect(lit, "pixels of the straddling box at the right edge").toBeGreaterThan(3);
            renderer.destroy();
        });
    });

    it("a frozen mesh whose geometry is rewritten in place (flagged) or given another position attribute (no flag) is culled by its new bounds that frame", async () => {
        await with_gpu_device(async (device) => {
            const scene = new Scene();
            const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false, resolution_scale: 1 });
            const material = new StandardMaterial({ base_color: [1, 1, 1, 1], label: "white" });
            const camera = renderer.view.camera;
            camera.position.set([0, 0, 10]);
            camera.target.set([0, 0, 0]);
            // the box's vertices 30 units to the left: out of view; a second, still mesh keeps the frame's runs busy
            const moved = make_box_geometry(1, 1, 1);
            const position = moved.attributes.position.array;
            const centred = position.slice();
            for (let i = 0; i < position.length; i += 3) position[i] -= 30;
            const box = scene.add(new Mesh(moved, material));
            box.frozen = true;
            const other = scene.add(new Mesh(make_box_geometry(1, 1, 1), material));
            other.position.set([0, 3, 0]);
            other.frozen = true;
            renderer.render_frame();
            renderer.render_frame();
            expect(await culling_counts(renderer, device), "the other box alone").toBe(1);
            position.set(centred);
            moved.attributes.position.needsUpdate = true;
            renderer.render_frame();
            expect(await culling_counts(renderer, device), "both boxes, the first by its new bounds").toBe(2);
            // an attribute object swapped in with no flag: out of view again that very frame, then back
            const away = centred.slice();
            for (let i = 0; i < away.length; i += 3) away[i] += 30;
            const original = moved.attributes.position;
            moved.attributes.position = new GeometryAttribute(away, 3);
            renderer.render_frame();
            expect(await culling_counts(renderer, device), "the swapped-in vertices are out of view").toBe(1);
            moved.attributes.position = original;
            renderer.render_frame();
            expect(await culling_counts(renderer, device), "the first attribute swapped back").toBe(2);
            renderer.destroy();
        });
    });
});

async function culling_counts(renderer: Renderer, device: GPUDevice): Promise<number> {
    return (await renderer.gbuffer_culling.read_instance_counts(device)).reduce((a, b) => a + b, 0);
}
