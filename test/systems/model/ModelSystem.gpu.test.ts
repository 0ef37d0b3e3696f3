// ModelSystem and AnimatorSystem on Dawn with the shared Khronos Fox: a level's "Model" becomes one entity per glTF
// node under the level's entity, skinned on the GPU; the rest pose draws as the unskinned mesh does; the walk clip
// moves the vertices between two times; a cross-fade halfway lies between its two clips; removing the root removes
// every entity made and releases the model (GPU objects freed, scene assets forgotten); a model that fails to load
// fails the level with a LevelError naming the path and carrying the AssetError, leaving nothing behind.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Name } from "../../../engine/components/Name.js";
import { WorldTransform } from "../../../engine/components/WorldTransform.js";
import { AssetError } from "../../../engine/assets/AssetError.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { Animator } from "../../../systems/model/Animator.js";
import { AnimatorSystem } from "../../../systems/model/AnimatorSystem.js";
import { load_level_with_models } from "../../../systems/model/load_level_with_models.js";
import { model_geometry_name } from "../../../systems/model/instantiate_model.js";
import { ModelSystem } from "../../../systems/model/ModelSystem.js";
import { MeshRenderer } from "../../../systems/scene/MeshRenderer.js";
import { FOX } from "../../engine/assets/asset_files.js";
import { write_readback_png, type TextureReadback } from "../../harness/index.js";
import { look_rotation, start_scene, type SceneFixture } from "../scene/scene_fixture.js";

const SIZE = 96;

function level(extra: Record<string, unknown> = {}) {
    const eye = [0, 60, 190];
    const at = [0, 45, 0];
    return {
        version: 1,
        entities: [
            { name: "camera", Transform: { position: eye, rotation: look_rotation(eye, at) }, Camera: { fov: 40, near: 1, far: 1000 } },
            { name: "sun", Transform: {}, DirectionalLight: { direction: [-0.4, -1, -0.6], intensity: 3 } },
            // turned side-on to the camera, so the legs show
            { name: "fox", Transform: { position: [0, 0, 0], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] }, Model: { src: FOX }, ...extra },
        ],
    };
}

