import { frame_phase_name, type FramePhase } from "./FramePhase.js";
import { extension_label } from "./extension_label.js";
import type { RenderExtension } from "./RenderExtension.js";

/** How an extension failed: while recording, while one of its passes executed, or in GPU validation. */
export type RenderExtensionFailure = "record" | "execute" | "validation";

/**
 * One extension's failure, as the renderer reports it (once) before dropping that extension's work and drawing
 * the rest of the frame. The message names the extension and its owner ("Render extension 'fog of war'
 * (FogOfWarSystem) failed to record at AfterTransparency"); the original error is on `cause`.
 */
export class RenderExtensionError extends Error {
    readonly extension: RenderExtension;
    readonly phase: FramePhase;
    readonly failure: RenderExtensionFailure;
    /** The pass that failed, for "execute" and "validation" failures. */
    readonly pass: string | null;

    constructor(extension: RenderExtension, phase: FramePhase, failure: RenderExtensionFailure, pass: string | null, cause: unknown, detail = "") {
        const where = frame_phase_name(phase);
        const what =
            failure === "record"
                ? `failed to record at ${where}`
                : failure === "execute"
                  ? `failed to execute pass '${pass}' at ${where}`
                  : `failed GPU validation${pass !== null ? ` in pass '${pass}'` : ""} at ${where}`;
        super(`Render extension ${extension_label(extension)} ${what}${detail}`, { cause });
        this.name = "RenderExtensionError";
        this.extension = extension;
        this.phase = phase;
        this.failure = failure;
        this.pass = pass;
    }
}
