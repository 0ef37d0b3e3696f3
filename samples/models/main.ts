// A glTF model with its full metallic-roughness material (base colour, metallic-roughness, normal, occlusion and
// emissive maps) under an HDR environment (image-based lighting, the sky showing it), turning slowly; drag to
// turn it by hand, E switches the environment off and on, A the ambient occlusion, B the bloom, I the graph
// inspector.
// Query flags: ?frames=N renders N fixed steps and stops (screenshots, tests); ?still holds the model still.
import { quat } from "gl-matrix";
import { load_gltf } from "../../engine/assets/load_gltf.js";
import { make_standard_material } from "../../engine/assets/make_standard_material.js";
import type { Model } from "../../engine/assets/Model.js";
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { GTAOExtension } from "../../shade/renderer/ao/GTAOExtension.js";
import { BloomExtension } from "../../shade/renderer/bloom/BloomExtension.js";
import { Environment } from "../../shade/renderer/environment/Environment.js";
import { MATERIAL_SLOTS } from "../../shade/renderer/mesh/surface_wgsl.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../shade/renderer/scene/Scene.js";
import { CanvasRenderTarget } from "../../shade/renderer/target/CanvasRenderTarget.js";
import { Inspector } from "../skirmish/Inspector.js";

const MODEL = "../assets/DamagedHelmet/DamagedHelmet.glb";
const HDR = "../assets/royal_esplanade/royal_esplanade_1k.hdr";
const STEP = 1 / 60;
const params = new URLSearchParams(location.search);
const frame_limit = params.has("frames") ? Number(params.get("frames")) : Infinity;
const turn_speed = params.has("still") ? 0 : 0.25;

const status_element = document.getElementById("status") as HTMLPreElement;

function show(text: string, is_error = false): void {
    status_element.textContent = text;
    status_element.classList.toggle("error", is_error);
}

async function fetch_bytes(url: string): Promise<Uint8Array> {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
}

async function main(): Promise<void> {
    if (!("gpu" in navigator)) {
        document.body.classList.add("no-webgpu");
        (document.getElementById("no-webgpu-detail") as HTMLElement).textContent = "navigator.gpu is missing in this browser.";
        document.body.dataset.ready = "no-webgpu";
        return;
    }
    const canvas = document.getElementById("view") as HTMLCanvasElement;
    const errors: string[] = [];
    const graphics = new GraphicsEngine({
        target: new CanvasRenderTarget(canvas),
        on_error: (error) => {
            errors.push(error.message);
            show(error.message, true);
            console.warn(error);
        },
    });
    const scene = new Scene();
    scene.sun.intensity = 1.2;
    scene.sun.direction.set([-0.5, -0.8, -0.6]);
    graphics.scene = scene;
    // contact shadows in the helmet's folds, and its emissive parts glowing
    const ao = graphics.add_extension(new GTAOExtension({ radius: 0.15, power: 1.5 }));
    const bloom = graphics.add_extension(new BloomExtension({ intensity: 0.06 }));
    show("loading the environment and the model...");
    const [hdr] = await Promise.all([fetch_bytes(HDR), graphics.start()]);
    const environment = Environment.from_hdr(hdr, "royal_esplanade_1k.hdr");
    scene.environment = environment;

    // the model's textures live on one device: a renderer restart or a lost device loads them again
    let model: Model = await load_gltf(MODEL, { device: graphics.device!, on_progress: (p) => show(`loading ${MODEL}: ${p.items_loaded} / ${p.items_total}`) });
    let model_device = graphics.device;
    const node = model.nodes.find((n) => n.mesh >= 0)!;
    const material = make_standard_material(model.materials[0], "helmet", model.textures);
    const helmet = scene.add(new Mesh(model.meshes[node.mesh].primitives[0].geometry, material));
    const reload = async (device: GPUDevice) => {
        for (const slot of MATERIAL_SLOTS) material[slot] = null;
        const old = model;
        model = await load_gltf(MODEL, { device });
        model_device = device;
        const loaded = make_standard_material(model.materials[0], "helmet", model.textures);
        for (const slot of MATERIAL_SLOTS) material[slot] = loaded[slot];
        old.destroy();
    };

    const camera = graphics.view.camera;
    camera.position.set([0, 0.15, 3.1]);
    camera.target.set([0, 0, 0]);
    camera.fov_y = (45 * Math.PI) / 180;

    const inspector = new Inspector(document.getElementById("inspector") as HTMLElement, graphics);
    if (params.get("inspector") === "0") {
        inspector.open = false;
        (document.getElementById("inspector") as HTMLElement).hidden = true;
    }
    window.addEventListener("keydown", (event) => {
        if (event.key === "i" || event.key === "I") inspector.open = !inspector.open;
        if (event.key === "e" || event.key === "E") scene.environment = scene.environment === null ? environment : null;
        if (event.key === "a" || event.key === "A") {
            if (graphics.has_extension(ao)) graphics.remove_extension(ao);
            else graphics.add_extension(ao);
        }
        if (event.key === "b" || event.key === "B") bloom.intensity = bloom.intensity > 0 ? 0 : 0.06;
    });
    let yaw = 0.5;
    let dragging = false;
    canvas.addEventListener("pointerdown", (event) => {
        dragging = true;
        canvas.setPointerCapture(event.pointerId);
    });
    canvas.addEventListener("pointerup", () => (dragging = false));
    canvas.addEventListener("pointermove", (event) => {
        if (dragging) yaw += event.movementX * 0.01;
    });

    const turn = quat.create();
    let frames = 0;
    let stopped = false;
    let reloading = false;
    show("");
    const frame = (now: number) => {
        if (stopped) return;
        const device = graphics.device;
        if (device !== null && device !== model_device && !reloading) {
            reloading = true;
            reload(device).then(
                () => (reloading = false),
                (error: unknown) => show(`the model did not load again: ${error instanceof Error ? error.message : String(error)}`, true),
            );
        }
        if (!dragging) yaw += turn_speed * STEP;
        quat.setAxisAngle(turn, [0, 1, 0], yaw);
        quat.multiply(helmet.rotation, turn, node.rotation);
        try {
            if (graphics.render()) {
                frames++;
                document.body.dataset.frame = String(frames);
            }
        } catch (error) {
            show(error instanceof Error ? error.message : String(error), true);
        }
        inspector.frame(now);
        if (frames >= frame_limit) {
            stopped = true;
            document.body.dataset.done = "1";
            return;
        }
        requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    Object.assign(window, { models: { graphics, scene, environment, errors, frames: () => frames } });
    document.body.dataset.ready = "1";
}

main().catch((e: unknown) => {
    show(e instanceof Error ? `${e.name}: ${e.message}` : String(e), true);
    console.error(e);
});
