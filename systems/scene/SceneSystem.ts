import { Transform } from "../../engine/components/Transform.js";
import { WorldTransform } from "../../engine/components/WorldTransform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { PerEntity } from "../../engine/PerEntity.js";
import { System } from "../../engine/System.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { PointLight as ScenePointLight } from "../../shade/renderer/scene/PointLight.js";
import { MAX_POINT_LIGHTS } from "../../shade/renderer/scene/Scene.js";
import { CanvasRenderTarget } from "../../shade/renderer/target/CanvasRenderTarget.js";
import { Camera } from "./Camera.js";
import { CameraDescriptor } from "./CameraDescriptor.js";
import { copy_camera, copy_light, copy_mesh_fields, copy_sun } from "./copy_scene_state.js";
import { DirectionalLight } from "./DirectionalLight.js";
import { DirectionalLightDescriptor } from "./DirectionalLightDescriptor.js";
import { MeshRenderer } from "./MeshRenderer.js";
import { MeshRendererDescriptor } from "./MeshRendererDescriptor.js";
import { PointLight } from "./PointLight.js";
import { PointLightDescriptor } from "./PointLightDescriptor.js";
import { add_scene_limits } from "./scene_limits.js";
import { SceneAssets } from "./SceneAssets.js";
import { ScenePickExtension, type PickResult, type ScenePickSource } from "./ScenePickExtension.js";

export interface SceneSystemOptions {
    /** The geometries and materials `MeshRenderer` names; default a new `SceneAssets` (the built-ins). */
    readonly assets?: SceneAssets;
}

const MESH_TERMS = [Transform, MeshRenderer];
const CAMERA_TERMS = [Transform, Camera];
const SUN_TERMS = [Transform, DirectionalLight];
const LIGHT_TERMS = [Transform, PointLight];

/**
 * The things themselves: keeps the graphics engine's `Scene` and view in step with the world's `MeshRenderer`,
 * `Camera`, `DirectionalLight` and `PointLight` entities.
 *
 * - Membership through observers: adding the component (or an entity with it) adds its mesh or light to the
 *   scene at once, removing it removes it at once, so the change shows in the frame being built. Entities that
 *   existed before the system started up (or started up again) are picked up at startup.
 * - State once per rendered frame (`before_render`, after every system's update): a mesh's world matrix is
 *   copied only when its `WorldTransform.version` changed; colour, visibility, shadow and decal flags, the
 *   lights' values and the active camera are copied every frame. Allocates nothing once warm.
 * - The active camera is the most recently activated `Camera` with `active` (added, or `set_active_camera`);
 *   it drives `graphics.view.camera`. The sun is the most recently added `DirectionalLight`; with none, the sun is off.
 * - `pick(x, y)` answers the entity and the world position under an output (CSS) pixel.
 */
export class SceneSystem extends System implements ScenePickSource {
    readonly name = "SceneSystem";
    readonly assets: SceneAssets;

