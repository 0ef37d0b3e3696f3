// Steady-state allocation of DebugDrawSystem: immediate-mode calls, update, the frame taking the lines and the
// upload, on a real device (Dawn). Method: test/harness/allocation.ts (young-generation bytes, read in rounds until steady).
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { Engine } from "../../../engine/Engine.js";
import { DebugBounds } from "../../../systems/debug_draw/DebugBounds.js";
import { DebugDrawSystem } from "../../../systems/debug_draw/DebugDrawSystem.js";
import { steady_bytes_per_frame } from "../../harness/allocation.js";
import { with_gpu_device } from "../../harness/index.js";

describe("DebugDrawSystem allocation (Dawn)", () => {
    it("once warm, shapes, update, taking the lines and the upload allocate nothing per frame", async () => {
        await with_gpu_device(async (device) => {
            const engine = new Engine();
            const debug = await engine.add_system(new DebugDrawSystem(engine.graphics, { initial_lines: 16 }));
            for (let i = 0; i < 20; i++) {
                const eid = engine.entityManager.create_entity();
                engine.entityManager.add_component(eid, Transform);
                engine.entityManager.add_component(eid, DebugBounds);
            }
            const a = new Float32Array(3);
            const b = new Float32Array([1, 1, 1]);
            const color = new Float32Array([1, 0, 0, 1]);
            const points = new Float32Array(60);
            let tick = 0;
            const frame = (): void => {
                tick++;
                a[0] = tick & 7;
                for (let i = 0; i < 100; i++) debug.line(a, b, color);
                debug.box(a, b, color);
                debug.sphere(a, 1, color);
                debug.arrow(a, b, color);
                debug.lines(points, color);
                if ((tick & 7) === 0) debug.line(a, b, color, 0.05); // timed lines come and go
                debug.update(1 / 60);
                debug.frame_recorded();
                debug.extension!.upload(device, debug.timed_lines.count, debug.drawn_lines.count);
            };
            for (let i = 0; i < 1500; i++) frame();
            await device.queue.onSubmittedWorkDone();
            const reading = await steady_bytes_per_frame([frame], { window: 300, accept: ([bytes]) => bytes < 1 });
            const bytes = reading.medians[0];
            await device.queue.onSubmittedWorkDone();
            console.info(`debug draw frame: ${bytes.toFixed(2)} bytes per frame (reading ${reading.rounds})`);
            expect(debug.drawn_lines.count).toBeGreaterThan(100 + 12 + 72 + 5 + 10 + 20 * 12 - 1);
            expect(bytes).toBeLessThan(1);
            await engine.remove_system(debug);
        });
    });
});
