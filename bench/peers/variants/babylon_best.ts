// Peers benchmark (issue 14), Babylon.js "best": what Babylon's performance docs recommend, on the WebGPU engine.
// The boxes are thin instances of one box (a matrix and a colour buffer), the ribbons one merged updatable mesh
// (one updateVerticesData per frame), active meshes, world matrices and materials frozen, pointer-move picking
// skipped, and WebGPU snapshot rendering (the draws are recorded into render bundles once and replayed).
// Every technique is kept; the meshes are frozen only after one frame has been rendered (see create), or Babylon
// draws them with the wrong winding in this right-handed scene.
import { Color3, Constants, Matrix, Mesh, MeshBuilder, Quaternion, StandardMaterial, Vector3, VertexBuffer, VertexData, WebGPUEngine } from '@babylonjs/core';
import { BOX_COUNT, RIBBON_COUNT, RIBBON_POINTS, RIBBON_SEGMENTS, ribbon_centres, type PeerVariant, type Workload } from '../workload';
import { babylon_device, babylon_ribbon_material, babylon_stage, ribbon_colors, ribbon_indices, widen } from './babylon_taught';

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    const engine = new WebGPUEngine(canvas, { antialias: false, adaptToDeviceRatio: false });
    await engine.initAsync();
    const scene = babylon_stage(engine);
    // autoClear stays on: the docs turn it off only when something (a skybox) covers every pixel, and the sky
    // here is the clear colour.
    scene.skipPointerMovePicking = true;
    scene.skipFrustumClipping = true;
    scene.blockMaterialDirtyMechanism = true;

    const boxes = workload.boxes;
    const box = MeshBuilder.CreateBox('boxes', { size: 1 }, scene);
    const box_material = new StandardMaterial('boxes', scene);
    // Instance colour multiplies the base colour: (N.L*0.8*diffuse + 0.2*ambient) * colour.
    box_material.diffuseColor = Color3.White();
    box_material.ambientColor = Color3.White();
    box_material.specularColor = Color3.Black();
    box.material = box_material;
    const matrices = new Float32Array(BOX_COUNT * 16);
    const colors = new Float32Array(BOX_COUNT * 4);
    const matrix = new Matrix();
    const scale = new Vector3();
    const translation = new Vector3();
    for (let i = 0; i < BOX_COUNT; i++) {
        const o = i * 9;
        scale.set(boxes[o + 3], boxes[o + 4], boxes[o + 5]);
        translation.set(boxes[o], boxes[o + 1], boxes[o + 2]);
        Matrix.ComposeToRef(scale, Quaternion.Identity(), translation, matrix);
        matrix.copyToArray(matrices, i * 16);
        colors.set([boxes[o + 6], boxes[o + 7], boxes[o + 8], 1], i * 4);
    }
    box.thinInstanceSetBuffer('matrix', matrices, 16, true);
    box.thinInstanceSetBuffer('color', colors, 4, true);
    box.thinInstanceRefreshBoundingInfo();

    const vertex_count = RIBBON_COUNT * RIBBON_POINTS * 2;
    const positions = new Float32Array(vertex_count * 3);
    const ribbon_rgba = new Float32Array(vertex_count * 4);
    const indices = new Uint32Array(RIBBON_COUNT * RIBBON_SEGMENTS * 6);
    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    ribbon_centres(workload.ribbons, 0, centres);
    widen(centres, 0, RIBBON_COUNT * RIBBON_POINTS, positions, 0);
    for (let i = 0; i < RIBBON_COUNT; i++) {
        ribbon_colors(workload.ribbons, i, ribbon_rgba, i * RIBBON_POINTS * 8);
        ribbon_indices(indices, i * RIBBON_SEGMENTS * 6, i * RIBBON_POINTS * 2);
    }
    const data = new VertexData();
    data.positions = positions;
    data.colors = ribbon_rgba;
    data.indices = indices;
    const ribbons = new Mesh('ribbons', scene);
    data.applyToMesh(ribbons, true);
    ribbons.hasVertexAlpha = true;
    const ribbon_material = babylon_ribbon_material(scene);
    ribbons.material = ribbon_material;
    ribbons.alwaysSelectAsActiveMesh = true;

    for (const mesh of scene.meshes) {
        mesh.freezeWorldMatrix();
        mesh.doNotSyncBoundingInfo = true;
        mesh.isPickable = false;
    }
    // Compile everything once and render one frame, then freeze: the active mesh list and the materials stop being
    // re-evaluated. The frame must come first: a mesh frozen before it has ever been drawn never computes its
    // effective side orientation (Mesh.render skips that while frozen), so in this right-handed scene every
    // back-face-culled mesh would be drawn with reversed winding (the ground culled away, the boxes showing their
    // unlit inner faces).
    await scene.whenReadyAsync();
    engine.beginFrame();
    scene.render();
    engine.endFrame();
    await new Promise<void>((resolve, reject) => scene.freezeActiveMeshes(false, resolve, reject));
    for (const material of scene.materials) material.freeze();
    engine.snapshotRendering = true;
    engine.snapshotRenderingMode = Constants.SNAPSHOTRENDERING_STANDARD;

    return {
        device: babylon_device(engine),
        update(t: number): void {
            ribbon_centres(workload.ribbons, t, centres);
            widen(centres, 0, RIBBON_COUNT * RIBBON_POINTS, positions, 0);
            ribbons.updateVerticesData(VertexBuffer.PositionKind, positions);
        },
        render(): void {
            engine.beginFrame();
            scene.render();
            engine.endFrame();
        },
    };
}
