// The seed's MarkerExtension, as a game writes it against the installed package: only the import prefix
// differs from the seed (`shade-ts/` instead of the engine's own folders).
import { RenderExtension } from "shade-ts/shade/renderer/extension/RenderExtension.js";
import { FramePhase } from "shade-ts/shade/renderer/extension/FramePhase.js";
import { SceneColor } from "shade-ts/shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "shade-ts/shade/renderer/extension/ViewTextures.js";
import type { FrameContext } from "shade-ts/shade/renderer/extension/FrameContext.js";
import type { Geometry } from "shade-ts/shade/renderer/geometry/Geometry.js";
import { GPUDynamicMeshRenderer } from "shade-ts/shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import { DynamicMesh } from "shade-ts/shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "shade-ts/shade/renderer/scene/DynamicMeshBatch.js";

export class MarkerExtension extends RenderExtension {
    name = "markers";

    phase = FramePhase.AfterTransparency;

    #renderer = new GPUDynamicMeshRenderer();

    #batch = new DynamicMeshBatch();

    /**
     * @param {Geometry} geometry a plain Geometry - position attribute and an index
     * @param {number[]} color RGBA, multiplied with any per-vertex colour
     * @returns {DynamicMesh}
     */
    add(geometry: Geometry, color: number[]): DynamicMesh {
        const mesh = DynamicMesh.from(geometry, color);

        // a node's world transform is derived and stays unset until it is asked for
        mesh.updateMatrices();

        this.#batch.add(mesh);

        return mesh;
    }

    record(frame: FrameContext): void {
        if (this.#batch.count === 0) {
            // nothing to draw, and the frame's colour is left exactly as it was
            return;
        }

        const scene = frame.get(SceneColor);

        scene.color = this.#renderer.graph_draw({
            graph: frame.graph,
            batch: this.#batch,
            color: scene.color,
            depth: frame.get(ViewTextures).depth,
            camera: frame.view.camera.buffer
        });
    }

    destroy(): void {
        this.#renderer.destroy();
        this.#batch.clear();
    }
}
