// Peers benchmark (issue 14), this engine the way its docs teach it: a GraphicsEngine on the canvas; every box a
// scene Mesh with its own StandardMaterial, drawn through the deferred G-buffer and lit by the sun; the ribbons one
// DynamicMesh each (2,000 Geometry objects whose positions are rewritten and flagged needsUpdate every frame) in
// a RenderExtension at AfterTransparency drawn by GPUDynamicMeshRenderer: the seed's MarkerExtension. Only the
// position attribute is flagged (attributes.position.needsUpdate), as three.js teaches for its BufferAttributes. The frame is
// the whole deferred frame (G-buffer, tiled lighting, transparency, the extension, tonemap, present); TAA is off
// and the resolution scale 1, so that it draws the same 640x360 picture as raw.ts without antialiasing.
// Colours: the frame is HDR, tonemapped (ACES) and sRGB-encoded at present, so the workload's display colours
// are given as linear values and the sun is scaled for the physically based (Lambert / pi) diffuse.
import { GraphicsEngine } from "../../../engine/GraphicsEngine.js";
import { GPUDynamicMeshRenderer, type DynamicMeshDrawSpec } from "../../../shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../shade/renderer/extension/ViewTextures.js";
import { Geometry } from "../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_plane_geometry } from "../../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { DynamicMesh } from "../../../shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "../../../shade/renderer/scene/DynamicMeshBatch.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { CanvasRenderTarget } from "../../../shade/renderer/target/CanvasRenderTarget.js";
import {
    BOX_COUNT,
    CAMERA,
    CLEAR_COLOR,
    GROUND_COLOR,
    GROUND_SIZE,
    HEIGHT,
    LIGHT_DIRECTION,
    RIBBON_COUNT,
    RIBBON_HALF_WIDTH,
    RIBBON_POINTS,
    RIBBON_SEGMENTS,
    WIDTH,
    ribbon_centres,
    ribbon_colors,
    widen,
    type PeerVariant,
    type Workload,
} from "../workload.js";

