import { WorldTransform } from "../../engine/components/WorldTransform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { PerEntity } from "../../engine/PerEntity.js";
import { System } from "../../engine/System.js";
import { AssetCache } from "../../engine/assets/AssetCache.js";
import { AssetError } from "../../engine/assets/AssetError.js";
import { BakedSkin, check_bake_rate } from "../../engine/animation/BakedSkin.js";
import type { AssetReader } from "../../engine/assets/AssetReader.js";
import type { ImageDecoder } from "../../engine/assets/ImageDecoder.js";
import type { Model } from "../../engine/assets/Model.js";
import { MeshSkin } from "../../shade/renderer/scene/MeshSkin.js";
import { MeshRenderer } from "../scene/MeshRenderer.js";
import type { SceneSystem } from "../scene/SceneSystem.js";
import { make_standard_material } from "../../engine/assets/make_standard_material.js";
import { MATERIAL_SLOTS } from "../../shade/renderer/mesh/surface_wgsl.js";
import { instantiate_model, model_material_name, unregister_model_assets, type ModelEntities } from "./instantiate_model.js";
import { ModelInstance } from "./ModelInstance.js";
import { ModelInstanceDescriptor } from "./ModelInstanceDescriptor.js";
import { SkinBinding } from "./SkinBinding.js";
import type { DetailLevelTarget } from "../../shade/renderer/geometry/simplify_detail_levels.js";

export interface ModelSystemOptions {
    /** What level `src`s are relative to (`"/assets/"`, a file URL); default: as written. */
    readonly base_url?: string;
    /** The cache models load through; default one on the graphics engine's device, made when first needed. */
    readonly cache?: AssetCache;
    /** For the default cache: where bytes come from, and the image decoder. */
    readonly reader?: AssetReader;
    readonly decoder?: ImageDecoder;
    /** For the default cache: coarser levels of detail made for every model's mesh primitives (`AssetCacheOptions.detail_levels`). */
    readonly detail_levels?: readonly DetailLevelTarget[];
    /**
     * Told of a model that failed to load (an `AssetError` naming the file and the glTF path) and the entity that
     * wanted it; default: `console.error`. The entity stays, without the model; `ready(eid)` rejects with the error.
     */
    readonly on_error?: (error: AssetError, eid: number) => void;
    /** Frames a second a model's clips are baked at for instances without joint entities (`ModelInstance.joints` 0); default 30. */
    readonly bake_rate?: number;
}

/** A skin of an instance made without joint entities, and the clips baked for it (what an `Animator` plays into it). */
export interface BakedSkinBinding {
    readonly skin: MeshSkin;
    readonly bake: BakedSkin;
}

/** A model instantiated under an entity, and the entities made of it. */
export interface InstantiatedModel {
    readonly model: Model;
    readonly entities: ModelEntities;
    /** Its skins, when made without joint entities (`ModelInstance.joints` 0); empty otherwise. */
    readonly baked: readonly BakedSkinBinding[];
}

/** One entity's model: what it loads, and once loaded, what was made of it. */
interface Instance {
    readonly url: string;
    readonly promise: Promise<Model>;
    model: Model | null;
    made: ModelEntities | null;
    /** The generation of each entity made (`EntityManager.generation`): a recycled id is not the model's. */
    generations: Uint32Array | null;
    readonly skins: SkinBinding[];
    readonly baked: BakedSkinBinding[];
    /** What `instance_of` answers once instantiated (made once: asking allocates nothing). */
    view: InstantiatedModel | null;
    /** Gone (removed, or the component replaced): a load finishing later releases at once. */
    cancelled: boolean;
}

/**
 * Puts glTF models into the world: an entity with `ModelInstance` (`"Model": { "src": ... }` in a level) gets
 * the model loaded (once per URL, through an `AssetCache`) and one child entity per glTF node (`Transform`,
 * `Parent`, `Name`, a `MeshRenderer` per primitive drawn by the `SceneSystem`). Removing the entity or its
 * `ModelInstance` removes those entities and releases the model; the last release frees its GPU objects and its
 * geometries and materials in the scene's assets.
 *
 * Skinned primitives get a `MeshSkin` each (`MeshRenderer.skin`), filled once per rendered frame from their joint
 * entities' world matrices (only when one of them moved), so that moving the joint entities (an `Animator` does)
 * moves the skin, skinned on the GPU. An instance made without joint entities (`ModelInstance.joints` 0) gets
 * skins in its mesh's space instead, at the rest pose, picking from its model's clips baked for them
 * (`instance_of(eid).baked`; the GPU blends the frames picked): its `Animator` plays those.
 */
