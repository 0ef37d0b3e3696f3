// Crowds: a model instanced without joint entities ("joints": false) on Dawn with the Khronos Fox. Its clips are
// baked at load (BakedSkin) and the AnimatorSystem blends baked frames into skins in the mesh's space. Checked
// against the joint-entity path, which samples channels and composes the skeleton:
// - the palette itself, at many times of every clip, against one composed here from the player's pose;
// - pictures: the rest pose, a walk, a cross-fade and a moved root draw as the joint-entity path draws them;
// - the instance is its non-joint nodes only, and moving it does not skin it again;
// - a node hanging from a joint is an error naming it, leaving nothing made.
import { mat4 } from "gl-matrix";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnimationPlayer } from "../../../engine/animation/AnimationPlayer.js";
import { BakedSkin } from "../../../engine/animation/BakedSkin.js";
import { Transform } from "../../../engine/components/Transform.js";
import { EntityManager } from "../../../engine/EntityManager.js";
import { Model } from "../../../engine/assets/Model.js";
import { Animator } from "../../../systems/model/Animator.js";
import { AnimatorSystem } from "../../../systems/model/AnimatorSystem.js";
import { instantiate_model } from "../../../systems/model/instantiate_model.js";
import { load_level_with_models } from "../../../systems/model/load_level_with_models.js";
import { ModelSystem } from "../../../systems/model/ModelSystem.js";
import { MeshRenderer } from "../../../systems/scene/MeshRenderer.js";
import { SceneAssets } from "../../../systems/scene/SceneAssets.js";
import { FOX } from "../../engine/assets/asset_files.js";
import { write_readback_png, type TextureReadback } from "../../harness/index.js";
import { look_rotation, start_scene, type SceneFixture } from "../scene/scene_fixture.js";

const SIZE = 96;

function level(model: Record<string, unknown>, animator: Record<string, unknown> | null) {
    const eye = [0, 60, 190];
    const at = [0, 45, 0];
    return {
        version: 1,
        entities: [
            { name: "camera", Transform: { position: eye, rotation: look_rotation(eye, at) }, Camera: { fov: 40, near: 1, far: 1000 } },
            { name: "sun", Transform: {}, DirectionalLight: { direction: [-0.4, -1, -0.6], intensity: 3 } },
            {
                name: "fox",
                Transform: { position: [0, 0, 0], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] },
                Model: { src: FOX, ...model },
                ...(animator === null ? {} : { Animator: animator }),
            },
        ],
    };
}

function differing_pixels(a: TextureReadback, b: TextureReadback, threshold = 8): number {
    let count = 0;
    for (let p = 0; p < a.data.length / 4; p++) {
        for (let c = 0; c < 3; c++) {
            if (Math.abs(a.data[p * 4 + c] - b.data[p * 4 + c]) > threshold) {
                count++;
                break;
            }
        }
    }
    return count;
}

// the palette the joint-entity path makes from a pose: each joint's model-space matrix relative to the mesh node,
// times its inverse bind matrix, composed here with gl-matrix from the pose's local TRS
function reference_palette(model: Model, player: AnimationPlayer, mesh_node: number): Float32Array {
    const world = (n: number): mat4 => {
        const pose = player.pose;
        const local = mat4.fromRotationTranslationScale(
            mat4.create(),
            pose.rotation.subarray(n * 4, n * 4 + 4),
            pose.translation.subarray(n * 3, n * 3 + 3),
            pose.scale.subarray(n * 3, n * 3 + 3),
        );
        const parent = model.nodes[n].parent;
        return parent < 0 ? local : mat4.multiply(mat4.create(), world(parent), local);
    };
    const skin = model.skins[0];
    const inverse_mesh = mat4.invert(mat4.create(), world(mesh_node))!;
    const out = new Float32Array(skin.joints.length * 16);
    skin.joints.forEach((j, k) => {
        const m = mat4.multiply(mat4.create(), inverse_mesh, world(j));
        mat4.multiply(m, m, skin.inverse_bind_matrices.subarray(k * 16, k * 16 + 16));
        out.set(m, k * 16);
    });
    return out;
}

