// Systems that fail or change during a tick: a throwing update is reported once and suspended while the rest run;
// a system added or removed during another's update makes no system skip the tick. Device-independent (the
// graphics engine stays stopped); the run() case drives frames through a FAKE requestAnimationFrame.
import { describe, expect, it, vi } from "vitest";
import { Engine } from "../../engine/Engine.js";
import { System } from "../../engine/System.js";
import { SystemError } from "../../engine/SystemError.js";

/** Logs each update into a shared journal; `act` runs inside the update (before it throws, when `fail` is set). */
class Probe extends System {
    readonly name: string;
    readonly #log: string[];
    fail: Error | null = null;
    act: (() => void) | null = null;

    constructor(name: string, log: string[]) {
        super();
        this.name = name;
        this.#log = log;
    }

    override update(): void {
        this.#log.push(this.name);
        this.act?.();
        if (this.fail !== null) throw this.fail;
    }
}

async function engine_with(names: string[], options: ConstructorParameters<typeof Engine>[0] = {}): Promise<{ engine: Engine; log: string[]; systems: Probe[] }> {
    const log: string[] = [];
    const engine = new Engine(options);
    const systems: Probe[] = [];
    for (const name of names) systems.push(await engine.add_system(new Probe(name, log)));
    return { engine, log, systems };
}

describe("a system whose update throws", () => {
    it("is reported once through on_error as a SystemError naming it, suspended, and the others keep running", async () => {
        const errors: Error[] = [];
        const { engine, log, systems } = await engine_with(["a", "b", "c"], { on_error: (e) => errors.push(e) });
        const [, b] = systems;
        const cause = new Error("no path to the goal");
        b.fail = cause;
        engine.tick(0.1);
        engine.tick(0.1);
        engine.tick(0.1);
        expect(log).toEqual(["a", "b", "c", "a", "c", "a", "c"]);
        expect(errors.length).toBe(1);
        const error = errors[0] as SystemError;
        expect(error).toBeInstanceOf(SystemError);
        expect(error.system).toBe(b);
        expect(error.cause).toBe(cause);
        expect(error.message).toBe("System 'b' failed in update: no path to the goal; it is suspended until engine.retry_systems()");
        expect(engine.is_suspended(b)).toBe(true);
        expect(engine.suspended_count).toBe(1);
        expect(engine.systems).toEqual(systems);

        // retried: it runs again; failing again, it is reported again, once
        engine.retry_systems();
        expect(engine.is_suspended(b)).toBe(false);
        log.length = 0;
        engine.tick(0.1);
        engine.tick(0.1);
        expect(log).toEqual(["a", "b", "c", "a", "c"]);
        expect(errors.length).toBe(2);
        // fixed, then retried: it updates every tick again
        b.fail = null;
        engine.retry_systems();
        log.length = 0;
        engine.tick(0.1);
        expect(log).toEqual(["a", "b", "c"]);
        expect(errors.length).toBe(2);
    });

    it("two failing systems in one tick are each reported once", async () => {
        const errors: Error[] = [];
        const { engine, log, systems } = await engine_with(["a", "b", "c"], { on_error: (e) => errors.push(e) });
        systems[0].fail = new Error("first");
        systems[2].fail = new Error("third");
        engine.tick(0);
        engine.tick(0);
        expect(log).toEqual(["a", "b", "c", "b"]);
        expect(errors.map((e) => (e as SystemError).system.name)).toEqual(["a", "c"]);
    });

    it("goes to the graphics engine's on_error when the engine has none; the engine's own takes precedence; a throwing callback is logged", async () => {
        const graphics_errors: Error[] = [];
        const { engine, systems } = await engine_with(["a"], { graphics: { on_error: (e) => graphics_errors.push(e) } });
        systems[0].fail = new Error("boom");
        engine.tick(0);
        expect(graphics_errors.map((e) => e.message)).toEqual(["System 'a' failed in update: boom; it is suspended until engine.retry_systems()"]);

        const own: Error[] = [];
        engine.on_error = (e) => own.push(e);
        engine.retry_systems();
        engine.tick(0);
        expect(own.length).toBe(1);
        expect(graphics_errors.length).toBe(1);

        const logged = vi.spyOn(console, "error").mockImplementation(() => {});
        try {
            engine.on_error = () => {
                throw new Error("callback broke");
            };
            engine.retry_systems();
            expect(() => engine.tick(0)).not.toThrow();
            expect(logged).toHaveBeenCalledTimes(1);
            expect(String(logged.mock.calls[0][0])).toContain("on_error callback threw");
            expect(engine.is_suspended(systems[0])).toBe(true);
        } finally {
            logged.mockRestore();
        }
    });

    it("with no callback anywhere, is logged with console.error, once", async () => {
        const { engine, systems } = await engine_with(["a"]);
        systems[0].fail = new Error("boom");
        const logged = vi.spyOn(console, "error").mockImplementation(() => {});
        try {
            engine.tick(0);
            engine.tick(0);
            expect(logged).toHaveBeenCalledTimes(1);
            expect(logged.mock.calls[0][0]).toBeInstanceOf(SystemError);
        } finally {
            logged.mockRestore();
        }
    });

    it("removed and added again, starts afresh (not suspended)", async () => {
        const errors: Error[] = [];
        const { engine, log, systems } = await engine_with(["a", "b"], { on_error: (e) => errors.push(e) });
        const [a] = systems;
        a.fail = new Error("boom");
        engine.tick(0);
        expect(engine.is_suspended(a)).toBe(true);
        await engine.remove_system(a);
        expect(engine.is_suspended(a)).toBe(false);
        a.fail = null;
        await engine.add_system(a);
        log.length = 0;
        engine.tick(0);
        expect(log).toEqual(["b", "a"]);
    });

    it("run() keeps driving frames: the others update every frame, the failure is reported once", async () => {
        const errors: Error[] = [];
        let pending: ((time_ms: number) => void) | null = null;
        // FAKE requestAnimationFrame: the test fires the frames
        const { engine, log, systems } = await engine_with(["a", "b"], {
            on_error: (e) => errors.push(e),
            request_frame: (callback) => ((pending = callback), 1),
            cancel_frame: () => (pending = null),
        });
        systems[0].fail = new Error("boom");
        engine.run();
        for (let f = 0; f < 4; f++) pending!(f * 16);
        expect(engine.running).toBe(true);
        expect(log).toEqual(["a", "b", "b", "b", "b"]);
        expect(errors.length).toBe(1);
        engine.stop_running();
    });
});

