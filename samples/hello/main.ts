// The hello sample: a GraphicsEngine on the page's canvas with two extensions, one before the upscale and one
// over the presented image. Renders every animation frame; sets body[data-frame] after the first.
// With `?probe=misuse` it also makes one deliberate API mistake and shows the message in body[data-probe] (the
// browser test checks that a production build's messages name the real classes).
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { CanvasRenderTarget } from "../../shade/renderer/target/CanvasRenderTarget.js";
import { FrameBorderExtension, SunExtension } from "./hello_extensions.js";

const status_element = document.getElementById("status") as HTMLPreElement;

function show_status(text: string, is_error = false): void {
    status_element.textContent = text;
    status_element.classList.toggle("error", is_error);
}

/** Asks for the scene colour at Overlay, where the frame no longer carries it, once, and shows the error. */
class MisuseProbeExtension extends RenderExtension {
    name = "misuse probe";
    phase = FramePhase.Overlay;

    record(frame: FrameContext): void {
        if (document.body.dataset.probe !== undefined) return;
        try {
            frame.get(SceneColor);
            document.body.dataset.probe = "frame.get(SceneColor) at Overlay did not throw";
        } catch (error) {
            document.body.dataset.probe = error instanceof Error ? error.message : String(error);
        }
    }
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
    if (new URLSearchParams(location.search).get("probe") === "misuse") {
        engine.add_extension(new MisuseProbeExtension());
        document.body.dataset.classes = engine.describe().phases.flatMap((p) => p.extensions.map((e) => e.class)).join(",");
    }
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