describe("baked animation for crowds (the Khronos Fox, joints: false)", () => {
    let fixture: SceneFixture;
    let models: ModelSystem;
    let animators: AnimatorSystem;
    beforeEach(async () => {
        fixture = await start_scene({ size: SIZE });
        models = await fixture.engine.add_system(new ModelSystem(fixture.engine.graphics, fixture.scene, { on_error: () => {} }));
        animators = await fixture.engine.add_system(new AnimatorSystem(models));
    });
    afterEach(async () => {
        await fixture.engine.shutdown();
    });

    const frame = async (dt = 0): Promise<TextureReadback> => {
        fixture.engine.tick(dt);
        return fixture.read();
    };

    it("the baked palette matches the one composed from the sampled pose, at many times of every clip and mid-fade", async () => {
        const [, , fox] = await load_level_with_models(fixture.engine, models, level({ joints: false }, null));
        const { model, baked } = models.instance_of(fox)!;
        expect(baked.length, "the fox's one skinned primitive").toBe(1);
        const mesh_node = model.nodes.findIndex((n) => n.skin >= 0);
        const bake = baked[0].bake;
        expect(bake).toBe(BakedSkin.of(model, 0, mesh_node));
        // the reference samples channels; the bake blends frames 1/30 s apart. Scale: the Fox is ~150 units long
        const player = new AnimationPlayer(model.animations, model.nodes);
        const out = new Float32Array(bake.joint_count * 16);
        // what the GPU blends from `pick`: four frames of the table and their weights, summed here
        const blend = new Float32Array(8);
        const picked = (): Float32Array => {
            bake.pick(blend, player);
            const floats = bake.joint_count * 16;
            const sum = new Float32Array(floats);
            for (let k = 0; k < 4; k++) for (let i = 0; i < floats; i++) sum[i] += bake.table.data[blend[k] * floats + i] * blend[4 + k];
            return sum;
        };
        const expect_picked = (label: string): void => {
            const sum = picked();
            expect(blend[4] + blend[5] + blend[6] + blend[7], `${label}: weights sum to 1`).toBeCloseTo(1, 6);
            for (let i = 0; i < out.length; i++) if (i % 4 !== 3) expect(sum[i], `${label}: float ${i}`).toBeCloseTo(out[i], 4);
        };
        let worst = 0;
        for (const clip of model.animations) {
            const keys = new Set(clip.channels.flatMap((c) => Array.from(c.times))).size;
            expect(bake.frames_of(clip), `${clip.name}: a frame at every key (${keys}), and no gap over 1/30 s`).toBeGreaterThanOrEqual(Math.max(keys, Math.ceil(clip.duration * 30) + 1));
            for (let k = 0; k <= 37; k++) {
                player.play(clip.name, { time: (clip.duration * k) / 37 });
                player.update(0);
                bake.sample(out, player);
                expect_picked(`${clip.name} at ${k}/37`);
                const reference = reference_palette(model, player, mesh_node);
                for (let i = 0; i < out.length; i++) {
                    const d = Math.abs(out[i] - reference[i]) / (i % 16 >= 12 ? 100 : 1);
                    worst = Math.max(worst, d);
                }
            }
        }
        console.info(`baked palette: worst difference ${worst.toFixed(4)} (rotation parts, translations per 100 units)`);
        expect(worst, "within the blend of neighbouring frames").toBeLessThan(0.03);

        // mid-fade the palette lies between each clip's alone (both advance while they blend)
        player.play("Walk", { time: 0.1 });
        player.cross_fade("Run", 0.5, { time: 0.1 });
        player.advance(0.25);
        bake.sample(out, player);
        expect_picked("mid-fade");
        const mid = out.slice();
        player.play("Walk", { time: 0.35 });
        bake.sample(out, player);
        const walk = out.slice();
        player.play("Run", { time: 0.35 });
        bake.sample(out, player);
        const run = out.slice();
        let apart = 0;
        for (let i = 0; i < mid.length; i++) {
            expect(mid[i]).toBeCloseTo((walk[i] + run[i]) / 2, 3);
            apart = Math.max(apart, Math.abs(walk[i] - run[i]));
        }
        expect(apart, "the two clips differ there").toBeGreaterThan(0.1);
        // nothing playing: the rest pose
        const idle = new AnimationPlayer(model.animations, model.nodes);
        idle.update(0);
        bake.sample(out, idle);
        expect(Array.from(out)).toEqual(Array.from(bake.rest));
        bake.pick(blend, idle);
        expect(Array.from(blend), "the rest pose is the table's frame 0").toEqual([0, 0, 0, 0, 1, 0, 0, 0]);
        const rest = reference_palette(model, idle, mesh_node);
        for (let i = 0; i < out.length; i++) expect(out[i]).toBeCloseTo(rest[i], 3);
    });

    it("draws the rest pose, a walk, a cross-fade and a moved root as the joint-entity path does; only non-joint nodes are entities", async () => {
        const pictures = async (model: Record<string, unknown>): Promise<TextureReadback[]> => {
            const before = fixture.engine.entityManager.entity_count;
            const ids = await load_level_with_models(fixture.engine, models, level(model, { clip: "", fade: 0.4 }));
            const fox = ids[2];
            const instance = models.instance_of(fox)!;
            const made = fixture.engine.entityManager.entity_count - before - 3;
            const joint_count = instance.model.skins[0].joints.length;
            expect(made, "an entity per node, less the joints when left out").toBe(model.joints === false ? instance.model.nodes.length - joint_count : instance.model.nodes.length);
            const shots: TextureReadback[] = [await frame(0)];
            Animator.clip[fox] = "Walk";
            await frame(0);
            shots.push(await frame(0.37));
            // a cross-fade to the run, caught halfway
            Animator.clip[fox] = "Run";
            await frame(0.1);
            shots.push(await frame(0.1));
            // the root moved and turned: the mesh's world matrix places the baked skin
            fixture.engine.entityManager.set_position(fox, 25, 5, -10);
            fixture.engine.entityManager.set_rotation(fox, 0, 0.5, 0, Math.sqrt(0.75));
            shots.push(await frame(0.2));
            for (const id of ids) fixture.engine.entityManager.remove_entity(id);
            await frame(0);
            return shots;
        };
        const joints = await pictures({});
        const baked = await pictures({ joints: false });
        const names = ["rest", "walk", "fade", "moved"];
        // mid-fade the bake blends matrices where the joint path blends local rotations: close, not the same
        const fade_motion = differing_pixels(joints[1], joints[2]);
        for (let k = 0; k < names.length; k++) {
            write_readback_png(baked[k], `fox_baked_${names[k]}`);
            const off = differing_pixels(joints[k], baked[k]);
            console.info(`${names[k]}: ${off} pixels differ from the joint-entity path${k === 2 ? ` (the fade moved ${fade_motion} from the walk)` : ""}`);
            if (k === 2) expect(off, "fade: near the joint-entity path's, against how far it moved").toBeLessThan(fade_motion * 0.3);
            else expect(off, `${names[k]}: as the joint-entity path draws it`).toBeLessThan(12);
        }
        expect(differing_pixels(baked[0], baked[1]), "the walk moved the legs").toBeGreaterThan(40);
        expect(differing_pixels(baked[1], baked[2]), "the fade moved on").toBeGreaterThan(40);
        expect(fixture.errors).toEqual([]);
    });

    it("moving a baked fox that holds still does not change its skin (placed by its world matrix alone)", async () => {
        const [, , fox] = await load_level_with_models(fixture.engine, models, level({ joints: false }, { clip: "Walk", speed: 0 }));
        await frame(0);
        const skin = models.instance_of(fox)!.baked[0].skin;
        expect(skin.space).toBe("mesh");
        expect(skin.table, "its palettes are picked from the bake's table, blended on the GPU").toBe(models.instance_of(fox)!.baked[0].bake.table);
        const blend = skin.blend.slice();
        fixture.engine.entityManager.set_position(fox, 40, 0, 0);
        await frame(0.1);
        expect(Array.from(skin.blend), "speed 0: the same frames and weights").toEqual(Array.from(blend));
        const entity = models.instance_of(fox)!.entities.primitives[0].entity;
        expect(MeshRenderer.skin[entity]).toBe(skin);
        expect(fixture.errors).toEqual([]);
        // a frame past the table is refused, naming the skin, not read from another skin's palettes
        animators.player_of(fox)!.speed = 0;
        fixture.engine.entityManager.remove_component(fox, Animator);
        skin.blend[1] = skin.table!.frames;
        skin.mark_changed();
        expect(() => fixture.engine.tick(0)).toThrow(/MeshSkin '.*skin \(baked\)': blend frame 1 is \d+; its table '.*' has frames 0\.\.\d+ \(whole numbers\)/);
        // put right, the next frame draws
        skin.blend[1] = 0;
        skin.mark_changed();
        await frame(0);
        expect(fixture.errors).toEqual([]);
    });
});

