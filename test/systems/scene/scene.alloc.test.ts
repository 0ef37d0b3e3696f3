// Allocation per steady frame of SceneSystem (no GPU: the system keeps the Scene on the CPU; what the renderer
// does with it is covered by the renderer's own allocation tests): 1,000 MeshRenderer entities, 10 moving per
// frame, a camera, a sun and point lights. Measured with test/harness/allocation.ts (young-generation bytes over
// windows right after a full GC, medians over interleaved windows) against an idle reference frame.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { Engine } from "../../../engine/Engine.js";
import { load_level } from "../../../engine/level/load_level.js";
import { MeshRenderer, write_mesh_renderer } from "../../../systems/scene/MeshRenderer.js";
import { SceneSystem } from "../../../systems/scene/SceneSystem.js";
import { window_medians } from "../../harness/allocation.js";

describe("SceneSystem allocation per steady frame", () => {
    it("moving meshes, a camera and lights: propagate + before_render allocate nothing once warm", async () => {
        const engine = new Engine();
        const scene = await engine.add_system(new SceneSystem(engine.graphics));
        const em = engine.entityManager;
        load_level(engine, {
            entities: [
                { Transform: { position: [0, 5, 9] }, Camera: {} },
                { Transform: {}, DirectionalLight: { direction: [0, -1, -0.3] } },
                ...Array.from({ length: 8 }, (_, i) => ({ Transform: { position: [i, 1, 0] }, PointLight: {} })),
            ],
        });
        const eids: number[] = [];
        for (let i = 0; i < 1000; i++) {
            const eid = em.create_entity();
            em.add_component(eid, Transform);
            em.add_component(eid, MeshRenderer, (e) => write_mesh_renderer(e, { geometry: i % 2 === 0 ? "box" : "sphere" }));
            eids.push(eid);
        }
        const y = new Float32Array(1);
        const cursor = new Uint32Array(1);
        const frame = (): void => {
            for (let k = 0; k < 10; k++) {
                const eid = eids[cursor[0]++ % 1000];
                y[0] += 0.01;
                Transform.position[eid * 3 + 1] = y[0];
                em.mark_transform_changed(eid);
            }
            em.update_world_transforms();
            scene.before_render();
        };
        const idle = (): void => {
            for (let k = 0; k < 10; k++) cursor[0]++;
        };
        for (let i = 0; i < 3000; i++) frame();
        const [bytes, reference] = window_medians([frame, idle], 200);
        console.info(`SceneSystem frame: ${bytes.toFixed(2)} bytes per frame (idle reference ${reference.toFixed(2)})`);
        expect(bytes).toBeLessThanOrEqual(reference);
        await engine.shutdown();
    });
});
