// Peers benchmark (issue 14), PlayCanvas "taught": the workload written the way PlayCanvas's docs and examples
// teach it, on the WebGPU backend (PlayCanvas 2.23). createGraphicsDevice + AppBase/AppOptions with the render,
// camera and light component systems; one Entity with a 'box' render component and its own StandardMaterial per box,
// a 'plane' render entity for the ground, a directional light entity plus scene ambient, a camera entity; one
// procedural pc.Mesh per ribbon (the "procedural mesh" pattern: setPositions + update() every frame) in a render
// component's MeshInstance, drawn with an unlit, vertex-coloured, premultiplied-blended StandardMaterial.
// The app's own loop (app.start() -> app.tick on requestAnimationFrame) is not started: render() runs tick's two
// halves, app.update(dt) and app.render(); app.render() ends with graphicsDevice.frameEnd(), which submits the
// frame's command buffers on WebGPU.
import * as pc from 'playcanvas';
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

/**
 * PlayCanvas treats every material, light and ambient colour as sRGB and linearizes it with pow(c, 2.2) before the
 * shader sees it (StandardMaterial's convertColorToLinear, Light._updateLinearColor, the forward renderer's
 * ambient). The cameras render with GAMMA_NONE (no re-encode on output), so to hand the shader raw's values the
 * colours are given gamma-encoded: linear(gamma(c)) = c exactly (both use 2.2). Vertex colours are not converted
 * (vertexColorGamma is off by default) and neither is the clear colour on a non-sRGB backbuffer.
 */
export function raw_color(r: number, g: number, b: number): pc.Color {
    return new pc.Color(r, g, b).gamma();
}

export interface PlayCanvasStage {
    app: pc.AppBase;
    device: pc.GraphicsDevice;
    gpu: GPUDevice;
    camera: pc.Entity;
}

/** The WebGPU device, the app (not started), camera, light, ambient and ground shared by both PlayCanvas variants. */
export async function playcanvas_stage(canvas: HTMLCanvasElement): Promise<PlayCanvasStage> {
    const device = await pc.createGraphicsDevice(canvas, { deviceTypes: [pc.DEVICETYPE_WEBGPU], antialias: false });
    // createGraphicsDevice silently falls back to WebGL2 when WebGPU fails: this benchmark wants WebGPU only.
    if (!device.isWebGPU) throw new Error(`playcanvas: got a ${device.deviceType} device, not WebGPU`);
    device.maxPixelRatio = 1;
    const options = new pc.AppOptions();
    options.graphicsDevice = device;
    options.componentSystems = [pc.RenderComponentSystem, pc.CameraComponentSystem, pc.LightComponentSystem];
    const app = new pc.AppBase(canvas);
    app.init(options);
    app.setCanvasFillMode(pc.FILLMODE_NONE, WIDTH, HEIGHT);
    app.setCanvasResolution(pc.RESOLUTION_FIXED, WIDTH, HEIGHT);
    // app.start() is not called: it arms app.tick on requestAnimationFrame, and the page drives the frames.
    // The component systems need no start to draw: entities added under app.root are enabled (and their mesh
    // instances, camera and light put into the scene's layers) at once.
    app.autoRender = false;

    app.scene.ambientLight = raw_color(0.2, 0.2, 0.2);

    const camera = new pc.Entity('camera');
    camera.addComponent('camera', {
        projection: pc.PROJECTION_PERSPECTIVE,
        fov: CAMERA.fov_y_deg, // vertical (horizontalFov is off by default)
        nearClip: CAMERA.near,
        farClip: CAMERA.far,
        clearColor: new pc.Color(CLEAR_COLOR[0], CLEAR_COLOR[1], CLEAR_COLOR[2], CLEAR_COLOR[3]),
        // the raw values go straight into the canvas: no sRGB encode, no tone mapping curve
        gammaCorrection: pc.GAMMA_NONE,
        toneMapping: pc.TONEMAP_LINEAR,
    });
    camera.setPosition(CAMERA.eye[0], CAMERA.eye[1], CAMERA.eye[2]);
    camera.lookAt(CAMERA.target[0], CAMERA.target[1], CAMERA.target[2]);
    app.root.addChild(camera);

    // A directional light shines along its entity's -Y: rotate +Y onto LIGHT_DIRECTION (towards the light).
    const to_light = new pc.Vec3(LIGHT_DIRECTION[0], LIGHT_DIRECTION[1], LIGHT_DIRECTION[2]).normalize();
    const light = new pc.Entity('sun');
    light.addComponent('light', {
        type: 'directional',
        color: new pc.Color(1, 1, 1),
        // intensity < 1 is linearized together with the colour: (1 * i)^2.2 = 0.8
        intensity: Math.pow(0.8, 1 / 2.2),
        castShadows: false,
    });
    light.setRotation(new pc.Quat().setFromDirections(pc.Vec3.UP, to_light));
    app.root.addChild(light);

    const ground_material = lit_material(GROUND_COLOR[0], GROUND_COLOR[1], GROUND_COLOR[2]);
    const ground = new pc.Entity('ground');
    ground.addComponent('render', { type: 'plane', material: ground_material });
    ground.setLocalScale(GROUND_SIZE, 1, GROUND_SIZE);
    app.root.addChild(ground);

    // WebgpuGraphicsDevice keeps its GPUDevice in the (private in the typings) field `wgpu`
    // (platform/graphics/webgpu/webgpu-graphics-device.js: `this.wgpu = wgpu` after requestDevice).
    const gpu = (device as unknown as { wgpu: GPUDevice }).wgpu;
    return { app, device, gpu, camera };
}

