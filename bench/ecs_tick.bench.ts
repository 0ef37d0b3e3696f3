// Engine.tick with N empty systems (N = 0, 1, 10, 100) and with 10 systems each reading a registered query of
// 1,000 entities: the CPU cost of the system loop itself. The graphics engine is not started (render()
// returns at once). Timing: configurations interleaved round by round, one performance.now() pair per batch;
// the figure is the median over rounds of the batch mean. Young-generation GCs counted over 1M ticks at N = 100.
import { cpus } from "node:os";
import { constants, PerformanceObserver, performance } from "node:perf_hooks";
import { Transform } from "../engine/components/Transform.js";
import { Engine } from "../engine/Engine.js";
import type { EntityManager } from "../engine/EntityManager.js";
import type { EntityQuery } from "../engine/EntityQuery.js";
import { System } from "../engine/System.js";

class EmptySystem extends System {
    readonly name: string;
    constructor(i: number) {
        super();
        this.name = `empty ${i}`;
    }
}

const TERMS = [Transform];
class QuerySystem extends System {
    readonly name: string;
    sum = 0;
    #query: EntityQuery | null = null;
    constructor(i: number) {
        super();
        this.name = `query ${i}`;
    }
    override async startup(entityManager: EntityManager): Promise<void> {
        this.#query = entityManager.register_query(TERMS);
    }
    override update(dt: number): void {
        const entities = this.#query!.entities;
        let sum = 0;
        for (let i = 0; i < entities.length; i++) sum += Transform.position[entities[i] * 3] * dt;
        this.sum = sum;
    }
}

async function engine_with(n: number, make: (i: number) => System, entities = 0): Promise<Engine> {
    const engine = new Engine();
    for (let i = 0; i < n; i++) await engine.add_system(make(i));
    for (let i = 0; i < entities; i++) engine.entityManager.add_component(engine.entityManager.create_entity(), Transform);
    return engine;
}

const configs: { label: string; engine: Engine; batch: number }[] = [];
for (const n of [0, 1, 10, 100]) configs.push({ label: `${n} empty systems`, engine: await engine_with(n, (i) => new EmptySystem(i)), batch: 20_000 });
configs.push({ label: "10 systems x query of 1,000 entities", engine: await engine_with(10, (i) => new QuerySystem(i), 1000), batch: 500 });

const ROUNDS = 25;
const samples = configs.map((): number[] => []);
for (let round = 0; round < ROUNDS; round++) {
    for (let c = 0; c < configs.length; c++) {
        const { engine, batch } = configs[c];
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) engine.tick(1 / 60);
        samples[c].push(((performance.now() - t0) * 1e6) / batch);
    }
}

let young = 0;
const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if ((entry as unknown as { detail: { kind: number } }).detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) young++;
});
(globalThis as { gc?: () => void }).gc?.();
observer.observe({ entryTypes: ["gc"] });
const hundred = configs[3].engine;
for (let i = 0; i < 1_000_000; i++) hundred.tick(1 / 60);
await new Promise((resolve) => setTimeout(resolve, 100));
observer.disconnect();

console.log(`machine: ${cpus()[0]?.model ?? "unknown"} x ${cpus().length}, node ${process.version}`);
for (let c = 0; c < configs.length; c++) {
    const sorted = samples[c].sort((a, b) => a - b);
    console.log(`tick, ${configs[c].label}: ${sorted[sorted.length >> 1].toFixed(0)} ns`);
}
console.log(`young-generation GCs over 1,000,000 ticks with 100 empty systems: ${young}`);
