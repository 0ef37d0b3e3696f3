// A V8 CPU profile of a bench's timed frames, asked for with BENCH_CPU_PROFILE=<prefix> (what the scene benches
// share): `start` before the timed frames, `stop(name)` after them writes <prefix><name>.cpuprofile. Build the bench
// with --keep-names for readable function names.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

export class CpuProfile {
    readonly #prefix: string;
    readonly #session = new Session();

    private constructor(prefix: string) {
        this.#prefix = prefix;
    }

    /** A profiler connected and sampling every 100 us, or null when BENCH_CPU_PROFILE is not set. */
    static async from_env(): Promise<CpuProfile | null> {
        const prefix = process.env.BENCH_CPU_PROFILE;
        if (prefix === undefined) return null;
        const profile = new CpuProfile(prefix);
        profile.#session.connect();
        await profile.#session.post("Profiler.enable");
        await profile.#session.post("Profiler.setSamplingInterval", { interval: 100 });
        return profile;
    }

    async start(): Promise<void> {
        await this.#session.post("Profiler.start");
    }

    /** Stops, writes <prefix><name>.cpuprofile and disconnects. */
    async stop(name: string | number): Promise<void> {
        const { profile } = await this.#session.post("Profiler.stop");
        writeFileSync(`${this.#prefix}${name}.cpuprofile`, JSON.stringify(profile));
        this.#session.disconnect();
    }
}
