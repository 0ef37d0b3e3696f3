// Level-file fuzzing with a fixed seed: malformed levels generated from the schema of every registered component
// (wrong types, out of range, missing fields, unknown components, NaN, huge arrays, deep nesting, truncated JSON,
// a missing required component, numbers beyond their storage or a system's limit, ...). Every case must end in a LevelError naming a JSON path of the input, with the world unchanged (entity count
// and a checksum of every component array); afterwards the engine loads a good level and renders (one Dawn frame).
import { describe, expect, it } from "vitest";
import { Name } from "../../../engine/components/Name.js";
import { Engine } from "../../../engine/Engine.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { format_json_path } from "../../../engine/level/json_path.js";
import { level_schema } from "../../../engine/level/level_schema.js";
import { load_level } from "../../../engine/level/load_level.js";
import type { System } from "../../../engine/System.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { DebugDrawSystem } from "../../../systems/debug_draw/DebugDrawSystem.js";
import { DecalSystem } from "../../../systems/decals/DecalSystem.js";
import { FogOfWarSystem } from "../../../systems/fog_of_war/FogOfWarSystem.js";
import { HighlightSystem } from "../../../systems/highlight/HighlightSystem.js";
import { GPUParticleEmitterSystem } from "../../../systems/particles/GPUParticleEmitterSystem.js";
import { PathDisplaySystem } from "../../../systems/path_display/PathDisplaySystem.js";
import { TerrainSystem } from "../../../systems/terrain/TerrainSystem.js";
import { Trail3DSystem } from "../../../systems/trails/Trail3DSystem.js";
import { get_gpu, read_texture } from "../../harness/index.js";
import { PerEntity } from "../../../engine/PerEntity.js";
import { parse_json_path, resolved_depth } from "./json_path_walk.js";
import { LevelFuzzer, type FuzzKind } from "./level_fuzz.js";

const CASES = Number(process.env.FUZZ_CASES ?? 1200);
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed);
/** The leading part of each component array checked after every case: the slots of ids below 2048. */
const low = (): number => Math.min(1, 2048 / PerEntity.capacity);

type TypedArray = Float32Array | Float64Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array | Uint8ClampedArray;

/** Every typed array of every registered component (and Name's values), found by walking the component objects. */
function component_arrays(engine: Engine): TypedArray[] {
    const arrays: TypedArray[] = [];
    for (const descriptor of engine.entityManager.components.descriptors) {
        for (const value of Object.values(descriptor.component)) if (ArrayBuffer.isView(value) && !(value instanceof DataView)) arrays.push(value as TypedArray);
    }
    return arrays;
}

/**
 * FNV-style checksum over the bytes of every array, 4 at a time; with `fraction` < 1 only over that leading part
 * of each array (the slots of the lowest ids, where a level's new entities would land in this small world).
 */
function checksum(arrays: readonly TypedArray[], fraction = 1): number {
    let h = 0x811c9dc5;
    for (const array of arrays) {
        const words = new Int32Array(array.buffer, array.byteOffset, Math.floor((array.byteLength >> 2) * fraction));
        for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
        const bytes = new Uint8Array(array.buffer, array.byteOffset + words.byteLength, fraction === 1 ? array.byteLength & 3 : 0);
        for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    }
    return h >>> 0;
}

function names_checksum(): string {
    return JSON.stringify(Object.entries(Name.value as unknown as Record<string, string>).slice(0, 64));
}

