import { Name } from "../../engine/components/Name.js";
import { Transform } from "../../engine/components/Transform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import { make_standard_material } from "../../engine/assets/make_standard_material.js";
import type { Model } from "../../engine/assets/Model.js";
import type { SceneAssets } from "../scene/SceneAssets.js";
import { MeshRenderer, write_mesh_renderer } from "../scene/MeshRenderer.js";

/** A `MeshRenderer` entity `instantiate_model` made for a primitive: which node's mesh, which primitive. */
export interface ModelPrimitiveEntity {
    readonly entity: number;
    readonly node: number;
    readonly primitive: number;
}

/** What `instantiate_model` made: the entity of every glTF node (by node index) and every entity it created. */
export interface ModelEntities {
    /** `nodes[n]`: the entity of glTF node `n` (-1 for a node outside the scene). */
    readonly nodes: readonly number[];
    /** Every entity made, nodes and per-primitive children, parents before children. */
    readonly entities: readonly number[];
    /** The `MeshRenderer` entities, one per primitive of every node with a mesh. */
    readonly primitives: readonly ModelPrimitiveEntity[];
}

/** The `SceneAssets` geometry name of a model's primitive (registered by `instantiate_model`). */
export function model_geometry_name(model: Model, mesh: number, primitive: number): string {
    return `${model.url}#mesh${mesh}/${primitive}`;
}

/** The `SceneAssets` material name of a model's material (-1: glTF's default material). */
export function model_material_name(model: Model, material: number): string {
    return material < 0 ? "default" : `${model.url}#material${material}`;
}

/**
 * Makes one entity per node of `model` under `root` (which needs a `Transform`): `Transform` (the node's local
 * TRS), `Parent` (its parent node's entity; `root` for the scene's roots), `Name` (the node's name) and, for a
 * node with a mesh, a `MeshRenderer` per primitive: on the node's own entity when the mesh has one primitive,
 * else on one child entity per primitive (named `<node>/<p>`). The model's geometries and materials are
 * registered in `assets` under `model_geometry_name` / `model_material_name` (once per model URL, until
 * `unregister_model_assets`); materials come from `make_standard_material`. Nothing is left half-made by a throw.
 *
 * With `joints: false` the skins' joints are not made (`nodes[j]` is -1): a node that hangs from a joint without
 * being one, or a joint with a mesh, is an error naming it (nothing could move it with its joint).
 */
export function instantiate_model(entities: EntityManager, assets: SceneAssets, model: Model, root: number, options: { readonly joints?: boolean } = {}): ModelEntities {
    const joints = new Set<number>();
    if (options.joints === false) for (const skin of model.skins) for (const j of skin.joints) joints.add(j);
    for (const j of joints) {
        const node = model.nodes[j];
        const label = (n: number): string => `'${model.nodes[n].name === "" ? `node ${n}` : model.nodes[n].name}'`;
        if (node.mesh >= 0) throw new Error(`joint ${label(j)} carries a mesh: with joints: false the joints are not made, so it could not be drawn`);
        for (const c of node.children) {
            if (!joints.has(c)) throw new Error(`node ${label(c)} hangs from joint ${label(j)}: with joints: false the joints are not made, so nothing can hang from one (instantiate with joints)`);
        }
    }
    register_model_assets(assets, model);
    const nodes: number[] = new Array<number>(model.nodes.length).fill(-1);
    const made: number[] = [];
    const primitive_entities: ModelPrimitiveEntity[] = [];
    try {
        // parents first: walk the scene's forest from its roots (glTF does not order nodes)
        const stack = [...model.scene_roots].reverse();
        while (stack.length > 0) {
            const n = stack.pop()!;
            const node = model.nodes[n];
            // a joint left out, and its subtree: joints only (checked above)
            if (joints.has(n)) continue;
            const eid = entities.create_entity();
            made.push(eid);
            nodes[n] = eid;
            entities.add_component(eid, Transform);
            entities.add_component(eid, Name, (e) => (Name.value[e] = node.name === "" ? `node ${n}` : node.name));
            entities.set_parent(eid, node.parent < 0 ? root : nodes[node.parent]);
            entities.set_position(eid, node.translation[0], node.translation[1], node.translation[2]);
            entities.set_rotation(eid, node.rotation[0], node.rotation[1], node.rotation[2], node.rotation[3]);
            entities.set_scale(eid, node.scale[0], node.scale[1], node.scale[2]);
            if (node.mesh >= 0) {
                const primitives = model.meshes[node.mesh].primitives;
                for (let p = 0; p < primitives.length; p++) {
                    let target = eid;
                    if (primitives.length > 1) {
                        target = entities.create_entity();
                        made.push(target);
                        entities.add_component(target, Transform);
                        entities.add_component(target, Name, (e) => (Name.value[e] = `${Name.value[eid]}/${p}`));
                        entities.set_parent(target, eid);
                    }
                    const spec = { geometry: model_geometry_name(model, node.mesh, p), material: model_material_name(model, primitives[p].material) };
                    entities.add_component(target, MeshRenderer, (e) => write_mesh_renderer(e, spec));
                    primitive_entities.push({ entity: target, node: n, primitive: p });
                }
            }
            for (let c = node.children.length - 1; c >= 0; c--) stack.push(node.children[c]);
        }
    } catch (error) {
        // nothing half-made survives: take back what was made (children before parents)
        for (let i = made.length - 1; i >= 0; i--) if (entities.has_entity(made[i])) entities.remove_entity(made[i]);
        throw error;
    }
    return { nodes, entities: made, primitives: primitive_entities };
}

/** Forgets what `instantiate_model` registered for `model` in `assets` (when its last instance goes). */
export function unregister_model_assets(assets: SceneAssets, model: Model): void {
    for (let m = 0; m < model.meshes.length; m++) {
        for (let p = 0; p < model.meshes[m].primitives.length; p++) assets.unregister_geometry(model_geometry_name(model, m, p));
    }
    for (let i = 0; i < model.materials.length; i++) assets.unregister_material(model_material_name(model, i));
}

function register_model_assets(assets: SceneAssets, model: Model): void {
    for (let m = 0; m < model.meshes.length; m++) {
        const primitives = model.meshes[m].primitives;
        for (let p = 0; p < primitives.length; p++) {
            const name = model_geometry_name(model, m, p);
            if (assets.geometry(name) === undefined) assets.register_geometry(name, primitives[p].geometry);
        }
    }
    for (let i = 0; i < model.materials.length; i++) {
        const name = model_material_name(model, i);
        if (assets.material(name) === undefined) assets.register_material(name, make_standard_material(model.materials[i], name, model.textures));
    }
}
