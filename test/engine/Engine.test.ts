// Engine lifecycle and frame loop: device-independent (no GPU; the graphics engine stays stopped, so render()
// draws nothing). The run() tests drive frames through a fake requestAnimationFrame (named as such).
import { describe, expect, it } from "vitest";
import { Engine } from "../../engine/Engine.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import { System } from "../../engine/System.js";

/** A fake system that logs its life into a shared journal. */
class LoggingSystem extends System {
    readonly name: string;
    readonly #log: string[];
    started = 0;
    fail_startup: Error | null = null;
    fail_shutdown: Error | null = null;
    manager: EntityManager | null = null;

    constructor(name: string, log: string[]) {
        super();
        this.name = name;
        this.#log = log;
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        this.#log.push(`startup ${this.name}`);
        await Promise.resolve();
        if (this.fail_startup !== null) throw this.fail_startup;
        this.manager = entityManager;
        this.started++;
    }

    override async shutdown(): Promise<void> {
        this.#log.push(`shutdown ${this.name}`);
        if (this.fail_shutdown !== null) throw this.fail_shutdown;
        if (this.started > 0) this.started--;
    }

    override update(dt: number): void {
        this.#log.push(`update ${this.name} ${dt}`);
    }
}

/** A fake requestAnimationFrame: frames fire only when the test calls `fire(time_ms)`. */
class FakeFrames {
    pending: ((time_ms: number) => void) | null = null;
    next_handle = 1;
    cancelled: number[] = [];
    readonly request_frame = (callback: (time_ms: number) => void): number => {
        this.pending = callback;
        return this.next_handle++;
    };
    readonly cancel_frame = (handle: number): void => {
        this.cancelled.push(handle);
        this.pending = null;
    };
    fire(time_ms: number): void {
        const callback = this.pending;
        this.pending = null;
        callback?.(time_ms);
    }
}

describe("Engine lifecycle", () => {
    it("starts systems in the order added, hands them the entity manager, updates them in that order", async () => {
        const log: string[] = [];
        const engine = new Engine();
        const a = await engine.add_system(new LoggingSystem("a", log));
        const b = await engine.add_system(new LoggingSystem("b", log));
        expect(a.manager).toBe(engine.entityManager);
        expect(engine.systems).toEqual([a, b]);
        engine.tick(0.5);
        engine.tick(0.25);
        expect(log).toEqual(["startup a", "startup b", "update a 0.5", "update b 0.5", "update a 0.25", "update b 0.25"]);
    });

    it("shutdown() shuts every system down in reverse order; a second shutdown is harmless", async () => {
        const log: string[] = [];
        const engine = new Engine();
        for (const name of ["a", "b", "c"]) await engine.add_system(new LoggingSystem(name, log));
        log.length = 0;
        await engine.shutdown();
        expect(log).toEqual(["shutdown c", "shutdown b", "shutdown a"]);
        expect(engine.systems).toEqual([]);
        await engine.shutdown();
        expect(log).toEqual(["shutdown c", "shutdown b", "shutdown a"]);
    });

    it("a system can start again after shutdown, in the same engine", async () => {
        const log: string[] = [];
        const engine = new Engine();
        const a = await engine.add_system(new LoggingSystem("a", log));
        await engine.shutdown();
        expect(a.started).toBe(0);
        await engine.add_system(a);
        expect(a.started).toBe(1);
        engine.tick(1);
        expect(log.at(-1)).toBe("update a 1");
    });

    it("remove_system shuts that system down only and keeps the others' order", async () => {
        const log: string[] = [];
        const engine = new Engine();
        const a = await engine.add_system(new LoggingSystem("a", log));
        const b = await engine.add_system(new LoggingSystem("b", log));
        const c = await engine.add_system(new LoggingSystem("c", log));
        expect(await engine.remove_system(b)).toBe(true);
        expect(await engine.remove_system(b)).toBe(false);
        expect(engine.systems).toEqual([a, c]);
        expect(log.filter((l) => l.startsWith("shutdown"))).toEqual(["shutdown b"]);
    });

    it("a system whose startup throws is not added, is shut down to undo it, and the error names it", async () => {
        const log: string[] = [];
        const engine = new Engine();
        const bad = new LoggingSystem("trails", log);
        bad.fail_startup = new Error("no pool");
        await expect(engine.add_system(bad)).rejects.toThrow("Engine.add_system: system 'trails' failed to start: no pool");
        expect(engine.systems).toEqual([]);
        expect(log).toEqual(["startup trails", "shutdown trails"]);
        engine.tick(1);
        expect(log.some((l) => l.startsWith("update"))).toBe(false);
    });

    it("adding a system twice is refused, naming it", async () => {
        const engine = new Engine();
        const a = new LoggingSystem("a", []);
        const first = engine.add_system(a);
        await expect(engine.add_system(a)).rejects.toThrow("Engine.add_system: system 'a' is already added");
        await first;
        await expect(engine.add_system(a)).rejects.toThrow("Engine.add_system: system 'a' is already added");
    });

    it("shutdown() shuts down every system even when one throws, then throws naming it", async () => {
        const log: string[] = [];
        const engine = new Engine();
        await engine.add_system(new LoggingSystem("a", log));
        const b = await engine.add_system(new LoggingSystem("b", log));
        await engine.add_system(new LoggingSystem("c", log));
        b.fail_shutdown = new Error("stuck");
        log.length = 0;
        await expect(engine.shutdown()).rejects.toThrow("Engine.shutdown: system 'b' failed to shut down: stuck");
        expect(log).toEqual(["shutdown c", "shutdown b", "shutdown a"]);
        expect(engine.systems).toEqual([]);
    });

    it("tick refuses a bad dt; a re-entrant call from a system's update is that system's failure", async () => {
        const errors: Error[] = [];
        const engine = new Engine({ on_error: (e) => errors.push(e) });
        expect(() => engine.tick(Number.NaN)).toThrow("Engine.update: dt must be a finite number of seconds >= 0, got NaN");
        expect(() => engine.tick(-1)).toThrow("got -1");
        class Reentrant extends System {
            readonly name = "reentrant";
            override update(): void {
                engine.tick(0);
            }
        }
        const reentrant = await engine.add_system(new Reentrant());
        engine.tick(0);
        expect(errors.map((e) => e.message)).toEqual([
            "System 'reentrant' failed in update: Engine.update: called from inside a system's update (re-entrant tick); it is suspended until engine.retry_systems()",
        ]);
        expect(engine.is_suspended(reentrant)).toBe(true);
        await engine.shutdown();
        engine.tick(0);
    });
});

