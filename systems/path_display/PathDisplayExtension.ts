import { GPUDynamicMeshRenderer } from "../../shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension, type RenderExtensionOwner } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";
import type { DynamicMeshBatch } from "../../shade/renderer/scene/DynamicMeshBatch.js";

/** What the extension draws: the system's batch of path meshes; the owner named in errors. */
export interface PathSource extends RenderExtensionOwner {
    readonly batch: DynamicMeshBatch;
}

/**
 * Draws the paths of a `PathDisplaySystem` at AfterTransparency through a `GPUDynamicMeshRenderer` (one pass,
 * "path display / draw"): blended over the scene colour, depth-tested against the scene depth without
 * writing it, exactly as the seed's MarkerExtension. A path's geometry is uploaded only when it was rebuilt.
 */
export class PathDisplayExtension extends RenderExtension {
    name = "path display";
    phase = FramePhase.AfterTransparency;

    readonly #source: PathSource;
    // tubes are closed but the markers' bases face into them: two-sided
    readonly #renderer = new GPUDynamicMeshRenderer({ label: "path display", cull_mode: "none" });

    constructor(source: PathSource) {
        super(source);
        this.#source = source;
    }

    /** Geometry uploads so far (a path's first frame and every rebuild). For tests and diagnostics. */
    get upload_count(): number {
        return this.#renderer.upload_count;
    }

    override record(frame: FrameContext): void {
        const batch = this.#source.batch;
        if (batch.count === 0) return; // nothing to draw: the colour stays exactly as it was
        const scene = frame.get(SceneColor);
        scene.color = this.#renderer.graph_draw({
            graph: frame.graph,
            batch,
            color: scene.color,
            depth: frame.get(ViewTextures).depth,
            camera: frame.view.camera.buffer,
        });
    }

    override destroy(): void {
        this.#renderer.destroy();
    }
}
