import type { FrameGraph } from "../device/graph/FrameGraph.js";
import type { GPUPassTimer } from "../device/graph/GPUPassTimer.js";
import type { FramePhase } from "./extension/FramePhase.js";
import type { RenderExtension } from "./extension/RenderExtension.js";
import { RenderExtensionError } from "./extension/RenderExtensionError.js";
import type { RenderExtensionRegistry } from "./extension/RenderExtensionRegistry.js";

const encoder_descriptor: GPUCommandEncoderDescriptor = { label: "frame" };

/**
 * @internal What `Renderer.diagnose_gpu_errors` needs of its renderer; made once per renderer, so a diagnosed
 * frame allocates no more than its own encoders and error scopes.
 */
export interface GPUErrorDiagnosis {
    readonly device: GPUDevice;
    readonly graph: FrameGraph;
    readonly registry: RenderExtensionRegistry;
    readonly timer: GPUPassTimer | null;
    // the renderer's execution target, reused: only its encoder changes
    readonly target: { graphics: GPUDevice; encoder: GPUCommandEncoder };
    readonly on_error: ((error: Error) => void) | null;
    // read when an error scope settles, frames later
    destroyed(): boolean;
    // there may be more than one culprit: a found one keeps the diagnosis going
    diagnose_more(): void;
}

/**
 * @internal Executes the compiled frame with every pass on a command buffer of its own, inside its own
 * validation error scope and submitted alone; an error is reported naming the pass (and its extension).
 */
export function execute_diagnosed(diagnosis: GPUErrorDiagnosis): void {
    const device = diagnosis.device;
    const graph = diagnosis.graph;
    const frame_index = graph.frame_index;
    let encoder = device.createCommandEncoder(encoder_descriptor);
    let pass = "frame start";
    let scope = -1;
    device.pushErrorScope("validation");
    const close = () => {
        const buffer = encoder.finish();
        const encoded = device.popErrorScope();
        device.pushErrorScope("validation");
        device.queue.submit([buffer]);
        const submitted = device.popErrorScope();
        const owner = diagnosis.registry.scope_owner(frame_index, scope);
        const failed_pass = pass;
        void Promise.all([encoded, submitted]).then(
            ([a, b]) => {
                const error = a ?? b;
                if (error !== null && !diagnosis.destroyed()) report_validation_error(diagnosis, owner, failed_pass, error);
            },
            () => {}, // a lost device: recovery reports it
        );
    };
    diagnosis.target.encoder = encoder;
    graph.execute(diagnosis.target, (next_pass, next_scope) => {
        close();
        encoder = device.createCommandEncoder(encoder_descriptor);
        device.pushErrorScope("validation");
        pass = next_pass;
        scope = next_scope;
        return encoder;
    });
    const timing = diagnosis.timer?.end_frame(encoder) ?? null;
    close();
    diagnosis.timer?.read(timing);
}

// An extension's pass is reported once and the extension suspended; a built-in pass's error is only reported.
function report_validation_error(
    diagnosis: GPUErrorDiagnosis,
    owner: { extension: RenderExtension; phase: FramePhase } | null,
    pass: string,
    error: GPUError,
): void {
    diagnosis.diagnose_more();
    const report = diagnosis.on_error;
    if (owner === null) {
        const failure = new Error(`GPU validation failed in built-in pass '${pass}': ${error.message}`);
        if (report !== null) report(failure);
        else console.error(failure);
        return;
    }
    const registry = diagnosis.registry;
    if (registry.is_suspended(owner.extension) || !registry.has(owner.extension)) return; // reported already
    registry.suspend(owner.extension);
    const failure = new RenderExtensionError(owner.extension, owner.phase, "validation", pass, new Error(error.message));
    if (report !== null) report(failure);
    else console.error(failure);
}