    readonly #graphics: GraphicsEngine;
    #entity_manager: EntityManager | null = null;
    #extension: ScenePickExtension | null = null;
    #meshes_query: EntityQuery | null = null;
    #cameras: EntityQuery | null = null;
    #suns: EntityQuery | null = null;
    #lights: EntityQuery | null = null;
    #unsubscribe: (() => void)[] = [];
    #order = 0;
    #active_camera = -1;
    #sun = -1;
    #drives_sun = false;
    readonly #entity_of_object = new Map<number, number>();
    readonly #per_entity = PerEntity.define({
        mesh: PerEntity.value<Mesh | null>(null),
        geometry: PerEntity.value<string>(""),
        material: PerEntity.value<string>(""),
        /** The `WorldTransform.version` last copied into the mesh (or light). */
        seen: PerEntity.u32(),
        light: PerEntity.value<ScenePointLight | null>(null),
        /** When the entity's camera was activated, or its sun added (larger: more recent). */
        camera_order: PerEntity.u32(),
        sun_order: PerEntity.u32(),
    });

    constructor(graphics: GraphicsEngine, options: SceneSystemOptions = {}) {
        super();
        this.#graphics = graphics;
        this.assets = options.assets ?? new SceneAssets();
    }

    /** The pick extension while started up, else null. */
    get extension(): ScenePickExtension | null {
        return this.#extension;
    }

    /** The entity whose camera drives the view, or null. */
    get active_camera(): number | null {
        return this.#active_camera < 0 ? null : this.#active_camera;
    }

    /** The entity whose `DirectionalLight` drives the sun, or null. */
    get sun(): number | null {
        return this.#sun < 0 ? null : this.#sun;
    }

    /** Makes `eid`'s camera the active one (sets its `active`), from this frame. */
    set_active_camera(eid: number): void {
        const entities = this.#started("set_active_camera");
        if (!entities.has_component(eid, Camera)) throw new Error(`${this.name}.set_active_camera: ${entities.describe(eid)} has no Camera`);
        Camera.active[eid] = 1;
        this.#per_entity.camera_order[eid] = ++this.#order;
        this.#active_camera = eid;
    }

    /** The mesh standing for `eid`'s `MeshRenderer`, or null (for highlight and tools; do not add it elsewhere). */
    mesh_of(eid: number): Mesh | null {
        if (this.#entity_manager === null || !this.#entity_manager.has_component(eid, MeshRenderer)) return null;
        return this.#per_entity.mesh[eid] ?? null;
    }

    /** @internal the entity of a G-buffer object id (O(1)) */
    entity_of_object(object_id: number): number | null {
        return this.#entity_of_object.get(object_id) ?? null;
    }

    /** @internal */
    css_size(output_width: number, output_height: number, into: Float64Array): void {
        const target = this.#graphics.target;
        if (target instanceof CanvasRenderTarget && typeof HTMLCanvasElement !== "undefined" && target.canvas instanceof HTMLCanvasElement && target.canvas.clientWidth > 0) {
            into[0] = target.canvas.clientWidth;
            into[1] = target.canvas.clientHeight;
        } else {
            into[0] = output_width;
            into[1] = output_height;
        }
    }

    /**
     * What is under point (x, y) of the output, in CSS pixels from its top-left corner (a pointer event's
     * `offsetX`/`offsetY` on the canvas; an offscreen target's pixels): the `MeshRenderer` entity there (null
     * for the sky, the terrain and meshes no entity owns) and the world position of the surface (null on the
     * sky). Read from the next frame rendered; resolves when the GPU has finished it.
     */
    pick(x: number, y: number): Promise<PickResult> {
        if (this.#extension === null) return Promise.reject(new Error(`${this.name}.pick: start the system up first (engine.add_system)`));
        return this.#extension.pick(x, y);
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#entity_manager !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        const components = entityManager.components;
        components.register(MeshRendererDescriptor);
        components.register(CameraDescriptor);
        components.register(DirectionalLightDescriptor);
        components.register(PointLightDescriptor);
        this.#entity_manager = entityManager;
        this.#unsubscribe.push(
            ...add_scene_limits(components, this.name, this.assets, this.#graphics.scene),
            entityManager.on_add(MeshRenderer, (eid) => this.#add_mesh(eid)),
            entityManager.on_remove(MeshRenderer, (eid) => this.#remove_mesh(eid)),
            entityManager.on_add(PointLight, (eid) => this.#add_light(eid)),
            entityManager.on_remove(PointLight, (eid) => this.#remove_light(eid)),
            entityManager.on_add(Camera, (eid) => this.#add_camera(eid)),
            entityManager.on_remove(Camera, (eid) => this.#remove_camera(eid)),
            entityManager.on_add(DirectionalLight, (eid) => this.#add_sun(eid)),
            entityManager.on_remove(DirectionalLight, (eid) => this.#remove_sun(eid)),
        );
        this.#meshes_query = entityManager.register_query(MESH_TERMS);
        this.#cameras = entityManager.register_query(CAMERA_TERMS);
        this.#suns = entityManager.register_query(SUN_TERMS);
        this.#lights = entityManager.register_query(LIGHT_TERMS);
        // what the world already holds
        for (const eid of this.#meshes_query.entities) this.#add_mesh(eid);
        for (const eid of this.#lights.entities) this.#add_light(eid);
        for (const eid of this.#cameras.entities) this.#add_camera(eid);
        for (const eid of this.#suns.entities) this.#add_sun(eid);
        this.#extension = this.#graphics.add_extension(new ScenePickExtension(this));
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#entity_manager === null) return;
        for (const unsubscribe of this.#unsubscribe) unsubscribe();
        this.#unsubscribe = [];
        for (const eid of this.#meshes_query!.entities) this.#remove_mesh(eid);
        for (const eid of this.#lights!.entities) this.#remove_light(eid);
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        this.#entity_of_object.clear();
        this.#active_camera = -1;
        this.#sun = -1;
        this.#meshes_query = this.#cameras = this.#suns = this.#lights = null;
        this.#entity_manager = null;
    }

    override before_render(): void {
        if (this.#entity_manager === null) return;
        this.#sync_meshes();
        this.#sync_lights();
        this.#sync_sun();
        this.#sync_camera();
    }

    #started(method: string): EntityManager {
        if (this.#entity_manager === null) throw new Error(`${this.name}.${method}: start the system up first (engine.add_system)`);
        return this.#entity_manager;
    }

    #add_mesh(eid: number): void {
        const state = this.#per_entity;
        if (state.mesh[eid] !== null && state.mesh[eid] !== undefined) return;
        const geometry = this.#geometry(eid);
        const material = this.#material(eid);
        const mesh = new Mesh(geometry, material);
        mesh.set_world_matrix(WorldTransform.matrix, eid * 16);
        copy_mesh_fields(mesh, eid);
        this.#graphics.scene.add(mesh);
        state.mesh[eid] = mesh;
        state.geometry[eid] = MeshRenderer.geometry[eid];
        state.material[eid] = MeshRenderer.material[eid];
        state.seen[eid] = WorldTransform.version[eid];
        this.#entity_of_object.set(mesh.object_id, eid);
    }

    #remove_mesh(eid: number): void {
        const state = this.#per_entity;
        const mesh = state.mesh[eid];
        if (mesh === null || mesh === undefined) return;
        this.#entity_of_object.delete(mesh.object_id);
        this.#graphics.scene.remove(mesh);
        state.mesh[eid] = null;
    }

    #geometry(eid: number): Mesh["geometry"] {
        const name = MeshRenderer.geometry[eid];
        const geometry = this.assets.geometry(name);
        if (geometry === undefined) {
            throw new Error(`${this.name}: ${this.#entity_manager!.describe(eid)}'s MeshRenderer names geometry '${name}', which is not registered (known: ${this.assets.geometry_names().join(", ")}); register it with assets.register_geometry`);
        }
        return geometry;
    }

    #material(eid: number): Mesh["material"] {
        const name = MeshRenderer.material[eid];
        const material = this.assets.material(name);
        if (material === undefined) {
            throw new Error(`${this.name}: ${this.#entity_manager!.describe(eid)}'s MeshRenderer names material '${name}', which is not registered (known: ${this.assets.material_names().join(", ")}); register it with assets.register_material`);
        }
        return material;
    }

    #sync_meshes(): void {
        const list = this.#meshes_query!.entities;
        const state = this.#per_entity;
        const meshes = state.mesh;
        const seen = state.seen;
        const version = WorldTransform.version;
        const matrix = WorldTransform.matrix;
        const geometry = MeshRenderer.geometry;
        const material = MeshRenderer.material;
        for (let k = 0; k < list.length; k++) {
            const eid = list[k];
            const mesh = meshes[eid]!;
            if (geometry[eid] !== state.geometry[eid] || material[eid] !== state.material[eid]) {
                mesh.geometry = this.#geometry(eid);
                mesh.material = this.#material(eid);
                state.geometry[eid] = geometry[eid];
                state.material[eid] = material[eid];
                this.#graphics.scene.mark_changed();
            }
            if (seen[eid] !== version[eid]) {
                mesh.set_world_matrix(matrix, eid * 16);
                seen[eid] = version[eid];
            }
            copy_mesh_fields(mesh, eid);
        }
    }

    #add_light(eid: number): void {
        const state = this.#per_entity;
        if (state.light[eid] !== null && state.light[eid] !== undefined) return;
        const scene = this.#graphics.scene;
        if (scene.point_light_count >= MAX_POINT_LIGHTS) {
            throw new RangeError(`${this.name}: ${this.#entity_manager!.describe(eid)}'s PointLight would be point light ${MAX_POINT_LIGHTS + 1}; at most ${MAX_POINT_LIGHTS} are shaded per frame`);
        }
        const light = new ScenePointLight();
        copy_light(light, eid);
        scene.add_point_light(light);
        state.light[eid] = light;
    }

    #remove_light(eid: number): void {
        const state = this.#per_entity;
        const light = state.light[eid];
        if (light === null || light === undefined) return;
        this.#graphics.scene.remove_point_light(light);
        state.light[eid] = null;
    }

    #sync_lights(): void {
        const list = this.#lights!.entities;
        const lights = this.#per_entity.light;
        for (let k = 0; k < list.length; k++) copy_light(lights[list[k]]!, list[k]);
    }

    #add_camera(eid: number): void {
        if (Camera.active[eid] !== 1) return;
        this.#per_entity.camera_order[eid] = ++this.#order;
        this.#active_camera = eid;
    }

    #remove_camera(eid: number): void {
        this.#per_entity.camera_order[eid] = 0;
        if (this.#active_camera === eid) this.#active_camera = this.#latest(this.#cameras!, this.#per_entity.camera_order, eid, true);
    }

    #add_sun(eid: number): void {
        this.#per_entity.sun_order[eid] = ++this.#order;
        this.#sun = eid;
        this.#drives_sun = true;
    }

    #remove_sun(eid: number): void {
        this.#per_entity.sun_order[eid] = 0;
        if (this.#sun !== eid) return;
        this.#sun = this.#latest(this.#suns!, this.#per_entity.sun_order, eid, false);
        // no sun left: its light goes with it, this frame
        if (this.#sun < 0) this.#graphics.scene.sun.intensity = 0;
        else this.#sync_sun();
    }

    // the entity of `query` (other than `leaving`) with the largest order, -1 for none
    #latest(query: EntityQuery, order: Uint32Array, leaving: number, active_only: boolean): number {
        let best = -1;
        let best_order = 0;
        const list = query.entities;
        for (let k = 0; k < list.length; k++) {
            const eid = list[k];
            if (eid === leaving || (active_only && Camera.active[eid] !== 1)) continue;
            if (order[eid] >= best_order) {
                best = eid;
                best_order = order[eid];
            }
        }
        return best;
    }

    #sync_sun(): void {
        if (!this.#drives_sun) return;
        const sun = this.#graphics.scene.sun;
        const eid = this.#sun;
        if (eid < 0) {
            sun.intensity = 0;
            return;
        }
        copy_sun(sun, eid);
    }

    #sync_camera(): void {
        let eid = this.#active_camera;
        // an active flag cleared in place hands the view to the latest camera still active
        if (eid >= 0 && Camera.active[eid] !== 1) eid = this.#active_camera = this.#latest(this.#cameras!, this.#per_entity.camera_order, eid, true);
        if (eid < 0) return;
        copy_camera(this.#graphics.view.camera, eid);
    }
}
