import type { EntityManager } from "../../engine/EntityManager.js";
import { PerEntity } from "../../engine/PerEntity.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";
import type { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { Highlight } from "./Highlight.js";
import { HighlightDescriptor, MAX_HIGHLIGHT_WIDTH } from "./HighlightDescriptor.js";
import { HighlightExtension, type HighlightEntries, type HighlightSource } from "./HighlightExtension.js";

const TERMS = [Highlight];

/**
 * Outlines and picking. Every entity with `Highlight` whose mesh the system knows (`set_mesh(eid, mesh)`: the
 * entity -> `Mesh` side table; a mesh's `object_id` is what the G-buffer's id target holds) gets an outline
 * of its colour and width, drawn by the `HighlightExtension` it owns. `pick(x, y)` answers which named
 * entity's mesh covers a pixel (the sample's hover highlight: pick, then add `Highlight`).
 *
 * A side-table entry belongs to the entity that was current when it was set: a removed entity's entry is
 * ignored (and its recycled id starts with none). Allocates nothing per frame once warm.
 */
export class HighlightSystem extends System implements HighlightSource {
    readonly name = "HighlightSystem";

    readonly #graphics: GraphicsEngine;
    #extension: HighlightExtension | null = null;
    #query: EntityQuery | null = null;
    #entity_manager: EntityManager | null = null;
    /** Per-entity state, grown with the entity ids (`PerEntity`). */
    readonly #per_entity = PerEntity.define({
        mesh_of: PerEntity.value<Mesh | null>(null),
        generation: PerEntity.u32(),
        index_of: PerEntity.i32(1, -1),
    });
    get #mesh_of(): (Mesh | null)[] {
        return this.#per_entity.mesh_of;
    }
    get #generation(): Uint32Array {
        return this.#per_entity.generation;
    }
    get #index_of(): Int32Array {
        return this.#per_entity.index_of;
    }
    /** Entities with a mesh set, for picking; `#index_of[eid]` is the place in it, -1 for none. */
    readonly #named: number[] = [];

    constructor(graphics: GraphicsEngine) {
        super();
        this.#graphics = graphics;
    }

    /** The extension while started up, else null. */
    get extension(): HighlightExtension | null {
        return this.#extension;
    }

    /** Names the mesh that stands for `eid` (outlined when it has `Highlight`, returned by `pick`); null forgets it. */
    set_mesh(eid: number, mesh: Mesh | null): void {
        const entities = this.#entity_manager;
        if (entities === null) throw new Error(`${this.name}.set_mesh: start the system up first (engine.add_system)`);
        if (!entities.has_entity(eid)) throw new Error(`${this.name}.set_mesh: entity ${eid} does not exist`);
        this.#mesh_of[eid] = mesh;
        this.#generation[eid] = entities.generation(eid);
        const index = this.#index_of[eid];
        if (mesh !== null && index === -1) {
            this.#index_of[eid] = this.#named.length;
            this.#named.push(eid);
        } else if (mesh === null && index !== -1) {
            const last = this.#named.pop()!;
            if (last !== eid) {
                this.#named[index] = last;
                this.#index_of[last] = index;
            }
            this.#index_of[eid] = -1;
        }
    }

    /** The mesh named for `eid`, or null (none, or set for an entity since removed). */
    mesh_of(eid: number): Mesh | null {
        // an id past the stores (never an entity here) reads undefined
        const mesh = this.#mesh_of[eid] ?? null;
        if (mesh === null || this.#entity_manager === null) return null;
        return this.#entity_manager.is_current(eid, this.#generation[eid]) ? mesh : null;
    }

    /**
     * The entity whose mesh covers pixel (x, y) of the internal resolution, or null (sky, an unnamed mesh,
     * outside the target). Resolves after the next frame renders and the GPU has finished it.
     */
    pick(x: number, y: number): Promise<number | null> {
        if (this.#extension === null) return Promise.reject(new Error(`${this.name}.pick: start the system up first (engine.add_system)`));
        return this.#extension.pick(x, y);
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#extension !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(HighlightDescriptor);
        this.#entity_manager = entityManager;
        this.#query = entityManager.register_query(TERMS);
        this.#extension = this.#graphics.add_extension(new HighlightExtension(this));
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        this.#query = null;
    }

    /** @internal the extension's list of this frame's outlines */
    collect(entries: HighlightEntries): number {
        const query = this.#query;
        if (query === null) return 0;
        const list = query.entities;
        entries.reserve(list.length);
        const u32 = entries.u32;
        const f32 = entries.f32;
        const color = Highlight.color;
        let count = 0;
        for (let k = 0; k < list.length; k++) {
            const eid = list[k];
            const mesh = this.mesh_of(eid);
            const width = Highlight.width[eid];
            if (mesh === null || mesh.object_id === 0 || !mesh.visible || !(width > 0)) continue;
            const o = count * 8;
            u32[o] = mesh.object_id;
            f32[o + 1] = Math.min(width, MAX_HIGHLIGHT_WIDTH);
            f32[o + 4] = color[eid * 4];
            f32[o + 5] = color[eid * 4 + 1];
            f32[o + 6] = color[eid * 4 + 2];
            f32[o + 7] = color[eid * 4 + 3];
            count++;
        }
        return count;
    }

    /** @internal */
    entity_of_object(object_id: number): number | null {
        if (object_id === 0) return null;
        const named = this.#named;
        for (let k = 0; k < named.length; k++) {
            const eid = named[k];
            const mesh = this.mesh_of(eid);
            if (mesh !== null && mesh.object_id === object_id) return eid;
        }
        return null;
    }
}
