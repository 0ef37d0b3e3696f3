// Allocation per steady frame of animated models on the CPU: 20 Foxes walking or running (AnimatorSystem.update:
// sampling, cross-fades, pose writes; or, made without joint entities, blending baked frames into the skins), the transform hierarchy, ModelSystem.before_render (skins from the joints)
// and SceneSystem.before_render, against an idle reference frame (test/harness/allocation.ts). The models are
// loaded on Dawn (their GPU objects need a device); the renderer's side of skinning has its own FAKE-device test
// (test/shade/renderer/Renderer.alloc.test.ts). A positive control shows the measurement sees one object a frame.
import { describe, expect, it } from "vitest";
import { Engine } from "../../../engine/Engine.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { Animator } from "../../../systems/model/Animator.js";
import { AnimatorSystem } from "../../../systems/model/AnimatorSystem.js";
import { load_level_with_models } from "../../../systems/model/load_level_with_models.js";
import { ModelSystem } from "../../../systems/model/ModelSystem.js";
import { SceneSystem } from "../../../systems/scene/SceneSystem.js";
import { FOX } from "../../engine/assets/asset_files.js";
import { steady_bytes_per_frame, window_medians } from "../../harness/allocation.js";
import { get_gpu } from "../../harness/index.js";

describe("animated models: allocation per steady frame", () => {
    it.each([
        ["joint entities", true],
        ["baked clips (joints: false)", false],
    ])("20 walking Foxes with %s, clips changing now and then: animation, hierarchy and skins allocate nothing once warm", async (_, joints) => {
        const engine = new Engine({ graphics: { gpu: get_gpu(), target: new TextureRenderTarget(16, 16) } });
        await engine.graphics.start();
        const scene = await engine.add_system(new SceneSystem(engine.graphics));
        const models = await engine.add_system(new ModelSystem(engine.graphics, scene));
        const animators = await engine.add_system(new AnimatorSystem(models));
        const foxes = Array.from({ length: 20 }, (_, i) => ({ Transform: { position: [i, 0, 0] }, Model: { src: FOX, joints }, Animator: { clip: i % 2 === 0 ? "Walk" : "Run" } }));
        const ids = await load_level_with_models(engine, models, { entities: foxes });
        expect(models.instance_of(ids[0])!.baked.length, "the path asked for").toBe(joints ? 0 : 1);
        const em = engine.entityManager;
        const clips = ["Walk", "Run", "Survey"];
        const counter = new Uint32Array(1);
        const leak: unknown[] = [];
        const positive = new Uint8Array(1);
        const frame = (): void => {
            // a change of clip (a cross-fade) on one fox every 50 frames
            if (++counter[0] % 50 === 0) Animator.clip[ids[counter[0] % ids.length]] = clips[counter[0] % 3];
            animators.update(1 / 60);
            em.update_world_transforms();
            models.before_render();
            scene.before_render();
            if (positive[0] === 1) leak[counter[0] & 1] = { frame: counter[0] };
        };
        const idle = (): void => {
            counter[0]++;
        };
        for (let i = 0; i < 3000; i++) frame();
        // in rounds until steady (a loaded machine can leave a function in a tier that boxes doubles for a while:
        // once 4.8 B/frame in a full run, 0.48 alone); an allocation in the frame is there in every round
        const reading = await steady_bytes_per_frame([frame, idle], { window: 200, accept: ([b, r]) => b <= r + 4 });
        const [bytes, reference] = reading.medians;
        console.info(`animated models frame: ${bytes.toFixed(2)} bytes per frame (idle reference ${reference.toFixed(2)}; ${reading.rounds} rounds)${reading.accepted ? "" : `\n  ${reading.sites.join("\n  ")}`}`);
        expect(bytes).toBeLessThanOrEqual(reference + 4);
        positive[0] = 1;
        for (let i = 0; i < 500; i++) frame();
        const [leaky, reference_again] = window_medians([frame, idle], 200);
        console.info(`positive control: ${leaky.toFixed(2)} bytes per frame (idle ${reference_again.toFixed(2)})`);
        expect(leaky, "one small object a frame is seen").toBeGreaterThan(reference_again + 8);
        await engine.shutdown();
    });
});
