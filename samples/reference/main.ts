// The reference scene, lit and temporally upscaled, on the page's canvas; the camera orbits slowly.
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { CanvasRenderTarget } from "../../shade/renderer/target/CanvasRenderTarget.js";
import { make_reference_scene, place_reference_camera } from "./reference_scene.js";
import { SkyExtension } from "./SkyExtension.js";

const status_element = document.getElementById("status") as HTMLPreElement;
const show = (text: string, is_error = false) => {
    status_element.textContent = text;
    status_element.classList.toggle("error", is_error);
};

async function main(): Promise<void> {
    const canvas = document.getElementById("view") as HTMLCanvasElement;
    const engine = new GraphicsEngine({ target: new CanvasRenderTarget(canvas), on_error: (e) => show(e.message, true) });
    engine.add_extension(new SkyExtension());
    // the engine holds the scene: every renderer it builds (after a restart or a lost device) draws it
    engine.scene = make_reference_scene(16);
    await engine.start();
    const camera = engine.view.camera;
    place_reference_camera(camera);
    const orbit = Math.hypot(camera.position[0], camera.position[2]);
    const start = performance.now();
    const orbit_speed = new URLSearchParams(location.search).has("still") ? 0 : 0.15;
    let frames = 0;
    const frame = (now: number) => {
        const renderer = engine.renderer;
        const a = Math.atan2(0.5, 6) + ((now - start) / 1000) * orbit_speed;
        camera.position[0] = Math.sin(a) * orbit;
        camera.position[2] = Math.cos(a) * orbit;
        try {
            if (engine.render() && frames++ % 30 === 0) {
                document.body.dataset.frame = String(frames);
                const timings = renderer?.timer?.timings.slice(0, renderer.timer.timing_count) ?? [];
                show(timings.length > 0 ? timings.map((t) => `${t.name} ${t.ms.toFixed(2)} ms`).join("  ") : `${canvas.width}x${canvas.height}`);
            }
        } catch (error) {
            show(error instanceof Error ? error.message : String(error), true);
            return;
        }
        requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
}

main().catch((e: unknown) => show(e instanceof Error ? `${e.name}: ${e.message}` : String(e), true));
