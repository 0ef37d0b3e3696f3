// Level loading: 10,000 entities, each with a Transform and a Trail3D-like component (bound numbers, a colour,
// an enum, a flag and 4 waypoints of side data), as JSON text (~2 MB) and as a parsed object. Figures: the
// median over rounds of load_level into a fresh engine (parse + TypeBox-compiled validation + descriptor
// checks + entity creation), of the validation alone (a level with one bad value in its last entity: the whole
// level is checked, then the error is built), of save_level, and the one-off schema compile of a new registry.
// No GPU.
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { Engine } from "../engine/Engine.js";
import { PerEntity } from "../engine/PerEntity.js";
import { define_component } from "../engine/level/ComponentDescriptor.js";
import { Field } from "../engine/level/Field.js";
import { load_level } from "../engine/level/load_level.js";
import { save_level } from "../engine/level/save_level.js";

const Trail = PerEntity.define({
    width: PerEntity.f32(),
    max_age: PerEntity.f32(),
    colour: PerEntity.f32(4),
    blend: PerEntity.u8(),
    spawning: PerEntity.u8(),
});
const waypoints: number[][][] = [];
const TrailDescriptor = define_component({
    name: "Trail3D",
    component: Trail,
    fields: {
        width: Field.number({ exclusive_minimum: 0 }),
        max_age: Field.number({ default: 2, minimum: 0 }),
        colour: Field.colour({ default: [1, 1, 1, 1] }),
        blend: Field.enum(["alpha", "additive"], { default: "alpha" }),
        spawning: Field.boolean({ default: true }),
        waypoints: Field.array(Field.vec3(), { default: [] }),
    },
    write(eid, value) {
        waypoints[eid] = value.waypoints.map((p) => [p[0], p[1], p[2]]);
    },
    read(eid) {
        return { waypoints: waypoints[eid] };
    },
});

const COUNT = 10_000;
const ROUNDS = 15;

function make_level(bad_last: boolean): { entities: Record<string, unknown>[] } {
    const entities: Record<string, unknown>[] = [];
    for (let i = 0; i < COUNT; i++) {
        const x = i * 0.25;
        entities.push({
            name: `e${i}`,
            Transform: { position: [x, 1.5, -x], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
            Trail3D: {
                width: bad_last && i === COUNT - 1 ? -1 : 0.1 + (i % 7) * 0.01,
                colour: [1, 0.5, 0.25, 1],
                blend: i % 2 === 0 ? "alpha" : "additive",
                waypoints: [
                    [x, 0, 0],
                    [x, 1, 0],
                    [x, 1, 1],
                    [x, 2, 1],
                ],
            },
        });
    }
    return { entities };
}

function fresh_engine(): Engine {
    const engine = new Engine();
    engine.entityManager.components.register(TrailDescriptor);
    return engine;
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
}

const level = make_level(false);
const text = JSON.stringify(level);
const bad = make_level(true);

// schema compile: the first load of a new registry
const compile_times: number[] = [];
for (let r = 0; r < 5; r++) {
    const engine = fresh_engine();
    const t0 = performance.now();
    load_level(engine, { entities: [] });
    compile_times.push(performance.now() - t0);
}

const from_text: number[] = [];
const from_object: number[] = [];
const validate_only: number[] = [];
const save: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
    let engine = fresh_engine();
    load_level(engine, { entities: [] }); // compile outside the timing
    let t0 = performance.now();
    load_level(engine, text);
    from_text.push(performance.now() - t0);

    t0 = performance.now();
    const saved = save_level(engine);
    save.push(performance.now() - t0);
    if (saved.entities.length !== COUNT) throw new Error("save_level lost entities");

    engine = fresh_engine();
    load_level(engine, { entities: [] });
    t0 = performance.now();
    load_level(engine, level);
    from_object.push(performance.now() - t0);

    t0 = performance.now();
    try {
        load_level(engine, bad);
        throw new Error("the bad level loaded");
    } catch (error) {
        if (!(error as Error).message.includes(`entities[${COUNT - 1}].Trail3D.width`)) throw error;
    }
    validate_only.push(performance.now() - t0);
}

console.log(`machine: ${cpus()[0]?.model ?? "unknown"} x ${cpus().length}, node ${process.version}`);
console.log(`level: ${COUNT} entities (Transform + Trail3D with 4 waypoints + name), ${(text.length / 1e6).toFixed(2)} MB of JSON text`);
console.log(`schema compile (new registry, first load): ${median(compile_times).toFixed(2)} ms`);
console.log(`load_level from text (parse + validate + create): ${median(from_text).toFixed(1)} ms`);
console.log(`load_level from a parsed object (validate + create): ${median(from_object).toFixed(1)} ms`);
console.log(`refused level (validate all ${COUNT}, error in the last): ${median(validate_only).toFixed(1)} ms`);
console.log(`save_level: ${median(save).toFixed(1)} ms`);
