// Peers benchmark (issue 14), this engine at its best: the same GraphicsEngine and deferred frame as ours_taught,
// with what the docs recommend for many similar objects: the 1,000 boxes share one geometry and one material,
// coloured per mesh with Mesh.color, so the G-buffer draws them as one instanced draw, and frozen (they never move:
// the renderer reads them once, as three_best's frozen matrices and babylon_best's frozen meshes); and the 2,000 ribbons are
// one DynamicMesh whose Geometry holds them all, its position attribute rewritten and flagged every frame (the
// colours and the index stay uploaded, and the positions, being large, go straight from their array to the GPU
// in one writeBuffer). Like raw.ts, the update ends with that upload (GPUDynamicMeshRenderer.upload, "for
// uploading ahead of time"), so the frame itself finds the geometry current. GPU timing is off (gpu_timing: false).
import { Geometry } from "../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { BOX_COUNT, RIBBON_COUNT, RIBBON_POINTS, RIBBON_SEGMENTS, ribbon_centres, ribbon_colors, widen, type PeerVariant, type Workload } from "../workload.js";
import { RibbonExtension, linear, ours_stage } from "./ours_taught.js";

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    // no per-pass GPU timing: nothing here shows it (a shipped game's setting)
    const engine = ours_stage(canvas, false);
    const scene = engine.scene;
    const box = make_box_geometry();
    const material = new StandardMaterial({ label: "boxes", base_color: [1, 1, 1, 1], roughness: 1 });
    const boxes = workload.boxes;
    for (let i = 0; i < BOX_COUNT; i++) {
        const o = i * 9;
        const mesh = scene.add(new Mesh(box, material));
        mesh.position.set([boxes[o], boxes[o + 1], boxes[o + 2]]);
        mesh.scale.set([boxes[o + 3], boxes[o + 4], boxes[o + 5]]);
        mesh.color.set([linear(boxes[o + 6]), linear(boxes[o + 7]), linear(boxes[o + 8]), 1]);
    }
    // the ground and the boxes never move
    for (const mesh of scene.meshes) mesh.frozen = true;

    const ribbon = workload.ribbons;
    const vertices = RIBBON_COUNT * RIBBON_POINTS * 2;
    const color = new Float32Array(vertices * 4);
    const index = new Uint32Array(RIBBON_COUNT * RIBBON_SEGMENTS * 6);
    let k = 0;
    for (let r = 0; r < RIBBON_COUNT; r++) {
        ribbon_colors(ribbon, r, color, r * RIBBON_POINTS * 8, linear);
        for (let s = 0; s < RIBBON_SEGMENTS; s++) {
            const a = (r * RIBBON_POINTS + s) * 2;
            index[k++] = a;
            index[k++] = a + 1;
            index[k++] = a + 2;
            index[k++] = a + 1;
            index[k++] = a + 3;
            index[k++] = a + 2;
        }
    }
    const geometry = new Geometry({ position: new Float32Array(vertices * 3), color, index });
    const ribbons = new RibbonExtension();
    ribbons.add(geometry);
    engine.add_extension(ribbons);
    await engine.start();
    const device = engine.device;
    if (device === null) throw new Error("ours_best: the engine started without a device");

    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    const positions = geometry.attributes.position;
    return {
        device,
        update(t: number): void {
            ribbon_centres(ribbon, t, centres);
            widen(centres, 0, RIBBON_COUNT * RIBBON_POINTS, positions.array, 0);
            positions.needsUpdate = true;
            ribbons.upload(device);
        },
        render(): void {
            engine.render();
        },
    };
}