async function fuzz_engine() {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(32, 32);
    // the fuzzer's "too many entities" levels hold 65,536 or more
    const engine = new Engine({ max_entities: 65_535, graphics: { gpu: get_gpu(), target, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false;
    const g = engine.graphics;
    const systems: System[] = [
        new Trail3DSystem(g),
        new PathDisplaySystem(g),
        new DebugDrawSystem(g),
        new GPUParticleEmitterSystem(g, { capacity: 1024 }),
        new TerrainSystem(g),
        new DecalSystem(g),
        new FogOfWarSystem(g),
        new HighlightSystem(g),
    ];
    for (const system of systems) await engine.add_system(system);
    return { engine, target, errors };
}

describe("load_level fuzzing", () => {
    it(`${CASES} malformed levels (seed ${SEED}): each a LevelError naming a path of the input, the world unchanged; then a good level renders`, async () => {
        const { engine, target, errors } = await fuzz_engine();
        const fuzzer = new LevelFuzzer(level_schema(engine.entityManager.components), SEED);
        if (process.env.FUZZ_BIG === "1") {
            fuzzer.huge_max = 200_000;
            fuzzer.deep_max = 1_000_000;
        }

        // a world that is not empty: a valid level loaded first (which also proves the generator's base is valid)
        for (let i = 0; i < 20; i++) load_level(engine, fuzzer.valid_level());
        expect(component_arrays(engine).length).toBeGreaterThan(20);
        // fetched again at each check: a store that grew has new arrays (a failed load must not grow any)
        const arrays = { get all() { return component_arrays(engine); } };
        const count = engine.entityManager.entity_count;
        const sum = checksum(arrays.all);
        const low_sum = checksum(arrays.all, low());
        const names = names_checksum();

        const kinds = new Map<FuzzKind, number>();
        const time = new Map<FuzzKind, number>();
        const failures: string[] = [];
        const started = performance.now();
        let generating = 0;
        for (let n = 0; n < CASES; n++) {
            const g0 = performance.now();
            const c = fuzzer.next();
            generating += performance.now() - g0;
            kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
            const label = `case ${c.index} (${c.kind}: ${c.what})`;
            let error: unknown = null;
            const t0 = performance.now();
            try {
                load_level(engine, c.source);
            } catch (thrown) {
                error = thrown;
            }
            time.set(c.kind, (time.get(c.kind) ?? 0) + performance.now() - t0);
            if (!(error instanceof LevelError)) {
                failures.push(`${label}: ${error === null ? "loaded without an error" : `threw ${String(error)}`}`);
                if (error === null) break; // the world changed: later checks would all fail with it
                continue;
            }
            // the path parses, the message names it, and it exists in the input
            const segments = parse_json_path(error.path);
            if (format_json_path(segments) !== error.path) failures.push(`${label}: path ${error.path} does not round-trip`);
            if (!error.message.startsWith(`load_level: ${error.path === "" ? "the level" : error.path}: `)) failures.push(`${label}: message does not name the path: ${error.message}`);
            const depth = resolved_depth(c.input, segments);
            const missing = /missing required field/.test(error.message);
            const cut = c.kind === "truncated JSON";
            let ok = depth === segments.length;
            if (!ok && (missing || cut) && depth === segments.length - 1) {
                const last = segments[segments.length - 1];
                const parent = segments.slice(0, -1).reduce<unknown>((node, s) => (node as Record<string | number, unknown>)[s], c.input);
                // a required field is absent; a cut key is the beginning of one that the whole text had
                ok = missing || typeof last === "number" || Object.keys(parent as object).some((key) => key.startsWith(String(last)));
            }
            if (!ok) failures.push(`${label}: path '${error.path}' is not in the input (resolves ${depth} of ${segments.length}): ${error.message}`);
            if (engine.entityManager.entity_count !== count) {
                failures.push(`${label}: entity count ${engine.entityManager.entity_count}, was ${count}`);
                break;
            }
            // the full checksum every 100th case and the last; the low slots every case
            if (checksum(arrays.all, low()) !== low_sum) {
                failures.push(`${label}: component arrays changed (low slots)`);
                break;
            }
            if (n % 100 === 0 || n === CASES - 1) {
                if (checksum(arrays.all) !== sum || names_checksum() !== names) {
                    failures.push(`${label}: component arrays changed`);
                    break;
                }
            }
        }
        const seconds = (performance.now() - started) / 1000;
        console.log(`fuzz: load_level time per kind: ${[...time].map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(", ")}`);
        console.log(`fuzz: ${CASES} cases in ${seconds.toFixed(2)} s (${(generating / 1000).toFixed(2)} s generating); ${[...kinds].map(([k, v]) => `${k} ${v}`).join(", ")}`);
        expect(failures.slice(0, 20)).toEqual([]);
        expect(kinds.size).toBeGreaterThanOrEqual(22); // every kind of damage was tried

        // the engine still works: a good level loads, and a frame renders on Dawn with nothing reported
        load_level(engine, { entities: [{ Path: { waypoints: [[-1, 0, 0], [1, 0, 0]] } }] });
        await engine.graphics.start();
        engine.tick(1 / 60);
        const image = await read_texture(engine.graphics.device!, target.acquire());
        expect(image.data.some((v, i) => i % 4 !== 3 && v > 0)).toBe(true);
        expect(errors).toEqual([]);
        await engine.shutdown();
    });
});
