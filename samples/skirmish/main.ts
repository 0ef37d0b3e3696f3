// The skirmish sample: a level file loaded by the engine's level loader, units walking their routes with trails,
// route paths, camp fires and smoke, a colour grade at BeforePresent, a minimap at Overlay, debug draw on a key,
// and the live graph inspector. Query flags: ?frames=N renders N fixed steps and stops (screenshots, tests).
import { Engine } from "../../engine/Engine.js";
import { CanvasRenderTarget } from "../../shade/renderer/target/CanvasRenderTarget.js";
import { Inspector } from "./Inspector.js";
import { SkirmishLevel } from "./SkirmishLevel.js";

const STEP = 1 / 60;
const params = new URLSearchParams(location.search);
const frame_limit = params.has("frames") ? Number(params.get("frames")) : Infinity;
const status_element = document.getElementById("status") as HTMLPreElement;

function show(text: string, is_error = false): void {
    status_element.textContent = text;
    status_element.classList.toggle("error", is_error);
}

function no_webgpu(detail: string): void {
    document.body.classList.add("no-webgpu");
    (document.getElementById("no-webgpu-detail") as HTMLElement).textContent = detail;
    document.body.dataset.ready = "no-webgpu";
}

async function main(): Promise<void> {
    if (!("gpu" in navigator)) {
        no_webgpu("navigator.gpu is missing in this browser.");
        return;
    }
    const canvas = document.getElementById("view") as HTMLCanvasElement;
    const errors: string[] = [];
    const engine = new Engine({
        graphics: {
            target: new CanvasRenderTarget(canvas),
            on_error: (error) => {
                errors.push(error.message);
                show(error.message, true);
                console.warn(error);
            },
        },
    });
    const camera = engine.graphics.view.camera;
    camera.position.set([0, 21, 25]);
    camera.target.set([0, 0, 1.5]);
    camera.fov_y = Math.PI / 4;
    const scene = engine.graphics.scene;
    scene.sun.direction.set([-0.45, -1, -0.3]);
    scene.sun.color.set([1, 0.92, 0.8]);
    scene.sun.intensity = 2.4;
    scene.ambient.set([0.08, 0.1, 0.14]);

    const level = new SkirmishLevel(engine);
    try {
        await engine.graphics.start();
    } catch (error) {
        no_webgpu(error instanceof Error ? error.message : String(error));
        return;
    }
    const source = await (await fetch("./levels/skirmish.json")).text();
    await level.load(source);

    const inspector = new Inspector(document.getElementById("inspector") as HTMLElement, engine.graphics);
    if (params.get("inspector") === "0") {
        inspector.open = false;
        (document.getElementById("inspector") as HTMLElement).hidden = true;
    }
    let frames = 0;
    let stopped = false;
    const frame = (now: number) => {
        if (stopped) return;
        engine.update(STEP);
        level.after_update();
        if (engine.render()) {
            frames++;
            document.body.dataset.frame = String(frames);
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

    // hover highlight: the unit under the pointer (CSS pixels on the canvas), picked by the scene system
    let hover_pending = false;
    canvas.addEventListener("pointermove", (event) => {
        if (hover_pending || engine.graphics.renderer === null) return;
        const x = event.offsetX;
        const y = event.offsetY;
        hover_pending = true;
        level.hover(x, y).then(
            () => (hover_pending = false),
            () => (hover_pending = false),
        );
    });
    window.addEventListener("keydown", (event) => {
        if (event.key === "d" || event.key === "D") void level.toggle_debug_draw();
        if (event.key === "g" || event.key === "G") level.grade.enabled_by_user = !level.grade.enabled_by_user;
        if (event.key === "i" || event.key === "I") inspector.open = !inspector.open;
    });
    // hooks for the end-to-end tests and for poking at the engine from the console
    Object.assign(window, {
        skirmish: {
            engine,
            level,
            errors,
            frames: () => frames,
            /** Renders `n` more fixed steps (after a ?frames=N stop). */
            advance: (n: number) => {
                for (let i = 0; i < n; i++) {
                    engine.update(STEP);
                    level.after_update();
                    engine.render();
                    frames++;
                }
            },
            hover: (x: number, y: number) => level.hover(x, y),
            output_size: () => {
                const r = engine.graphics.renderer;
                return r === null ? null : [...r.frame.output_resolution, ...r.frame.internal_resolution];
            },
        },
    });
    document.body.dataset.ready = "1";
}

main().catch((e: unknown) => {
    show(e instanceof Error ? `${e.name}: ${e.message}` : String(e), true);
    console.error(e);
});