/** The display colour the workload names, as the linear value that presents as it (sRGB decode). */
export function linear(c: number): number {
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

/** The seed's MarkerExtension, for ribbons: one DynamicMesh per ribbon, drawn over the scene colour. */
export class RibbonExtension extends RenderExtension {
    name = "ribbons";
    phase = FramePhase.AfterTransparency;
    readonly #renderer = new GPUDynamicMeshRenderer({ label: "ribbons", cull_mode: "none" });
    readonly #batch = new DynamicMeshBatch();
    #spec: { -readonly [K in keyof DynamicMeshDrawSpec]: DynamicMeshDrawSpec[K] } | null = null;

    add(geometry: Geometry): DynamicMesh {
        const mesh = DynamicMesh.from(geometry, [1, 1, 1, 1]);
        mesh.updateMatrices();
        return this.#batch.add(mesh);
    }

    /** Uploads the flagged geometry now, ahead of the frame (GPUDynamicMeshRenderer.upload). */
    upload(device: GPUDevice): void {
        this.#renderer.upload(device, this.#batch);
    }

    record(frame: FrameContext): void {
        if (this.#batch.count === 0) return;
        const scene = frame.get(SceneColor);
        // the draw's spec is filled in place, not built per frame (no garbage a frame)
        const depth = frame.get(ViewTextures).depth;
        const camera = frame.view.camera.buffer;
        const spec = (this.#spec ??= { graph: frame.graph, batch: this.#batch, color: scene.color, depth, camera });
        spec.graph = frame.graph;
        spec.color = scene.color;
        spec.depth = depth;
        spec.camera = camera;
        scene.color = this.#renderer.graph_draw(spec);
    }

    destroy(): void {
        this.#renderer.destroy();
        this.#batch.clear();
    }
}

/** The engine, camera, sun, ambient, sky and ground both of this engine's variants share. */
export function ours_stage(canvas: HTMLCanvasElement, gpu_timing = true): GraphicsEngine {
    canvas.width = WIDTH;
    canvas.height = HEIGHT;
    const engine = new GraphicsEngine({ target: new CanvasRenderTarget(canvas), gpu_timing });
    engine.upscale = "none";
    engine.resolution_scale = 1;

    const camera = engine.view.camera;
    camera.position.set(CAMERA.eye);
    camera.target.set(CAMERA.target);
    camera.fov_y = (CAMERA.fov_y_deg * Math.PI) / 180;
    camera.near = CAMERA.near;
    camera.far = CAMERA.far;

    const scene = engine.scene;
    const l = Math.hypot(...LIGHT_DIRECTION);
    scene.sun.direction.set([-LIGHT_DIRECTION[0] / l, -LIGHT_DIRECTION[1] / l, -LIGHT_DIRECTION[2] / l]);
    scene.sun.intensity = 0.8 * Math.PI;
    scene.ambient.set([0.2, 0.2, 0.2]);
    scene.sky.set([linear(CLEAR_COLOR[0]), linear(CLEAR_COLOR[1]), linear(CLEAR_COLOR[2])]);

    const ground = scene.add(
        new Mesh(
            make_plane_geometry(GROUND_SIZE, GROUND_SIZE),
            new StandardMaterial({ label: "ground", base_color: [linear(GROUND_COLOR[0]), linear(GROUND_COLOR[1]), linear(GROUND_COLOR[2]), 1], roughness: 1 }),
        ),
    );
    ground.position[1] = -0.005;
    return engine;
}

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    const engine = ours_stage(canvas);
    const scene = engine.scene;
    const box = make_box_geometry();
    const boxes = workload.boxes;
    for (let i = 0; i < BOX_COUNT; i++) {
        const o = i * 9;
        const material = new StandardMaterial({ label: `box ${i}`, base_color: [linear(boxes[o + 6]), linear(boxes[o + 7]), linear(boxes[o + 8]), 1], roughness: 1 });
        const mesh = scene.add(new Mesh(box, material));
        mesh.position.set([boxes[o], boxes[o + 1], boxes[o + 2]]);
        mesh.scale.set([boxes[o + 3], boxes[o + 4], boxes[o + 5]]);
    }

    // one geometry per ribbon: positions rewritten every frame, colours (hue, alpha fading to the tail) and the
    // index written once
    const ribbons = new RibbonExtension();
    const ribbon = workload.ribbons;
    const geometries: Geometry[] = [];
    const index = new Uint16Array(RIBBON_SEGMENTS * 6);
    for (let s = 0; s < RIBBON_SEGMENTS; s++) {
        const a = s * 2;
        index.set([a, a + 1, a + 2, a + 1, a + 3, a + 2], s * 6);
    }
    for (let r = 0; r < RIBBON_COUNT; r++) {
        const color = new Float32Array(RIBBON_POINTS * 2 * 4);
        ribbon_colors(ribbon, r, color, 0, linear);
        const geometry = new Geometry({ position: new Float32Array(RIBBON_POINTS * 2 * 3), color, index });
        geometries.push(geometry);
        ribbons.add(geometry);
    }
    engine.add_extension(ribbons);
    await engine.start();
    const device = engine.device;
    const renderer = engine.renderer;
    if (device === null || renderer === null) throw new Error("ours_taught: the engine started without a device");

    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    return {
        device,
        update(t: number): void {
            ribbon_centres(ribbon, t, centres);
            for (let r = 0; r < RIBBON_COUNT; r++) {
                const geometry = geometries[r];
                widen(centres, r * RIBBON_POINTS, RIBBON_POINTS, geometry.attributes.position.array, 0);
                // only the positions changed: the colours and the index stay uploaded
                geometry.attributes.position.needsUpdate = true;
            }
        },
        render(): void {
            engine.render();
        },
    };
}