describe("instantiate_model with joints: false (a hand-made model)", () => {
    const node = (index: number, name: string, parent: number, children: number[], mesh = -1) => ({
        index,
        name,
        parent,
        children,
        mesh,
        skin: -1,
        translation: new Float32Array(3),
        rotation: new Float32Array([0, 0, 0, 1]),
        scale: new Float32Array([1, 1, 1]),
        weights: new Float32Array(0),
    });
    const model = (nodes: ReturnType<typeof node>[]) =>
        new Model({ url: "hand-made.gltf", nodes, scene_roots: [0], meshes: [], materials: [], textures: [], skins: [{ name: "arm", joints: [1, 2], inverse_bind_matrices: new Float32Array(32), skeleton: 1 }], animations: [], warnings: [] });

    it("leaves the joints out; a node hanging from a joint, or a joint with a mesh, is an error naming it, nothing made", () => {
        const entities = new EntityManager();
        const assets = new SceneAssets();
        const root = entities.create_entity();
        entities.add_component(root, Transform);
        const made = instantiate_model(entities, assets, model([node(0, "body", -1, [1]), node(1, "shoulder", 0, [2]), node(2, "hand", 1, [])]), root, { joints: false });
        expect(made.entities.length, "the body only").toBe(1);
        expect(made.nodes).toEqual([made.entities[0], -1, -1]);
        const count = entities.entity_count;
        const sword = model([node(0, "body", -1, [1]), node(1, "shoulder", 0, [2]), node(2, "hand", 1, [3]), node(3, "sword", 2, [])]);
        expect(() => instantiate_model(entities, assets, sword, root, { joints: false })).toThrow("node 'sword' hangs from joint 'hand': with joints: false the joints are not made, so nothing can hang from one");
        const armed = model([node(0, "body", -1, [1]), node(1, "shoulder", 0, [2]), node(2, "hand", 1, [], 0)]);
        expect(() => instantiate_model(entities, assets, armed, root, { joints: false })).toThrow("joint 'hand' carries a mesh");
        expect(entities.entity_count, "nothing made").toBe(count);
        // with joint entities the same tree is made whole
        expect(instantiate_model(entities, assets, sword, root).entities.length).toBe(4);
    });
});
