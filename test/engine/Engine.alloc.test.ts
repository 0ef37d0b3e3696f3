// Engine.tick allocates nothing once warm, with a few systems that query the world each frame.
//
// Method: test/harness/allocation.ts (young-generation bytes over windows after a full GC, read in rounds until
// steady). The graphics engine is not started (render() returns at once): this is the CPU side of the frame.
import { describe, expect, it } from "vitest";
import { steady_bytes_per_frame } from "../harness/allocation.js";
import { Transform } from "../../engine/components/Transform.js";
import { Engine } from "../../engine/Engine.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import { System } from "../../engine/System.js";


/**
 * Runs `frame` until the JIT has optimised it: many calls, with pauses for V8's concurrent compiler (on a
 * loaded 2-core machine it lags; unoptimised code boxes the doubles it stores).
 */
async function warm_up(frame: () => void): Promise<void> {
    for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 4000; i++) frame();
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
}

const MOVING = [Transform];

/** Moves every other entity with a Transform along x, marking the change (the hierarchy propagates it). */
class MoveSystem extends System {
    readonly name = "move";
    #query: EntityQuery | null = null;
    #entities: EntityManager | null = null;
    override async startup(entityManager: EntityManager): Promise<void> {
        this.#query = entityManager.register_query(MOVING);
        this.#entities = entityManager;
    }
    override update(dt: number): void {
        const entities = this.#query!.entities;
        for (let i = 0; i < entities.length; i += 2) {
            Transform.position[entities[i] * 3] += dt;
            this.#entities!.mark_transform_changed(entities[i]);
        }
    }
}

/** 100 entities with a Transform, in chains of 4 (parent, child, grandchild, ...). */
function populate(entityManager: EntityManager): void {
    let parent = -1;
    for (let i = 0; i < 100; i++) {
        const eid = entityManager.create_entity();
        entityManager.add_component(eid, Transform);
        if (i % 4 !== 0) entityManager.set_parent(eid, parent);
        parent = eid;
    }
}

/** Sums positions (a reader). */
class SumSystem extends System {
    readonly name = "sum";
    total = 0;
    #query: EntityQuery | null = null;
    override async startup(entityManager: EntityManager): Promise<void> {
        this.#query = entityManager.register_query(MOVING);
    }
    override update(): void {
        const entities = this.#query!.entities;
        let total = 0;
        for (let i = 0; i < entities.length; i++) total += Transform.position[entities[i] * 3];
        this.total = total;
    }
}

class EmptySystem extends System {
    readonly name = "empty";
}

/** Throws on every update: suspended at the first tick. */
class FailingSystem extends System {
    readonly name = "failing";
    override update(): void {
        throw new Error("broken");
    }
}

describe("Engine.tick allocation", () => {
    it("after warm-up, a tick through three systems, with moves propagated down a hierarchy, allocates nothing", async () => {
        const engine = new Engine();
        await engine.add_system(new MoveSystem());
        const sum = await engine.add_system(new SumSystem());
        await engine.add_system(new EmptySystem());
        populate(engine.entityManager);
        const frame = (): void => engine.tick(1 / 60);
        await warm_up(frame);
        const { medians } = await steady_bytes_per_frame([frame], { window: 500, accept: ([b]) => b === 0 });
        expect(sum.total).toBeGreaterThan(0);
        expect(medians[0]).toBe(0);
    });

    it("with a suspended system among them, a tick allocates nothing once the failure was reported", async () => {
        const errors: Error[] = [];
        const engine = new Engine({ on_error: (e) => errors.push(e) });
        await engine.add_system(new MoveSystem());
        const failing = await engine.add_system(new FailingSystem());
        const sum = await engine.add_system(new SumSystem());
        for (let i = 0; i < 100; i++) engine.entityManager.add_component(engine.entityManager.create_entity(), Transform);
        const frame = (): void => engine.tick(1 / 60);
        await warm_up(frame);
        const { medians } = await steady_bytes_per_frame([frame], { window: 500, accept: ([b]) => b === 0 });
        expect(errors.length).toBe(1);
        expect(engine.is_suspended(failing)).toBe(true);
        expect(sum.total).toBeGreaterThan(0);
        expect(medians[0]).toBe(0);
    });

    it("after warm-up, a run() frame (fixed step, fake requestAnimationFrame) allocates nothing", async () => {
        let pending: ((time_ms: number) => void) | null = null;
        // FAKE requestAnimationFrame: the test fires the frames
        const engine = new Engine({ fixed_step: 1 / 120, request_frame: (callback) => ((pending = callback), 1), cancel_frame: () => {} });
        await engine.add_system(new MoveSystem());
        await engine.add_system(new EmptySystem());
        populate(engine.entityManager);
        engine.run();
        // Whole milliseconds (16, 17, 17: 60 frames a second on average). A double argument is boxed by the
        // caller at a call the JIT does not inline; in a browser that is the browser's own rAF timestamp, not
        // ours, so the fake passes small integers and the measurement sees only what the engine allocates.
        const clock = new Int32Array(2);
        const frame = (): void => {
            clock[0] += clock[1]++ % 3 === 0 ? 16 : 17;
            pending!(clock[0]);
        };
        await warm_up(frame);
        const { medians } = await steady_bytes_per_frame([frame], { window: 500, accept: ([b]) => b === 0 });
        expect(medians[0]).toBe(0);
        engine.stop_running();
    });
});