describe("systems added or removed during another system's update", () => {
    it("removing an earlier system: the next one still updates this tick", async () => {
        const { engine, log, systems } = await engine_with(["a", "b", "c", "d"]);
        const [a, b] = systems;
        b.act = () => {
            b.act = null;
            void engine.remove_system(a);
        };
        engine.tick(0);
        expect(log).toEqual(["a", "b", "c", "d"]);
        log.length = 0;
        engine.tick(0);
        expect(log).toEqual(["b", "c", "d"]);
    });

    it("removing itself: the next one still updates this tick", async () => {
        const { engine, log, systems } = await engine_with(["a", "b", "c"]);
        const [, b] = systems;
        b.act = () => void engine.remove_system(b);
        engine.tick(0);
        expect(log).toEqual(["a", "b", "c"]);
        log.length = 0;
        engine.tick(0);
        expect(log).toEqual(["a", "c"]);
    });

    it("removing a later system: it is not updated after its removal, the one after it is", async () => {
        const { engine, log, systems } = await engine_with(["a", "b", "c", "d"]);
        const [, b, c] = systems;
        b.act = () => void engine.remove_system(c);
        engine.tick(0);
        expect(log).toEqual(["a", "b", "d"]);
    });

    it("adding a system: every system updates this tick, the new one from the next", async () => {
        const { engine, log, systems } = await engine_with(["a", "b", "c"]);
        const [, b] = systems;
        const late = new Probe("late", log);
        let added: Promise<Probe> | null = null;
        b.act = () => {
            b.act = null;
            added = engine.add_system(late);
        };
        engine.tick(0);
        expect(log).toEqual(["a", "b", "c"]);
        await added;
        log.length = 0;
        engine.tick(0);
        expect(log).toEqual(["a", "b", "c", "late"]);
    });
});
