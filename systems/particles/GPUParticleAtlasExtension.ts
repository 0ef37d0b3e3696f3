import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension, type RenderExtensionOwner } from "../../shade/renderer/extension/RenderExtension.js";
import type { ParticleRuntime } from "./ParticleRuntime.js";

/** The longest step one frame simulates (a stall or a paused tab does not fling particles across the level). */
const MAX_STEP_S = 0.25;

/**
 * @internal (not exported from the folder): the particle side of FrameStart, owned by
 * `GPUParticleEmitterSystem`. Uploads the sprite atlas when it changed, writes the emitter table and records
 * the simulation's compute pass (`"particle atlas / simulate"`, a side effect: it writes buffers the graph does
 * not see). Records nothing once no emitter is left and the last particles have been killed.
 */
export class GPUParticleAtlasExtension extends RenderExtension {
    name = "particle atlas";
    phase = FramePhase.FrameStart;

    readonly #runtime: ParticleRuntime;
    readonly #execute: (data: GPUParticleAtlasExtension, resources: FrameGraphResources, execution: FrameExecution) => void;
    #camera: GPUBuffer | null = null;
    /** The last simulated frame had no emitter: nothing can be alive now. */
    #quiet = true;

    constructor(runtime: ParticleRuntime, owner: RenderExtensionOwner | null = null) {
        super(owner);
        this.#runtime = runtime;
        this.#execute = (_data, _resources, execution) => {
            this.#runtime.simulate(execution.graphics, execution.encoder, this.#camera!, execution.timestamp_writes);
        };
    }

    record(frame: FrameContext): void {
        const runtime = this.#runtime;
        const time = runtime.time;
        time[1] = time[0] < MAX_STEP_S ? time[0] : MAX_STEP_S;
        time[0] = 0;
        const emitters = runtime.table.emitter_count;
        if (emitters === 0 && this.#quiet && runtime.table.upload_slots === 0) {
            // keep the draw side quiet too: the table's counts are those of the last write
            runtime.table.additive_count = 0;
            runtime.table.alpha_count = 0;
            return;
        }
        this.#quiet = emitters === 0;
        // the simulation sorts small particles out for the compute splat by their size on screen this frame
        this.#camera = frame.view.camera.buffer;
        frame.graph.add("particle atlas / simulate", this, this.#execute).make_side_effect();
    }

    override destroy(): void {
        this.#camera = null;
        this.#runtime.destroy();
    }
}