/** A diffuse-only StandardMaterial (no specular, no environment, no fog) of a raw colour, lit by the scene. */
export function lit_material(r: number, g: number, b: number): pc.StandardMaterial {
    const material = new pc.StandardMaterial();
    material.diffuse = raw_color(r, g, b);
    material.specular = new pc.Color(0, 0, 0);
    material.useMetalness = false;
    material.useSkybox = false;
    material.useFog = false;
    material.useLighting = true;
    material.update();
    return material;
}

/** The unlit, vertex-coloured ribbon material: premultiplied blending (as raw), depth-tested, no depth write. */
export function ribbon_material(): pc.StandardMaterial {
    const material = new pc.StandardMaterial();
    material.useLighting = false;
    material.useSkybox = false;
    material.useFog = false;
    material.diffuse = new pc.Color(0, 0, 0);
    material.specular = new pc.Color(0, 0, 0);
    material.emissive = new pc.Color(1, 1, 1);
    material.emissiveVertexColor = true;
    material.emissiveVertexColorChannel = 'rgb';
    material.opacityVertexColor = true;
    material.opacityVertexColorChannel = 'a';
    // the lit shader's output multiplies rgb by the opacity for BLEND_PREMULTIPLIED: one, one-minus-src-alpha
    material.blendType = pc.BLEND_PREMULTIPLIED;
    material.depthWrite = false;
    material.depthTest = true;
    material.cull = pc.CULLFACE_NONE;
    material.update();
    return material;
}

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    const { app, gpu } = await playcanvas_stage(canvas);
    const device = app.graphicsDevice;

    const boxes = workload.boxes;
    for (let i = 0; i < BOX_COUNT; i++) {
        const o = i * 9;
        const box = new pc.Entity(`box ${i}`);
        box.addComponent('render', { type: 'box', material: lit_material(boxes[o + 6], boxes[o + 7], boxes[o + 8]) });
        box.setLocalScale(boxes[o + 3], boxes[o + 4], boxes[o + 5]);
        box.setPosition(boxes[o], boxes[o + 1], boxes[o + 2]);
        app.root.addChild(box);
    }

    const material = ribbon_material();
    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    ribbon_centres(workload.ribbons, 0, centres);
    const meshes: pc.Mesh[] = [];
    const positions: Float32Array[] = [];
    for (let i = 0; i < RIBBON_COUNT; i++) {
        const p = new Float32Array(RIBBON_POINTS * 6);
        widen(centres, i * RIBBON_POINTS, RIBBON_POINTS, p, 0);
        const colors = new Float32Array(RIBBON_POINTS * 8);
        ribbon_colors(workload.ribbons, i, colors, 0);
        const indices = new Uint16Array(RIBBON_SEGMENTS * 6);
        ribbon_indices(indices, 0, 0);
        const mesh = new pc.Mesh(device);
        // dynamic vertices (rewritten every frame), static indices
        mesh.clear(true, false);
        mesh.setPositions(p);
        mesh.setColors(colors);
        mesh.setIndices(indices);
        mesh.update(pc.PRIMITIVE_TRIANGLES);
        const entity = new pc.Entity(`ribbon ${i}`);
        entity.addComponent('render', { meshInstances: [new pc.MeshInstance(mesh, material)] });
        app.root.addChild(entity);
        meshes.push(mesh);
        positions.push(p);
    }

    return {
        device: gpu,
        update(t: number): void {
            ribbon_centres(workload.ribbons, t, centres);
            for (let i = 0; i < RIBBON_COUNT; i++) {
                const p = positions[i];
                widen(centres, i * RIBBON_POINTS, RIBBON_POINTS, p, 0);
                const mesh = meshes[i];
                mesh.setPositions(p);
                // rewrites the vertex buffer and recomputes the bounding box (frustum culling stays right)
                mesh.update(pc.PRIMITIVE_TRIANGLES);
            }
        },
        render(): void {
            // app.tick's per-frame work without its requestAnimationFrame; render() ends in frameEnd(), which
            // submits the frame's command buffers (WebgpuGraphicsDevice.submit -> queue.submit).
            app.update(1 / 60);
            app.render();
        },
    };
}

export { ribbon_colors, ribbon_indices, widen };