describe("Engine.run (fake requestAnimationFrame)", () => {
    it("updates once per frame with the measured dt (first frame 0, clamped), until stop_running", async () => {
        const log: string[] = [];
        const frames = new FakeFrames();
        const engine = new Engine({ request_frame: frames.request_frame, cancel_frame: frames.cancel_frame, max_frame_time: 0.1 });
        await engine.add_system(new LoggingSystem("a", log));
        log.length = 0;
        engine.run();
        expect(engine.running).toBe(true);
        frames.fire(1000);
        frames.fire(1050);
        frames.fire(5000); // a long pause: clamped to 0.1 s
        expect(log).toEqual(["update a 0", "update a 0.05", "update a 0.1"]);
        engine.stop_running();
        expect(engine.running).toBe(false);
        expect(frames.pending).toBe(null);
        frames.fire(6000);
        expect(log.length).toBe(3);
    });

    it("with fixed_step, updates in exact steps and carries the remainder", async () => {
        const log: string[] = [];
        const frames = new FakeFrames();
        const engine = new Engine({ request_frame: frames.request_frame, cancel_frame: frames.cancel_frame, fixed_step: 0.25, max_frame_time: 1 });
        await engine.add_system(new LoggingSystem("a", log));
        log.length = 0;
        engine.run();
        frames.fire(0);
        frames.fire(100); // 0.1 s: no step yet
        frames.fire(600); // 0.6 s in all: 2 steps, 0.1 s left
        frames.fire(750); // 0.25 s: 1 step
        expect(log).toEqual(["update a 0.25", "update a 0.25", "update a 0.25"]);
    });

    it("a system calling stop_running from update ends the loop; shutdown stops it too", async () => {
        const frames = new FakeFrames();
        const engine = new Engine({ request_frame: frames.request_frame, cancel_frame: frames.cancel_frame });
        let updates = 0;
        class Stopper extends System {
            readonly name = "stopper";
            override update(): void {
                if (++updates === 2) engine.stop_running();
            }
        }
        await engine.add_system(new Stopper());
        engine.run();
        frames.fire(0);
        frames.fire(16);
        expect(frames.pending).toBe(null);
        expect(updates).toBe(2);
        engine.run();
        expect(engine.running).toBe(true);
        await engine.shutdown();
        expect(engine.running).toBe(false);
    });

    it("a frame that throws outside the systems (the renderer refusing a misuse) stops the loop and the error propagates", async () => {
        const frames = new FakeFrames();
        const engine = new Engine({ request_frame: frames.request_frame, cancel_frame: frames.cancel_frame });
        // FAKE render step: a stopped graphics engine draws nothing, so the misuse is simulated here
        engine.graphics.render = () => {
            throw new Error("boom");
        };
        engine.run();
        expect(() => frames.fire(0)).toThrow("boom");
        expect(engine.running).toBe(false);
    });

    it("without requestAnimationFrame, run() says what to do", () => {
        expect(() => new Engine().run()).toThrow("Engine.run: no requestAnimationFrame here; pass request_frame in the options or call tick(dt)");
    });
});
