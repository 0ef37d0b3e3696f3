// Peers benchmark (issue 14), three.js "taught": the workload written the way three's docs teach it, on
// WebGPURenderer (three/webgpu). One THREE.Mesh per box (its own BoxGeometry and MeshLambertMaterial with the box's
// colour), one THREE.Mesh per ribbon with its own BufferGeometry whose position attribute is rewritten every frame
// and flagged needsUpdate, a PlaneGeometry ground, a DirectionalLight plus an AmbientLight, and
// renderer.render(scene, camera) per frame. Colour management is off and the output colour space linear, so the
// raw values reach the canvas as in raw.ts.
import * as THREE from 'three/webgpu';
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
    type PeerVariant,
    type Workload,
    ribbon_colors,
    ribbon_indices,
    widen,
} from '../workload';

/** The renderer, initialised: no antialiasing, no tone mapping, linear output (colours pass through as in raw). */
export async function three_renderer(canvas: HTMLCanvasElement): Promise<THREE.WebGPURenderer> {
    // Colours given to THREE.Color / vertex colours are taken as they are (no sRGB -> linear conversion).
    THREE.ColorManagement.enabled = false;
    const renderer = new THREE.WebGPURenderer({ canvas, antialias: false });
    renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
    renderer.toneMapping = THREE.NoToneMapping;
    renderer.setPixelRatio(1);
    renderer.setSize(WIDTH, HEIGHT, false);
    renderer.setClearColor(new THREE.Color(CLEAR_COLOR[0], CLEAR_COLOR[1], CLEAR_COLOR[2]), CLEAR_COLOR[3]);
    await renderer.init();
    return renderer;
}

/** The GPUDevice behind the renderer. */
export function three_device(renderer: THREE.WebGPURenderer): GPUDevice {
    // three keeps the device on its WebGPUBackend and exposes no public accessor for it; the cast reaches it (and
    // fails loudly if three fell back to its WebGL 2 backend, which has none).
    const device = (renderer.backend as unknown as { device: GPUDevice | undefined }).device;
    if (device === undefined) throw new Error('three: the renderer is not on its WebGPU backend');
    return device;
}

/** Camera, lights and ground shared by both three variants (the same picture as every other variant). */
export function three_stage(): { scene: THREE.Scene; camera: THREE.PerspectiveCamera; ground: THREE.Mesh } {
    const scene = new THREE.Scene();
    const camera = new THREE.PerspectiveCamera(CAMERA.fov_y_deg, WIDTH / HEIGHT, CAMERA.near, CAMERA.far);
    camera.position.set(CAMERA.eye[0], CAMERA.eye[1], CAMERA.eye[2]);
    camera.lookAt(CAMERA.target[0], CAMERA.target[1], CAMERA.target[2]);
    // Physically based light units: the Lambert BRDF is colour / PI, so the intensities carry a factor PI to give
    // colour * (N.L * 0.8 + 0.2). The directional light shines from its position towards its target (the origin).
    const sun = new THREE.DirectionalLight(0xffffff, 0.8 * Math.PI);
    sun.position.set(LIGHT_DIRECTION[0], LIGHT_DIRECTION[1], LIGHT_DIRECTION[2]);
    scene.add(sun);
    scene.add(new THREE.AmbientLight(0xffffff, 0.2 * Math.PI));
    const ground = new THREE.Mesh(
        new THREE.PlaneGeometry(GROUND_SIZE, GROUND_SIZE),
        new THREE.MeshLambertMaterial({ color: new THREE.Color(GROUND_COLOR[0], GROUND_COLOR[1], GROUND_COLOR[2]) }),
    );
    ground.rotation.x = -Math.PI / 2;
    scene.add(ground);
    return { scene, camera, ground };
}

/** The unlit, vertex-coloured (rgba), alpha-blended ribbon material, double-sided, depth-tested, no depth write. */
export function three_ribbon_material(): THREE.MeshBasicMaterial {
    // Straight NormalBlending (src-alpha, one-minus-src-alpha) on unpremultiplied colours equals raw's
    // premultiplied output (rgb*a, a) under (one, one-minus-src-alpha).
    return new THREE.MeshBasicMaterial({
        vertexColors: true,
        transparent: true,
        depthWrite: false,
        depthTest: true,
        side: THREE.DoubleSide,
        blending: THREE.NormalBlending,
        premultipliedAlpha: false,
    });
}

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    const renderer = await three_renderer(canvas);
    const { scene, camera } = three_stage();

    const boxes = workload.boxes;
    for (let i = 0; i < BOX_COUNT; i++) {
        const o = i * 9;
        const geometry = new THREE.BoxGeometry(boxes[o + 3], boxes[o + 4], boxes[o + 5]);
        const material = new THREE.MeshLambertMaterial({ color: new THREE.Color(boxes[o + 6], boxes[o + 7], boxes[o + 8]) });
        const box = new THREE.Mesh(geometry, material);
        box.position.set(boxes[o], boxes[o + 1], boxes[o + 2]);
        scene.add(box);
    }

    const ribbon_material = three_ribbon_material();
    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    ribbon_centres(workload.ribbons, 0, centres);
    const ribbon_positions: Float32Array[] = [];
    const ribbon_attributes: THREE.BufferAttribute[] = [];
    for (let i = 0; i < RIBBON_COUNT; i++) {
        const positions = new Float32Array(RIBBON_POINTS * 6);
        widen(centres, i * RIBBON_POINTS, RIBBON_POINTS, positions, 0);
        const colors = new Float32Array(RIBBON_POINTS * 8);
        ribbon_colors(workload.ribbons, i, colors, 0);
        const indices = new Uint32Array(RIBBON_SEGMENTS * 6);
        ribbon_indices(indices, 0, 0);
        const geometry = new THREE.BufferGeometry();
        const position = new THREE.BufferAttribute(positions, 3);
        geometry.setAttribute('position', position);
        geometry.setAttribute('color', new THREE.BufferAttribute(colors, 4));
        geometry.setIndex(new THREE.BufferAttribute(indices, 1));
        const mesh = new THREE.Mesh(geometry, ribbon_material);
        // The ribbons move every frame and the geometry's bounding sphere is computed once: never frustum-cull them.
        mesh.frustumCulled = false;
        scene.add(mesh);
        ribbon_positions.push(positions);
        ribbon_attributes.push(position);
    }

    return {
        device: three_device(renderer),
        update(t: number): void {
            ribbon_centres(workload.ribbons, t, centres);
            for (let i = 0; i < RIBBON_COUNT; i++) {
                widen(centres, i * RIBBON_POINTS, RIBBON_POINTS, ribbon_positions[i], 0);
                ribbon_attributes[i].needsUpdate = true;
            }
        },
        render(): void {
            renderer.render(scene, camera);
        },
    };
}

export { ribbon_colors, ribbon_indices, widen };
