import { Transform } from "../../engine/components/Transform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";
import { make_box_geometry } from "../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { Walker } from "./Walker.js";

const BODY = make_box_geometry(0.45, 0.7, 0.45);
const MATERIALS = [
    new StandardMaterial({ base_color: [0.25, 0.5, 1.0, 1], roughness: 0.45, metalness: 0.2, label: "blue unit" }),
    new StandardMaterial({ base_color: [1.0, 0.32, 0.2, 1], roughness: 0.45, metalness: 0.2, label: "red unit" }),
];

/** Gives every Walker a mesh in the graphics engine's scene that follows its Transform. */
export class UnitViewSystem extends System {
    readonly name = "UnitViewSystem";
    readonly #graphics: GraphicsEngine;
    /** The mesh of each entity, for hover highlight and picking. */
    readonly meshes = new Map<number, Mesh>();
    // the same as parallel lists, walked per frame without an iterator
    readonly #eids: number[] = [];
    readonly #list: Mesh[] = [];
    #unsubscribe: (() => void)[] = [];

    constructor(graphics: GraphicsEngine) {
        super();
        this.#graphics = graphics;
    }

    /** The entities with a mesh (the system's own list: do not modify). */
    get entities(): readonly number[] {
        return this.#eids;
    }

    /** The entity whose mesh has G-buffer object id `object_id`, or null. */
    entity_of(object_id: number): number | null {
        for (const [eid, mesh] of this.meshes) if (mesh.object_id === object_id) return eid;
        return null;
    }

    async startup(entityManager: EntityManager): Promise<void> {
        this.#unsubscribe.push(
            entityManager.on_add(Walker, (eid) => {
                const mesh = new Mesh(BODY, MATERIALS[Walker.team[eid]]);
                this.meshes.set(eid, mesh);
                this.#eids.push(eid);
                this.#list.push(mesh);
                this.#graphics.scene.add(mesh);
            }),
            entityManager.on_remove(Walker, (eid) => {
                const mesh = this.meshes.get(eid);
                if (mesh === undefined) return;
                this.#graphics.scene.remove(mesh);
                this.meshes.delete(eid);
                const i = this.#list.indexOf(mesh);
                this.#eids[i] = this.#eids[this.#eids.length - 1];
                this.#list[i] = this.#list[this.#list.length - 1];
                this.#eids.pop();
                this.#list.pop();
            }),
        );
    }

    async shutdown(): Promise<void> {
        for (const unsubscribe of this.#unsubscribe) unsubscribe();
        this.#unsubscribe = [];
        for (const mesh of this.meshes.values()) this.#graphics.scene.remove(mesh);
        this.meshes.clear();
        this.#eids.length = 0;
        this.#list.length = 0;
    }

    update(): void {
        const position = Transform.position;
        const rotation = Transform.rotation;
        const eids = this.#eids;
        const list = this.#list;
        for (let k = 0; k < list.length; k++) {
            const eid = eids[k];
            const mesh = list[k];
            mesh.position[0] = position[eid * 3];
            mesh.position[1] = position[eid * 3 + 1];
            mesh.position[2] = position[eid * 3 + 2];
            mesh.rotation[0] = rotation[eid * 4];
            mesh.rotation[1] = rotation[eid * 4 + 1];
            mesh.rotation[2] = rotation[eid * 4 + 2];
            mesh.rotation[3] = rotation[eid * 4 + 3];
        }
    }
}
