import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension, type RenderExtensionOwner } from "../../shade/renderer/extension/RenderExtension.js";
import { VisibilityGrid } from "./VisibilityGrid.js";

/** What the grid extension uploads: the fog system's texture and its changed rows; the owner named in errors. */
export interface FogGridSource extends RenderExtensionOwner {
    texture(device: GPUDevice): GPUTexture;
    upload(device: GPUDevice): void;
}

/**
 * FrameStart half of the fog of war: imports the system's grid texture into the frame graph, writes the
 * changed rows into it in one pass ("fog of war grid / upload", a side effect since the texture is
 * imported) and publishes the written handle as the frame's `VisibilityGrid` for any later extension.
 */
export class FogOfWarGridExtension extends RenderExtension {
    name = "fog of war grid";
    phase = FramePhase.FrameStart;

    readonly #source: FogGridSource;
    readonly #execute: (data: FogOfWarGridExtension, resources: FrameGraphResources, execution: FrameExecution) => void;

    constructor(source: FogGridSource) {
        super(source);
        this.#source = source;
        this.#execute = (_data, _resources, execution) => this.#source.upload(execution.graphics);
    }

    override record(frame: FrameContext): void {
        const graph = frame.graph;
        const imported = graph.import_texture("fog of war grid", this.#source.texture(frame.device));
        const builder = graph.add("fog of war grid / upload", this, this.#execute);
        frame.create(VisibilityGrid).grid = builder.write(imported, "load");
    }
}
