// Peers benchmark (issue 14), Babylon.js "taught": the workload written the way Babylon's docs teach it, on the
// WebGPU engine. One MeshBuilder box (and one StandardMaterial) per box, one updatable Mesh per ribbon rewritten
// with updateVerticesData every frame, scene.render() per frame.
import {
    Color3,
    Color4,
    DirectionalLight,
    Engine,
    FreeCamera,
    Mesh,
    MeshBuilder,
    Scene,
    StandardMaterial,
    Vector3,
    VertexBuffer,
    VertexData,
    WebGPUEngine,
} from '@babylonjs/core';
import {
    BOX_COUNT,
    CAMERA,
    CLEAR_COLOR,
    GROUND_COLOR,
    GROUND_SIZE,
    LIGHT_DIRECTION,
    RIBBON_COUNT,
    RIBBON_HALF_WIDTH,
    RIBBON_POINTS,
    RIBBON_SEGMENTS,
    ribbon_centres,
    type PeerVariant,
    type Workload,
    ribbon_colors,
    ribbon_indices,
    widen,
} from '../workload';

/** Camera, light and ground shared by both Babylon variants (the same picture as every other variant). */
export function babylon_stage(engine: Engine | WebGPUEngine): Scene {
    const scene = new Scene(engine);
    // The workload is right-handed (+z towards the viewer), Babylon's default is left-handed.
    scene.useRightHandedSystem = true;
    scene.clearColor = new Color4(CLEAR_COLOR[0], CLEAR_COLOR[1], CLEAR_COLOR[2], CLEAR_COLOR[3]);
    scene.ambientColor = new Color3(0.2, 0.2, 0.2);
    const camera = new FreeCamera('camera', new Vector3(CAMERA.eye[0], CAMERA.eye[1], CAMERA.eye[2]), scene);
    camera.setTarget(new Vector3(CAMERA.target[0], CAMERA.target[1], CAMERA.target[2]));
    camera.fov = (CAMERA.fov_y_deg * Math.PI) / 180;
    camera.minZ = CAMERA.near;
    camera.maxZ = CAMERA.far;
    // A directional light shines along -LIGHT_DIRECTION; diffuse 0.8 plus the scene's 0.2 ambient = N.L*0.8+0.2.
    const light = new DirectionalLight('sun', new Vector3(-LIGHT_DIRECTION[0], -LIGHT_DIRECTION[1], -LIGHT_DIRECTION[2]), scene);
    light.intensity = 0.8;
    light.specular = Color3.Black();
    const ground = MeshBuilder.CreateGround('ground', { width: GROUND_SIZE, height: GROUND_SIZE }, scene);
    const ground_material = new StandardMaterial('ground', scene);
    ground_material.diffuseColor = new Color3(GROUND_COLOR[0], GROUND_COLOR[1], GROUND_COLOR[2]);
    ground_material.ambientColor = ground_material.diffuseColor;
    ground_material.specularColor = Color3.Black();
    ground.material = ground_material;
    return scene;
}

/** The unlit, alpha-blended, vertex-coloured ribbon material (depth-tested, no depth write). */
export function babylon_ribbon_material(scene: Scene): StandardMaterial {
    const material = new StandardMaterial('ribbons', scene);
    material.disableLighting = true;
    material.diffuseColor = Color3.Black();
    material.specularColor = Color3.Black();
    material.emissiveColor = Color3.White();
    material.backFaceCulling = false;
    material.disableDepthWrite = true;
    return material;
}

export function babylon_device(engine: WebGPUEngine): GPUDevice {
    return (engine as unknown as { _device: GPUDevice })._device;
}

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    const engine = new WebGPUEngine(canvas, { antialias: false, adaptToDeviceRatio: false });
    await engine.initAsync();
    const scene = babylon_stage(engine);

    const boxes = workload.boxes;
    for (let i = 0; i < BOX_COUNT; i++) {
        const o = i * 9;
        const box = MeshBuilder.CreateBox(`box ${i}`, { width: boxes[o + 3], height: boxes[o + 4], depth: boxes[o + 5] }, scene);
        box.position.set(boxes[o], boxes[o + 1], boxes[o + 2]);
        const material = new StandardMaterial(`box ${i}`, scene);
        material.diffuseColor = new Color3(boxes[o + 6], boxes[o + 7], boxes[o + 8]);
        material.ambientColor = material.diffuseColor;
        material.specularColor = Color3.Black();
        box.material = material;
    }

    const ribbon_material = babylon_ribbon_material(scene);
    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    ribbon_centres(workload.ribbons, 0, centres);
    const ribbon_meshes: Mesh[] = [];
    const ribbon_positions: Float32Array[] = [];
    for (let i = 0; i < RIBBON_COUNT; i++) {
        const positions = new Float32Array(RIBBON_POINTS * 6);
        widen(centres, i * RIBBON_POINTS, RIBBON_POINTS, positions, 0);
        const colors = new Float32Array(RIBBON_POINTS * 8);
        ribbon_colors(workload.ribbons, i, colors, 0);
        const indices = new Uint32Array(RIBBON_SEGMENTS * 6);
        ribbon_indices(indices, 0, 0);
        const data = new VertexData();
        data.positions = positions;
        data.colors = colors;
        data.indices = indices;
        const mesh = new Mesh(`ribbon ${i}`, scene);
        data.applyToMesh(mesh, true);
        mesh.hasVertexAlpha = true;
        mesh.material = ribbon_material;
        // The ribbons move every frame and updateVerticesData keeps the first bounding box: never frustum-cull them.
        mesh.alwaysSelectAsActiveMesh = true;
        ribbon_meshes.push(mesh);
        ribbon_positions.push(positions);
    }

    return {
        device: babylon_device(engine),
        update(t: number): void {
            ribbon_centres(workload.ribbons, t, centres);
            for (let i = 0; i < RIBBON_COUNT; i++) {
                const positions = ribbon_positions[i];
                widen(centres, i * RIBBON_POINTS, RIBBON_POINTS, positions, 0);
                ribbon_meshes[i].updateVerticesData(VertexBuffer.PositionKind, positions);
            }
        },
        render(): void {
            // What engine.runRenderLoop does per frame; endFrame submits the WebGPU command buffers.
            engine.beginFrame();
            scene.render();
            engine.endFrame();
        },
    };
}

export { ribbon_colors, ribbon_indices, widen };