export class ModelSystem extends System {
    readonly name = "ModelSystem";
    readonly base_url: string;
    readonly #graphics: GraphicsEngine;
    readonly #scene: SceneSystem;
    readonly #options: ModelSystemOptions;
    #cache: AssetCache | null;
    #entities: EntityManager | null = null;
    #unsubscribe: (() => void)[] = [];
    readonly #instances = new Map<number, Instance>();
    /** Instances per URL that made scene assets: the last one gone unregisters them. */
    readonly #users = new Map<string, number>();
    /** Every skin of every instance, flat: what `before_render` walks. */
    readonly #skins: SkinBinding[] = [];
    readonly #state = PerEntity.define({ instance: PerEntity.value<Instance | null>(null) });

    constructor(graphics: GraphicsEngine, scene: SceneSystem, options: ModelSystemOptions = {}) {
        super();
        this.#graphics = graphics;
        this.#scene = scene;
        this.#options = options;
        this.base_url = options.base_url ?? "";
        if (options.bake_rate !== undefined) check_bake_rate(options.bake_rate, `${this.name} bake_rate`);
        this.#cache = options.cache ?? null;
    }

    /** The cache models load through (null until the first load made the default one). */
    get cache(): AssetCache | null {
        return this.#cache;
    }

    /** Resolves with `eid`'s model once it is instantiated; rejects with its `AssetError`. */
    ready(eid: number): Promise<Model> {
        const instance = this.#instances.get(eid);
        if (instance === undefined) return Promise.reject(new Error(`${this.name}.ready: entity ${eid} has no ModelInstance`));
        return instance.promise;
    }

