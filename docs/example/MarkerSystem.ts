// A system of the game's own: every entity with a Transform and a Marker component gets a box drawn by the
// MarkerExtension this system owns, following the entity as it moves.
import { System } from "shade-ts/engine/System.js";
import { Transform } from "shade-ts/engine/components/Transform.js";
import { WorldTransform } from "shade-ts/engine/components/WorldTransform.js";
import { PerEntity } from "shade-ts/engine/PerEntity.js";
import type { EntityManager } from "shade-ts/engine/EntityManager.js";
import type { EntityQuery } from "shade-ts/engine/EntityQuery.js";
import type { GraphicsEngine } from "shade-ts/engine/GraphicsEngine.js";
import type { DynamicMesh } from "shade-ts/shade/renderer/scene/DynamicMesh.js";
import { make_box_geometry } from "shade-ts/shade/renderer/geometry/primitives/make_box_geometry.js";
import { MarkerExtension } from "./MarkerExtension.js";

/** The component: a bitecs component is an object of per-entity typed arrays indexed by entity id, which grow with the ids. */
export const Marker = PerEntity.define({
    /** Edge length of the box. */
    size: PerEntity.f32(),
    /** RGBA at `eid * 4`. */
    color: PerEntity.f32(4),
});

// query terms are module constants: the query is registered once, in startup
const TERMS = [Transform, Marker];

export class MarkerSystem extends System {
    readonly name = "MarkerSystem";

    readonly #graphics: GraphicsEngine;
    #extension: MarkerExtension | null = null;
    #query: EntityQuery | null = null;
    /** The box of each entity (made on its first update). A real game frees it in an on_remove observer. */
    readonly #meshes = new Map<number, DynamicMesh>();

    constructor(graphics: GraphicsEngine) {
        super();
        this.#graphics = graphics;
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        this.#extension = this.#graphics.add_extension(new MarkerExtension(this));
        this.#query = entityManager.register_query(TERMS);
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        this.#meshes.clear();
    }

    override update(dt: number): void {
        void dt;
        const extension = this.#extension;
        if (extension === null || this.#query === null) return;
        for (const eid of this.#query.entities) {
            let mesh = this.#meshes.get(eid);
            if (mesh === undefined) {
                const size = Marker.size[eid];
                const c = eid * 4;
                const color = [Marker.color[c], Marker.color[c + 1], Marker.color[c + 2], Marker.color[c + 3]];
                mesh = extension.add(make_box_geometry(size, size, size), color);
                this.#meshes.set(eid, mesh);
            }
            // where the entity is in the world (its Transform under its parents)
            const m = eid * 16;
            mesh.position[0] = WorldTransform.matrix[m + 12];
            mesh.position[1] = WorldTransform.matrix[m + 13];
            mesh.position[2] = WorldTransform.matrix[m + 14];
            mesh.updateMatrices();
        }
    }
}
