// Test helper: an extension that copies a graph texture of the frame into a texture it owns, for read-back.
import type { FrameExecution } from "../../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import type { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import type { FrameProductClass } from "../../../../shade/renderer/products/FrameProduct.js";

/** Copies `pick(frame)` (when it returns a handle) into `texture` at `phase`, requiring `requires`. */
export class TextureProbe extends RenderExtension {
    override name: string;
    override phase: FramePhase;
    override requires: FrameProductClass[];
    texture: GPUTexture | null = null;
    #from: FrameGraphHandle = -1;
    #to: FrameGraphHandle = -1;
    readonly #pick: (frame: FrameContext) => FrameGraphHandle | null;

    constructor(name: string, phase: FramePhase, requires: FrameProductClass[], pick: (frame: FrameContext) => FrameGraphHandle | null) {
        super();
        this.name = name;
        this.phase = phase;
        this.requires = requires;
        this.#pick = pick;
    }

    override record(frame: FrameContext): void {
        const source = this.#pick(frame);
        if (source === null) return;
        const d = frame.describe(source);
        if (this.texture === null || this.texture.width !== d.width || this.texture.height !== d.height || this.texture.format !== d.format) {
            this.texture?.destroy();
            this.texture = frame.device.createTexture({
                label: `${this.name} texture`,
                size: { width: d.width, height: d.height },
                format: d.format,
                usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING,
            });
        }
        const pass = frame.graph.add(this.name, this, execute_probe);
        this.#from = pass.read(source);
        this.#to = pass.write(frame.graph.import_texture(`${this.name} texture`, this.texture));
    }

    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const d = resources.descriptor(this.#from);
        execution.encoder.copyTextureToTexture(
            { texture: resources.texture(this.#from) },
            { texture: resources.texture(this.#to) },
            { width: d.width, height: d.height },
        );
    }
}

function execute_probe(probe: TextureProbe, resources: FrameGraphResources, execution: FrameExecution): void {
    probe.execute(resources, execution);
}