    /** Resolves once every model asked for so far has loaded (or failed: then with the first failure's error). */
    async all_ready(): Promise<void> {
        await Promise.all([...this.#instances.values()].map((instance) => instance.promise));
    }

    /** `eid`'s instantiated model and its entities, or null (not loaded yet, failed, or no `ModelInstance`). */
    instance_of(eid: number): InstantiatedModel | null {
        const instance = this.#state.instance[eid];
        return instance === null || instance === undefined ? null : instance.view;
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#entities !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(ModelInstanceDescriptor);
        this.#entities = entityManager;
        this.#unsubscribe.push(
            entityManager.on_add(ModelInstance, (eid) => this.#start(eid)),
            entityManager.on_remove(ModelInstance, (eid) => this.#stop(eid)),
        );
        for (const eid of entityManager.register_query([ModelInstance]).entities) this.#start(eid);
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#entities === null) return;
        for (const unsubscribe of this.#unsubscribe) unsubscribe();
        this.#unsubscribe = [];
        for (const eid of [...this.#instances.keys()]) this.#stop(eid);
        this.#entities = null;
    }

    override before_render(): void {
        const device = this.#graphics.device;
        if (this.#cache !== null && device !== null && device !== this.#cache.device) this.#move_to(device);
        const skins = this.#skins;
        const matrix = WorldTransform.matrix;
        const version = WorldTransform.version;
        for (let i = 0; i < skins.length; i++) skins[i].update(matrix, version);
    }

    #start(eid: number): void {
        if (this.#instances.has(eid)) this.#stop(eid);
        const url = this.base_url + ModelInstance.src[eid];
        const load = this.#load(url);
        const instance: Instance = { url, promise: null as unknown as Promise<Model>, model: null, made: null, generations: null, skins: [], baked: [], view: null, cancelled: false };
        (instance as { promise: Promise<Model> }).promise = load.then(
            (model) => this.#instantiate(eid, instance, model),
            (error: unknown) => {
                const failure = error instanceof AssetError ? error : new AssetError(url, "", error instanceof Error ? error.message : String(error), { cause: error });
                if (!instance.cancelled) {
                    const report = this.#options.on_error ?? ((e: AssetError, id: number) => console.error(`${this.name}: entity ${id}'s model did not load: ${e.message}`));
                    report(failure, eid);
                }
                throw failure;
            },
        );
        // the failure is reported above and kept for ready(): not an unhandled rejection
        instance.promise.catch(() => {});
        this.#instances.set(eid, instance);
        this.#state.instance[eid] = instance;
    }

    async #load(url: string): Promise<Model> {
        if (this.#cache === null) {
            if (this.#graphics.device === null) await this.#graphics.ready();
            const device = this.#graphics.device;
            if (device === null) throw new AssetError(url, "", `${this.name}: the graphics engine has no device to load models onto (start it first)`);
            this.#cache ??= new AssetCache({ device, reader: this.#options.reader, decoder: this.#options.decoder, detail_levels: this.#options.detail_levels });
        }
        return this.#cache.load(url);
    }

    #instantiate(eid: number, instance: Instance, model: Model): Model {
        const entities = this.#entities;
        if (instance.cancelled || entities === null || !entities.has_entity(eid)) {
            this.#release(instance.url, model);
            return model;
        }
        try {
            instance.made = instantiate_model(entities, this.#scene.assets, model, eid, { joints: ModelInstance.joints[eid] !== 0 });
        } catch (error) {
            this.#release(instance.url, model);
            throw error instanceof AssetError ? error : new AssetError(instance.url, "", `could not be instantiated under ${entities.describe(eid)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        instance.model = model;
        instance.view = { model, entities: instance.made, baked: instance.baked };
        instance.generations = Uint32Array.from(instance.made.entities, (e) => entities.generation(e));
        this.#users.set(instance.url, (this.#users.get(instance.url) ?? 0) + 1);
        for (const primitive of instance.made.primitives) {
            const node = model.nodes[primitive.node];
            if (node.skin < 0) continue;
            const skin = model.skins[node.skin];
            if (ModelInstance.joints[eid] === 0) {
                const bake = BakedSkin.of(model, node.skin, primitive.node, this.#options.bake_rate);
                const mesh_skin = new MeshSkin(skin.joints.length, `${entities.describe(primitive.entity)} skin (baked)`, "mesh", bake.table);
                mesh_skin.matrices.set(bake.rest);
                MeshRenderer.skin[primitive.entity] = mesh_skin;
                instance.baked.push({ skin: mesh_skin, bake });
                continue;
            }
            const joints = skin.joints.map((j) => instance.made!.nodes[j]);
            const mesh_skin = new MeshSkin(skin.joints.length, `${entities.describe(primitive.entity)} skin`);
            MeshRenderer.skin[primitive.entity] = mesh_skin;
            const binding = new SkinBinding(mesh_skin, Int32Array.from(joints), skin.inverse_bind_matrices);
            instance.skins.push(binding);
            this.#skins.push(binding);
        }
        return model;
    }

    #stop(eid: number): void {
        const instance = this.#instances.get(eid);
        if (instance === undefined) return;
        this.#instances.delete(eid);
        this.#state.instance[eid] = null;
        instance.cancelled = true;
        if (instance.model === null) return; // still loading (released when it lands) or failed
        for (const binding of instance.skins) {
            const at = this.#skins.indexOf(binding);
            if (at >= 0) {
                this.#skins[at] = this.#skins[this.#skins.length - 1];
                this.#skins.pop();
            }
        }
        const entities = this.#entities!;
        const made = instance.made!.entities;
        const generations = instance.generations!;
        // children before parents; an entity the root's removal took already is gone (and its id may be another's)
        for (let i = made.length - 1; i >= 0; i--) if (entities.is_current(made[i], generations[i])) entities.remove_entity(made[i]);
        const users = (this.#users.get(instance.url) ?? 1) - 1;
        if (users === 0) {
            this.#users.delete(instance.url);
            unregister_model_assets(this.#scene.assets, instance.model);
        } else this.#users.set(instance.url, users);
        this.#release(instance.url, instance.model);
    }

    // A new device (a renderer restart, a lost device recovered): the models' textures died with the old one.
    // Geometries are CPU data the renderer uploads again by itself; textures are loaded again onto the new device
    // (a reference per instance, as before) and put into every texture slot of the same materials, untextured until then.
    #move_to(device: GPUDevice): void {
        const old = this.#cache!;
        const cache = new AssetCache({ device, reader: this.#options.reader, decoder: this.#options.decoder, detail_levels: this.#options.detail_levels });
        this.#cache = cache;
        const assets = this.#scene.assets;
        for (const [url, users] of this.#users) {
            const instance = [...this.#instances.values()].find((i) => i.url === url && i.model !== null)!;
            const materials = instance.model!.materials.map((_, i) => assets.material(model_material_name(instance.model!, i)));
            for (const material of materials) if (material !== undefined) for (const slot of MATERIAL_SLOTS) material[slot] = null;
            for (let r = 1; r < users; r++) void cache.load(url).catch(() => {});
            cache.load(url).then(
                (model) => {
                    if (this.#cache !== cache) return;
                    for (let i = 0; i < materials.length; i++) {
                        const material = materials[i];
                        if (material === undefined) continue;
                        const loaded = make_standard_material(model.materials[i], material.label, model.textures);
                        for (const slot of MATERIAL_SLOTS) material[slot] = loaded[slot];
                    }
                },
                (error: unknown) => {
                    const failure = error instanceof AssetError ? error : new AssetError(url, "", String(error));
                    (this.#options.on_error ?? ((e: AssetError) => console.error(`${this.name}: ${e.message}`)))(failure, -1);
                },
            );
        }
        void old;
    }

    #release(url: string, model: Model): void {
        void model;
        // a load that landed after a move to a new device took its reference on the old cache, gone with it
        if (this.#cache !== null && this.#cache.references(url) > 0) this.#cache.release(url);
    }
}
