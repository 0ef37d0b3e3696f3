// Peers benchmark (issue 14), three.js "best": what three's docs recommend for performance, on WebGPURenderer
// (three/webgpu). The boxes are one THREE.InstancedMesh (setMatrixAt / setColorAt once), the ribbons one merged
// BufferGeometry whose single position attribute (DynamicDrawUsage) is rewritten and flagged once per frame,
// every object's matrix frozen (matrixAutoUpdate = false, scene.matrixWorldAutoUpdate = false after one explicit
// updateMatrixWorld), frustum culling off where it only costs work (every object is on screen), object sorting off
// (one opaque and one transparent draw: the opaque list still draws before the transparent one), and the
// pipelines compiled ahead of the first frame with compileAsync.
import * as THREE from 'three/webgpu';
import { BOX_COUNT, RIBBON_COUNT, RIBBON_POINTS, RIBBON_SEGMENTS, ribbon_centres, type PeerVariant, type Workload } from '../workload';
import { ribbon_colors, ribbon_indices, three_device, three_renderer, three_ribbon_material, three_stage, widen } from './three_taught';

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    const renderer = await three_renderer(canvas);
    // Two render lists with one object each: nothing to sort (opaque objects still draw before transparent ones).
    renderer.sortObjects = false;
    const { scene, camera, ground } = three_stage();
    ground.frustumCulled = false;

    // Boxes: one unit box instanced 1,000 times; the instance colour multiplies the (white) material colour.
    const boxes = workload.boxes;
    const box_material = new THREE.MeshLambertMaterial({ color: 0xffffff });
    const instanced = new THREE.InstancedMesh(new THREE.BoxGeometry(1, 1, 1), box_material, BOX_COUNT);
    const matrix = new THREE.Matrix4();
    const position = new THREE.Vector3();
    const rotation = new THREE.Quaternion();
    const scale = new THREE.Vector3();
    const color = new THREE.Color();
    for (let i = 0; i < BOX_COUNT; i++) {
        const o = i * 9;
        position.set(boxes[o], boxes[o + 1], boxes[o + 2]);
        scale.set(boxes[o + 3], boxes[o + 4], boxes[o + 5]);
        instanced.setMatrixAt(i, matrix.compose(position, rotation, scale));
        instanced.setColorAt(i, color.setRGB(boxes[o + 6], boxes[o + 7], boxes[o + 8]));
    }
    instanced.instanceMatrix.needsUpdate = true;
    if (instanced.instanceColor !== null) instanced.instanceColor.needsUpdate = true;
    // Every box is inside the view: skip the per-frame bounding-sphere test of the instanced mesh.
    instanced.frustumCulled = false;
    scene.add(instanced);

    // Ribbons: all 2,000 in one geometry (one draw), positions rewritten in place every frame.
    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    ribbon_centres(workload.ribbons, 0, centres);
    const vertices_per_ribbon = RIBBON_POINTS * 2;
    const positions = new Float32Array(RIBBON_COUNT * vertices_per_ribbon * 3);
    widen(centres, 0, RIBBON_COUNT * RIBBON_POINTS, positions, 0);
    const colors = new Float32Array(RIBBON_COUNT * vertices_per_ribbon * 4);
    const indices = new Uint32Array(RIBBON_COUNT * RIBBON_SEGMENTS * 6);
    for (let i = 0; i < RIBBON_COUNT; i++) {
        ribbon_colors(workload.ribbons, i, colors, i * vertices_per_ribbon * 4);
        ribbon_indices(indices, i * RIBBON_SEGMENTS * 6, i * vertices_per_ribbon);
    }
    const geometry = new THREE.BufferGeometry();
    const ribbon_position = new THREE.BufferAttribute(positions, 3);
    ribbon_position.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('position', ribbon_position);
    geometry.setAttribute('color', new THREE.BufferAttribute(colors, 4));
    geometry.setIndex(new THREE.BufferAttribute(indices, 1));
    const ribbons = new THREE.Mesh(geometry, three_ribbon_material());
    // The ribbons move every frame and the bounding sphere is computed once: never frustum-cull them.
    ribbons.frustumCulled = false;
    scene.add(ribbons);

    // Nothing moves (only the ribbon vertices do): compute every world matrix once and freeze them all.
    scene.traverse((object) => {
        object.updateMatrix();
        object.matrixAutoUpdate = false;
    });
    scene.updateMatrixWorld(true);
    scene.matrixWorldAutoUpdate = false;
    camera.updateMatrixWorld(true);
    camera.matrixAutoUpdate = false;
    camera.matrixWorldAutoUpdate = false;

    // Build the pipelines before the first frame instead of during it.
    await renderer.compileAsync(scene, camera);

    return {
        device: three_device(renderer),
        update(t: number): void {
            ribbon_centres(workload.ribbons, t, centres);
            widen(centres, 0, RIBBON_COUNT * RIBBON_POINTS, positions, 0);
            ribbon_position.needsUpdate = true;
        },
        render(): void {
            renderer.render(scene, camera);
        },
    };
}
