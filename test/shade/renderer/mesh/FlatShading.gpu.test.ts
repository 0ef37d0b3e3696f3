// Flat-shaded geometries (every vertex normal its face's) draw into the G-buffer with their vertices glued across
// normals and the face normal from screen derivatives; passes reading positions alone draw with the positions
// glued. The pictures must be those of the geometry's own vertices and normals (Dawn).
import { quat } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { GPUGeometryCache } from "../../../../shade/renderer/mesh/GPUGeometryCache.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { ShadowExtension } from "../../../../shade/renderer/shadows/ShadowExtension.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 96;

// a box with its faces' normals, and the same box made smooth in the eyes of the flatness test by one triangle
// far out of sight whose normals are not its face's: the box itself then draws with its vertex normals
function boxes(): { flat: Geometry; smooth: Geometry } {
    const flat = make_box_geometry(1, 1, 1);
    const a = flat.attributes;
    const n = flat.vertex_count;
    const position = new Float32Array((n + 3) * 3);
    position.set(a.position.array);
    position.set([100, 100, 100, 101, 100, 100, 100, 101, 100], n * 3);
    const normal = new Float32Array((n + 3) * 3);
    normal.set(a.normal!.array);
    normal.set([1, 0, 0, 1, 0, 0, 1, 0, 0], n * 3);
    const uv = new Float32Array((n + 3) * 2);
    uv.set(a.uv!.array);
    const index = new Uint16Array(flat.index.length + 3);
    index.set(flat.index);
    index.set([n, n + 1, n + 2], flat.index.length);
    return { flat, smooth: new Geometry({ position, normal, uv, index }) };
}

function scene_of(geometry: Geometry, double_sided: boolean): Scene {
    const scene = new Scene();
    scene.add(new Mesh(make_plane_geometry(8, 8), new StandardMaterial({ base_color: [0.6, 0.6, 0.6, 1], roughness: 0.8 })));
    const box = scene.add(new Mesh(geometry, new StandardMaterial({ base_color: [0.8, 0.4, 0.2, 1], roughness: 0.5, metalness: 0.1, double_sided })));
    box.position.set([0, 0.8, 0]);
    quat.fromEuler(box.rotation, 25, 35, 10);
    scene.sun.direction.set([0.4, -1, -0.3]);
    scene.sun.intensity = 3;
    return scene;
}

function aim(renderer: Renderer): void {
    const camera = renderer.view.camera;
    camera.position.set([2.2, 2.4, 3]);
    camera.target.set([0, 0.6, 0]);
    camera.fov_y = Math.PI / 4;
}

async function picture(device: GPUDevice, scene: Scene, shadows: boolean, errors: Error[]): Promise<TextureReadback> {
    const target = new TextureRenderTarget(SIZE, SIZE);
    const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
    aim(renderer);
    const extension = shadows ? renderer.add_extension(new ShadowExtension({ resolution: 256 })) : null;
    renderer.render_frame();
    const image = await read_texture(device, target.acquire());
    extension?.destroy();
    renderer.destroy();
    return image;
}

// pixels whose channels differ by more than `tolerance`, and the largest difference
function differences(a: TextureReadback, b: TextureReadback, tolerance: number): { count: number; largest: number } {
    let count = 0;
    let largest = 0;
    for (let i = 0; i < a.data.length; i += 4) {
        let d = 0;
        for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(a.data[i + k] - b.data[i + k]));
        if (d > tolerance) count++;
        largest = Math.max(largest, d);
    }
    return { count, largest };
}

describe("flat-shaded geometries on Dawn", () => {
    it("a box drawn glued with normals from derivatives is the box drawn with its vertex normals (single- and double-sided, with shadows)", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const { flat, smooth } = boxes();
            const cache = GPUGeometryCache.of(device);
            for (const double_sided of [false, true]) {
                const glued = await picture(device, scene_of(flat, double_sided), true, errors);
                const own = await picture(device, scene_of(smooth, double_sided), true, errors);
                // the paths this compares: glued with derivative normals, and the vertices' own
                expect(cache.get(flat, null).flat).toBe(true);
                expect(cache.get(flat, null).surface_index).not.toBe(cache.get(flat, null).index);
                expect(cache.get(smooth, null).flat).toBe(false);
                if (!double_sided) write_readback_png(glued, "flat_box_glued");
                const d = differences(glued, own, 3);
                expect(d.count, `pixels more than 3 apart (largest ${d.largest})`).toBeLessThanOrEqual(2);
                // a busy picture: the box's three visible faces each in its own shade
                const shades = new Set<number>();
                for (let i = 0; i < glued.data.length; i += 4) shades.add(glued.data[i] >> 3);
                expect(shades.size).toBeGreaterThan(4);
            }
            expect(errors).toEqual([]);
        });
    });

    it("a geometry rewritten after its first upload draws with its own index and normals (the glued buffers stay, given it)", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const { flat } = boxes();
            const scene = scene_of(flat, false);
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, scene, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            aim(renderer);
            const shadows = renderer.add_extension(new ShadowExtension({ resolution: 256 }));
            renderer.render_frame();
            const cache = GPUGeometryCache.of(device);
            const before = cache.get(flat, null);
            const [position_index, surface_index] = [before.position_index, before.surface_index];
            // the box's top face pushed up into a roof: the old glue would keep the top corners' normals wrong
            const p = flat.attributes.position.array;
            for (let v = 0; v < flat.vertex_count; v++) if (p[v * 3 + 1] > 0) p[v * 3 + 1] = 0.9;
            flat.needsUpdate = true;
            renderer.render_frame();
            const after = cache.get(flat, null);
            expect(after.position_index).toBe(position_index);
            expect(after.surface_index).toBe(surface_index);
            expect(after.flat).toBe(false);
            const image = await read_texture(device, target.acquire());
            // against a fresh geometry of the same shape drawn on its first upload
            const fresh = make_box_geometry(1, 1, 1);
            const q = fresh.attributes.position.array;
            for (let v = 0; v < fresh.vertex_count; v++) if (q[v * 3 + 1] > 0) q[v * 3 + 1] = 0.9;
            const reference = await picture(device, scene_of(fresh, false), true, errors);
            const d = differences(image, reference, 3);
            expect(d.count, `pixels more than 3 apart (largest ${d.largest})`).toBeLessThanOrEqual(2);
            expect(errors).toEqual([]);
            shadows.destroy();
            renderer.destroy();
        });
    });
});