function differing_pixels(a: TextureReadback, b: TextureReadback, threshold = 3): number {
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

function covered(image: TextureReadback, sky: TextureReadback): number {
    return differing_pixels(image, sky, 8);
}

describe("ModelSystem and AnimatorSystem on Dawn (the Khronos Fox)", () => {
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

    it("instantiates one entity per node under the level's entity, skinned; the rest pose draws as the unskinned mesh", async () => {
        const sky = await frame();
        const before = fixture.engine.entityManager.entity_count;
        const [, , fox] = await load_level_with_models(fixture.engine, models, level());
        const instance = models.instance_of(fox)!;
        expect(instance).not.toBeNull();
        const entities = fixture.engine.entityManager;
        expect(entities.entity_count - before - 3, "an entity per node").toBe(instance.model.nodes.length);
        expect(instance.entities.entities.length).toBe(instance.model.nodes.length);
        for (const root of instance.model.scene_roots) expect(entities.parent_of(instance.entities.nodes[root])).toBe(fox);
        const skinned = instance.entities.primitives.filter((p) => MeshRenderer.skin[p.entity] !== null);
        expect(skinned.length, "the fox's one skinned primitive").toBe(1);
        const names = instance.entities.entities.map((e) => Name.value[e]);
        expect(names).toContain("root");

        const rest = await frame();
        write_readback_png(rest, "fox_rest");
        expect(covered(rest, sky), "the fox covers pixels").toBeGreaterThan(300);
        // the same mesh unskinned, at its node's world matrix: the bind pose
        const mesh_entity = skinned[0].entity;
        const skin = MeshRenderer.skin[mesh_entity];
        MeshRenderer.skin[mesh_entity] = null;
        const rigid = await frame();
        write_readback_png(rigid, "fox_rigid");
        expect(differing_pixels(rest, rigid), "rest pose skinned = the unskinned mesh").toBeLessThan(6);
        MeshRenderer.skin[mesh_entity] = skin;
        expect(fixture.errors).toEqual([]);
    });

    it("the walk clip moves the vertices between two times; a cross-fade halfway lies between its clips", async () => {
        const [, , fox] = await load_level_with_models(fixture.engine, models, level({ Animator: { clip: "Walk", fade: 0.5 } }));
        const a = await frame(0);
        const b = await frame(0.3);
        write_readback_png(b, "fox_walk");
        expect(Animator.time[fox]).toBeCloseTo(0.3, 4);
        expect(differing_pixels(a, b), "the legs moved").toBeGreaterThan(40);

        // a cross-fade: a joint's position halfway through lies between where each clip alone puts it
        const instance = models.instance_of(fox)!;
        const joint = instance.entities.nodes[instance.model.skins[0].joints[8]];
        const at = (): number[] => {
            fixture.engine.update(0);
            fixture.engine.entityManager.update_world_transforms();
            return Array.from(WorldTransform.matrix.subarray(joint * 16 + 12, joint * 16 + 15));
        };
        const player = animators.player_of(fox)!;
        player.play("Walk", { time: 0.2 });
        player.cross_fade("Run", 1, { time: 0.2 });
        // both clips advance while they blend: halfway through the fade, each is at 0.2 + 0.5 = 0.7
        fixture.engine.update(0.5);
        fixture.engine.entityManager.update_world_transforms();
        const blended = Array.from(WorldTransform.matrix.subarray(joint * 16 + 12, joint * 16 + 15));
        player.play("Walk", { time: 0.7 });
        const walk_later = at();
        player.play("Run", { time: 0.7 });
        const run_later = at();
        for (let c = 0; c < 3; c++) {
            const lo = Math.min(walk_later[c], run_later[c]) - 0.5;
            const hi = Math.max(walk_later[c], run_later[c]) + 0.5;
            expect(blended[c], `axis ${c}: between Walk (${walk_later[c].toFixed(2)}) and Run (${run_later[c].toFixed(2)})`).toBeGreaterThanOrEqual(lo);
            expect(blended[c]).toBeLessThanOrEqual(hi);
        }
        expect(Math.hypot(walk_later[0] - run_later[0], walk_later[1] - run_later[1], walk_later[2] - run_later[2]), "the clips differ there").toBeGreaterThan(1);
        expect(fixture.errors).toEqual([]);
    });

    it("removing the root removes every entity made and releases the model; loading again works", async () => {
        const [camera, sun, fox] = await load_level_with_models(fixture.engine, models, level());
        const instance = models.instance_of(fox)!;
        const entities = fixture.engine.entityManager;
        const count = entities.entity_count;
        await frame();
        entities.remove_entity(fox);
        expect(entities.entity_count).toBe(count - 1 - instance.model.nodes.length);
        for (const e of instance.entities.entities) expect(entities.has_entity(e)).toBe(false);
        expect(instance.model.destroyed, "the last release freed the GPU objects").toBe(true);
        expect(models.cache!.references(FOX)).toBe(0);
        expect(fixture.scene.assets.geometry(model_geometry_name(instance.model, 0, 0))).toBeUndefined();
        await frame();
        entities.remove_entity(camera);
        entities.remove_entity(sun);
        const [, , again] = await load_level_with_models(fixture.engine, models, level());
        expect(models.instance_of(again)).not.toBeNull();
        await frame();
        expect(fixture.errors).toEqual([]);
    });

    it("a renderer restart (a new device) loads the models' textures again onto it: the same picture, no error", async () => {
        await load_level_with_models(fixture.engine, models, level());
        const before = await frame();
        const old_device = fixture.engine.graphics.device;
        await fixture.engine.graphics.stop();
        await fixture.engine.graphics.start();
        expect(fixture.engine.graphics.device).not.toBe(old_device);
        // the first frame finds the new device and asks for the textures again; a few frames later they are there
        await frame();
        for (let i = 0; i < 20 && models.cache!.device !== fixture.engine.graphics.device; i++) await frame();
        await new Promise((resolve) => setTimeout(resolve, 200));
        await fixture.engine.graphics.device!.queue.onSubmittedWorkDone();
        let after = await frame();
        for (let i = 0; i < 20 && differing_pixels(before, after) > 6; i++) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            after = await frame();
        }
        write_readback_png(after, "fox_after_restart");
        expect(differing_pixels(before, after), "textured again, as before").toBeLessThan(6);
        expect(fixture.errors).toEqual([]);
    });

    it("a model that fails to load fails the level with a LevelError at its path carrying the AssetError, leaving nothing", async () => {
        const before = fixture.engine.entityManager.entity_count;
        const bad = level();
        (bad.entities[2] as { Model: { src: string } }).Model.src = "samples/assets/Fox/missing.glb";
        const error = await load_level_with_models(fixture.engine, models, bad).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(LevelError);
        expect((error as LevelError).path).toBe("entities[2].Model.src");
        expect((error as Error).message).toContain("samples/assets/Fox/missing.glb");
        expect((error as Error).cause).toBeInstanceOf(AssetError);
        expect(fixture.engine.entityManager.entity_count).toBe(before);
        await frame();
        expect(fixture.errors).toEqual([]);
    });
});
