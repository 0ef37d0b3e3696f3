// The seed's code, pasted as it stands: the minimal MarkerExtension, the VisibilityGrid record, the
// DecalExtension ordering declaration and the startup/shutdown every rendering system has (in MarkerSystem, whose
// class around the two methods is ours: the seed shows the methods only). Only the import prefix changed and TypeScript types were added; no
// `override`, no renamed members. This file type-checking under `npm run typecheck` is the test that the seed's
// code works as written; test/seed/seed_code.test.ts runs it on the real Renderer.
import { FrameRecord } from "../../shade/renderer/extension/FrameRecord.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import type { Geometry } from "../../shade/renderer/geometry/Geometry.js";
import { GPUDynamicMeshRenderer } from "../../shade/renderer/dynamic/GPUDynamicMeshRenderer.js";
import { DynamicMesh } from "../../shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "../../shade/renderer/scene/DynamicMeshBatch.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";

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

export class VisibilityGrid extends FrameRecord {
    #grid = -1;

    static is_present_at(phase: FramePhase): boolean {
        return true;
    }

    get grid(): number {
        return this.read(this.#grid);
    }

    set grid(handle: number) {
        this.#grid = this.publish(handle);
    }
}

/** Stands in for the terrain system's extension, which the seed's DecalExtension names. */
export class TerrainExtension extends RenderExtension {
    name = "terrain";
    phase = FramePhase.AfterGBuffer;
    record(frame: FrameContext): void {}
}

export class DecalExtension extends RenderExtension {
    phase = FramePhase.AfterGBuffer;

    after = [TerrainExtension];   // classes, not instances
    before = [];
}

/** The seed's system shape: `startup` registers the extension it owns (passing itself), `shutdown` removes it. */
export class MarkerSystem extends System {
    readonly name = "MarkerSystem";

    readonly #graphics: GraphicsEngine;

    #extension: MarkerExtension | null = null;

    constructor(graphics: GraphicsEngine) {
        super();
        this.#graphics = graphics;
    }

    get extension(): MarkerExtension | null {
        return this.#extension;
    }

    async startup(entityManager: EntityManager) {
        this.#extension = this.#graphics.add_extension(new MarkerExtension(this));
    }

    async shutdown(entityManager: EntityManager) {
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);

            this.#extension = null;
        }
    }
}
