// The hello sample: a GraphicsEngine on the page's canvas with two extensions, one before the upscale and one
// over the presented image. Renders every animation frame; sets body[data-frame] after the first.
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { CanvasRenderTarget } from "../../shade/renderer/target/CanvasRenderTarget.js";
import { FrameBorderExtension, SunExtension } from "./hello_extensions.js";

const status_element = document.getElementById("status") as HTMLPreElement;

function show_status(text: string, is_error = false): void {
    status_element.textContent = text;
    status_element.classList.toggle("error", is_error);
}

async function main(): Promise<void> {
    if (!("gpu" in navigator)) throw new Error("navigator.gpu is missing: this browser has no WebGPU.");
    const canvas = document.getElementById("view") as HTMLCanvasElement;
    const engine = new GraphicsEngine({
        target: new CanvasRenderTarget(canvas),
        on_error: (error) => show_status(error.message, true),
    });
    // registering needs no device: the engine applies these when its renderer exists
    engine.add_extension(new SunExtension());
    engine.add_extension(new FrameBorderExtension());
    await engine.start();

    const frame = () => {
        try {
            if (engine.render() && document.body.dataset.frame !== "1") {
                document.body.dataset.frame = "1";
                show_status(`${engine.renderer!.target.format}, ${canvas.width}x${canvas.height}, TAA scale ${engine.resolution_scale}`);
            }
        } catch (error) {
            show_status(error instanceof Error ? error.message : String(error), true);
            console.error(error);
            return;
        }
        requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
}

main().catch((e: unknown) => {
    show_status(e instanceof Error ? `${e.name}: ${e.message}` : String(e), true);
    console.error(e);
});
