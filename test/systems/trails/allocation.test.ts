// Steady-state allocation of Trail3DSystem's update and its extension's upload, on a real device (Dawn).
//
// Method: test/harness/allocation.ts (young-generation bytes over windows after a full GC, read in rounds until
// steady). The smallest JS object is 12-16 bytes, so one per frame would show.
import { addComponent } from "bitecs";
import { describe, expect, it } from "vitest";
import { steady_bytes_per_frame } from "../../harness/allocation.js";
import { Transform } from "../../../engine/components/Transform.js";
import { Engine } from "../../../engine/Engine.js";
import { Trail3D } from "../../../systems/trails/Trail3D.js";
import { Trail3DSystem } from "../../../systems/trails/Trail3DSystem.js";
import { with_gpu_device } from "../../harness/index.js";


describe("Trail3DSystem allocation (Dawn)", () => {
    it("once warm, the system's update and the upload allocate nothing per frame", async () => {
        await with_gpu_device(async (device) => {
            const engine = new Engine();
            const world = engine.entityManager.world;
            const system = new Trail3DSystem(engine.graphics, { segments: 32, initial_capacity: 4 });
            await engine.add_system(system);
            const eids: number[] = [];
            for (let i = 0; i < 200; i++) {
                const eid = engine.entityManager.create_entity();
                addComponent(world, eid, Transform);
                addComponent(world, eid, Trail3D);
                Trail3D.write(eid, { max_age: 0.5, width: 0.1 });
                eids.push(eid);
            }
            let tick = 0;
            const frame = (): void => {
                tick++;
                for (let i = 0; i < eids.length; i++) {
                    Transform.position[eids[i] * 3] = (tick & 63) * 0.01 + i;
                    engine.entityManager.mark_transform_changed(eids[i]);
                }
                engine.entityManager.update_world_transforms();
                // spawning toggled in the loop too: the pause and the fresh start run as well
                Trail3D.spawning[eids[0]] = tick & 16 ? 0 : 1;
                system.update(1 / 60);
                system.extension!.upload(device);
            };
            for (let i = 0; i < 1500; i++) frame();
            await device.queue.onSubmittedWorkDone();
            let scattered = 0;
            const counted = (): void => {
                frame();
                scattered += system.extension!.last_update_count;
            };
            const reading = await steady_bytes_per_frame([counted], { window: 300, accept: ([b]) => b < 1 });
            const bytes = reading.medians[0];
            await device.queue.onSubmittedWorkDone();
            console.info(`trails update + upload: ${bytes.toFixed(2)} bytes per frame (reading ${reading.rounds})`);
            // points really went up through the scatter path, not as whole-pool uploads (5 windows of 300 frames at least)
            expect(scattered).toBeGreaterThan(300 * 5 * 100);
            expect(bytes).toBeLessThan(1);
            await engine.remove_system(system);
        });
    });
});
