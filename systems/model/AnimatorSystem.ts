import { Transform } from "../../engine/components/Transform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import { PerEntity } from "../../engine/PerEntity.js";
import { System } from "../../engine/System.js";
import { AnimationPlayer } from "../../engine/animation/AnimationPlayer.js";
import type { Model } from "../../engine/assets/Model.js";
import { Animator } from "./Animator.js";
import { AnimatorDescriptor } from "./AnimatorDescriptor.js";
import { ModelInstance } from "./ModelInstance.js";
import type { ModelSystem } from "./ModelSystem.js";

const TERMS = [Animator, ModelInstance];

/** The nodes a model's clips animate (what a pose is written to), found once per model. */
const animated_nodes = new WeakMap<Model, Int32Array>();

function animated_nodes_of(model: Model): Int32Array {
    let nodes = animated_nodes.get(model);
    if (nodes === undefined) {
        const set = new Set<number>();
        for (const clip of model.animations) for (const channel of clip.channels) if (channel.path !== "weights") set.add(channel.node);
        nodes = Int32Array.from([...set].sort((a, b) => a - b));
        animated_nodes.set(model, nodes);
    }
    return nodes;
}

/**
 * Runs `Animator`s: once the entity's model is instantiated (by the `ModelSystem` given), an `AnimationPlayer` per
 * entity plays `Animator.clip` (a change cross-fades over `Animator.fade`), and every update writes the pose into
 * the `Transform`s of the node entities the clips animate. The engine's transform hierarchy and the `ModelSystem`'s
 * skins carry it to the GPU the same frame. A model instanced without joint entities (`ModelInstance.joints` 0)
 * has its clips baked: the update picks baked frames and weights for its skins (the GPU blends them), and its other
 * nodes keep their rest pose. A clip name the model lacks is an error naming the clips it has, once
 * per change of name. Allocates nothing once warm.
 */
export class AnimatorSystem extends System {
    readonly name = "AnimatorSystem";
    // writes the joints' local transforms, reads no world matrix: composed with the moves before it in one walk
    override readonly reads_world_transforms = false;
    readonly #models: ModelSystem;
    #entities: EntityManager | null = null;
    #query: EntityQuery | null = null;
    #unsubscribe: (() => void)[] = [];
    readonly #state = PerEntity.define({
        player: PerEntity.value<AnimationPlayer | null>(null),
        /** The model the player was made for (a new instance needs a new player). */
        model: PerEntity.value<Model | null>(null),
        /** The clip name the player was last told (Animator.clip is compared with it). */
        playing: PerEntity.value<string>(""),
    });

    constructor(models: ModelSystem) {
        super();
        this.#models = models;
    }

    /** `eid`'s player (null until its model is instantiated): for cross-fades and seeks beyond the component's fields. */
    player_of(eid: number): AnimationPlayer | null {
        return this.#state.player[eid] ?? null;
    }

    /** Seeks `eid`'s current clip to `time` seconds (the pose follows at the next update). */
    seek(eid: number, time: number): void {
        const player = this.player_of(eid);
        if (player === null) throw new Error(`${this.name}.seek: entity ${eid}'s model is not instantiated yet (await ModelSystem.ready)`);
        player.time = time;
        Animator.time[eid] = player.time;
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#entities !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(AnimatorDescriptor);
        this.#entities = entityManager;
        this.#query = entityManager.register_query(TERMS);
        this.#unsubscribe.push(entityManager.on_remove(Animator, (eid) => this.#forget(eid)), entityManager.on_remove(ModelInstance, (eid) => this.#forget(eid)));
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#entities === null) return;
        for (const unsubscribe of this.#unsubscribe) unsubscribe();
        this.#unsubscribe = [];
        for (const eid of this.#query!.entities) this.#forget(eid);
        this.#query = null;
        this.#entities = null;
    }

    override update(dt: number): void {
        const entities = this.#entities;
        if (entities === null) return;
        const list = this.#query!.entities;
        const state = this.#state;
        for (let k = 0; k < list.length; k++) {
            const eid = list[k];
            const instance = this.#models.instance_of(eid);
            if (instance === null) continue;
            let player = state.player[eid];
            if (player === null || player === undefined || state.model[eid] !== instance.model) {
                player = new AnimationPlayer(instance.model.animations, instance.model.nodes);
                state.player[eid] = player;
                state.model[eid] = instance.model;
                state.playing[eid] = "";
            }
            const clip = Animator.clip[eid];
            if (clip !== state.playing[eid]) {
                // told once: a bad name stays told until the name changes
                state.playing[eid] = clip;
                if (clip !== "") {
                    if (player.current === null) player.play(clip);
                    else player.cross_fade(clip, Animator.fade[eid]);
                }
            }
            player.speed = Animator.speed[eid];
            player.loop = Animator.loop[eid] === 1;
            const baked = instance.baked;
            if (baked.length > 0) {
                // no joint entities: the clock moves, and the skins pick baked frames (the GPU blends them)
                player.advance(dt);
                for (let b = 0; b < baked.length; b++) {
                    baked[b].bake.pick(baked[b].skin.blend, player);
                    baked[b].skin.mark_changed();
                }
            } else {
                player.update(dt);
                write_pose(entities, player, instance.entities.nodes, animated_nodes_of(instance.model));
            }
            Animator.time[eid] = player.time;
        }
    }

    #forget(eid: number): void {
        this.#state.player[eid] = null;
        this.#state.model[eid] = null;
        this.#state.playing[eid] = "";
    }
}

function write_pose(entities: EntityManager, player: AnimationPlayer, node_entities: readonly number[], animated: Int32Array): void {
    const pose = player.pose;
    const position = Transform.position;
    const rotation = Transform.rotation;
    const scale = Transform.scale;
    for (let i = 0; i < animated.length; i++) {
        const n = animated[i];
        const e = node_entities[n];
        if (e < 0) continue;
        for (let c = 0; c < 3; c++) position[e * 3 + c] = pose.translation[n * 3 + c];
        for (let c = 0; c < 4; c++) rotation[e * 4 + c] = pose.rotation[n * 4 + c];
        for (let c = 0; c < 3; c++) scale[e * 3 + c] = pose.scale[n * 3 + c];
        entities.mark_transform_changed(e);
    }
}
