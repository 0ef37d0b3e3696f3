// What a field's storage holds: a level value the schema accepts but the typed array cannot hold as it is (a
// float32 beyond its range, rounded out of the field's bounds, an integer beyond its array type) is refused with a
// LevelError naming the path, and every value that loads saves back as a level that loads again to the same.
// Device-independent: no GPU is involved.
import { describe, expect, it } from "vitest";
import { Engine } from "../../../engine/Engine.js";
import { PerEntity } from "../../../engine/PerEntity.js";
import { define_component } from "../../../engine/level/ComponentDescriptor.js";
import { Field } from "../../../engine/level/Field.js";
import { FLOAT32_MAX } from "../../../engine/level/field_storage.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { save_level } from "../../../engine/level/save_level.js";
import { HighlightDescriptor } from "../../../systems/highlight/HighlightDescriptor.js";
import { ParticleEmitterDescriptor } from "../../../systems/particles/ParticleEmitterDescriptor.js";
import { PathDescriptor } from "../../../systems/path_display/PathDescriptor.js";
import { TerrainDescriptor } from "../../../systems/terrain/TerrainDescriptor.js";

/** Every storage kind: float32 with and without bounds, integers in 8, 16 and 32 bits, signed and not. */
const Probe = PerEntity.define({
    speed: PerEntity.f32(),
    width: PerEntity.f32(),
    angle: PerEntity.f32(),
    offset: PerEntity.f32(3),
    count: PerEntity.u32(),
    level: PerEntity.u8(),
    delta: PerEntity.i16(),
    steps: PerEntity.f32(),
    precise: PerEntity.f64(),
    fraction: PerEntity.f32(),
});
const ProbeDescriptor = define_component({
    name: "Probe",
    component: Probe,
    fields: {
        speed: Field.number({ default: 0 }),
        width: Field.number({ default: 1, exclusive_minimum: 0 }),
        angle: Field.number({ default: 0, minimum: 0, maximum: Math.fround(Math.PI) }),
        offset: Field.vec3({ default: [0, 0, 0] }),
        count: Field.integer({ default: 0, minimum: 0 }),
        level: Field.integer({ default: 0, minimum: 0 }),
        delta: Field.integer({ default: 0 }),
        steps: Field.integer({ default: 0 }),
        precise: Field.number({ default: 0 }),
        // a bound whose shortest decimal (0.7) lies above it: saved as the exact double instead
        fraction: Field.number({ default: 0, maximum: Math.fround(0.7) }),
    },
});

function engine(): Engine {
    const e = new Engine();
    for (const d of [ProbeDescriptor, HighlightDescriptor, ParticleEmitterDescriptor, TerrainDescriptor, PathDescriptor]) e.entityManager.components.register(d);
    return e;
}

function refused(source: unknown): LevelError {
    const e = engine();
    try {
        load_level(e, source);
    } catch (error) {
        expect(error).toBeInstanceOf(LevelError);
        expect(e.entityManager.entity_count).toBe(0);
        return error as LevelError;
    }
    throw new Error(`load_level accepted ${JSON.stringify(source)}`);
}

const one = (component: string, value: unknown, extra: Record<string, unknown> = {}): unknown => ({ entities: [{ name: "first" }, { ...extra, [component]: value }] });

describe("what the storage of a field holds", () => {
    it("a float32 field refuses a number beyond the float32 range (which would save as null), naming the path", () => {
        const error = refused(one("Probe", { speed: 1e39 }));
        expect(error.path).toBe("entities[1].Probe.speed");
        expect(error.message).toBe(`load_level: entities[1].Probe.speed: got 1e+39; expected a number a Float32Array holds (magnitude at most ${FLOAT32_MAX})`);
        expect(refused(one("Probe", { offset: [0, -3.5e38, 0] })).path).toBe("entities[1].Probe.offset[1]");
        expect(refused(one("Transform", { position: [1e39, 0, 0] })).path).toBe("entities[1].Transform.position[0]");
        expect(refused(one("Transform", { rotation: [0, 1e39, 0, 1] })).path).toBe("entities[1].Transform.rotation[1]");
    });

    it("a positive float32 field refuses a number that float32 rounds to 0 (which would save as a width the loader refuses)", () => {
        const error = refused(one("Probe", { width: 1e-50 }));
        expect(error.message).toBe("load_level: entities[1].Probe.width: got 1e-50; expected a finite number > 0 once stored as a float32 (1e-50 is stored as 0)");
        expect(refused(one("Highlight", { width: 1e-46 })).path).toBe("entities[1].Highlight.width");
    });

    it("an integer field refuses what its array type cannot hold, naming the range and the array", () => {
        expect(refused(one("Probe", { count: 2 ** 32 })).message).toBe(
            "load_level: entities[1].Probe.count: got 4294967296; expected an integer in 0..4294967295 (what a Uint32Array holds)",
        );
        expect(refused(one("Probe", { level: 256 })).message).toContain("expected an integer in 0..255 (what a Uint8Array holds)");
        expect(refused(one("Probe", { delta: -32769 })).message).toContain("expected an integer in -32768..32767 (what a Int16Array holds)");
        expect(refused(one("Probe", { steps: 16777217 })).message).toContain("expected an integer a Float32Array holds exactly (magnitude at most 16777216)");
        expect(refused(one("ParticleEmitter", { burst: 2 ** 32 }, { Transform: {} })).path).toBe("entities[1].ParticleEmitter.burst");
    });

    it("side data the descriptor keeps as float32 (terrain heights, path waypoints) is checked item by item", () => {
        const heights = refused(one("Terrain", { resolution: 2, heights: [0, 1, 1e39, 0] }, { Transform: {} }));
        expect(heights.message).toBe(`load_level: entities[1].Terrain.heights[2]: got 1e+39; expected a number a Float32Array holds (magnitude at most ${FLOAT32_MAX})`);
        const waypoints = refused(one("Path", { waypoints: [[0, 0, 0], [1, 0, -1e40]] }));
        expect(waypoints.path).toBe("entities[1].Path.waypoints[1][2]");
    });

    it("a float64 field keeps what a double holds", () => {
        const e = engine();
        const [eid] = load_level(e, one("Probe", { precise: 1e300 }) as object).slice(1);
        expect(Probe.precise[eid]).toBe(1e300);
    });

    it("the values at the edges load, save, and load again to the same level", () => {
        const values = {
            speed: FLOAT32_MAX,
            width: 1.401298464324817e-45, // the smallest positive float32
            angle: Math.PI, // the bound is Math.fround(Math.PI): pi is stored as it
            offset: [-FLOAT32_MAX, 0.1, 1e-40],
            count: 2 ** 32 - 1,
            level: 255,
            delta: -32768,
            steps: 16777216,
            precise: 0.1,
            fraction: Math.fround(0.7),
        };
        const first = engine();
        load_level(first, { entities: [{ Probe: values }, { ParticleEmitter: { cone_angle: Math.PI }, Transform: {} }, { Highlight: { width: 256 } }] });
        const saved = save_level(first);
        const second = engine();
        load_level(second, JSON.parse(JSON.stringify(saved)));
        expect(save_level(second)).toEqual(saved);
        // nothing became null or moved out of its bounds on the way
        const probe = saved.entities[0].Probe as Record<string, unknown>;
        expect(probe.speed).toBe(FLOAT32_MAX);
        expect(probe.width).toBeGreaterThan(0);
        expect(probe.angle as number).toBeLessThanOrEqual(Math.fround(Math.PI));
        expect(probe.fraction).toBe(Math.fround(0.7));
    });
});

describe("a value over its field's maximum (behaviour, not the schema file)", () => {
    it("is refused naming the path and the maximum, for numbers and integers, real descriptors and the probe", () => {
        expect(refused(one("Highlight", { width: 256.5 })).message).toBe("load_level: entities[1].Highlight.width: got 256.5; expected a finite number > 0 and <= 256");
        expect(refused(one("Probe", { angle: 3.2 })).message).toBe(`load_level: entities[1].Probe.angle: got 3.2; expected a finite number >= 0 and <= ${Math.fround(Math.PI)}`);
        expect(refused(one("ParticleEmitter", { frame_start: 8 }, { Transform: {} })).message).toBe(
            "load_level: entities[1].ParticleEmitter.frame_start: got 8; expected an integer >= 0 and <= 7",
        );
        expect(refused(one("Terrain", { resolution: 1026 }, { Transform: {} })).path).toBe("entities[1].Terrain.resolution");
        // at the maximum: accepted
        expect(load_level(engine(), one("Highlight", { width: 256 }) as object).length).toBe(2);
    });
});

describe("define_component refuses bindings that could not round-trip", () => {
    it("a number field on an integer array, a float32 field with a bound float32 cannot store, an enum too big for its array", () => {
        expect(() => define_component({ name: "Bad", component: PerEntity.define({ x: PerEntity.u8() }), fields: { x: Field.number({ default: 0 }) } })).toThrow(
            "define_component: Bad.x: a number field is bound to a Uint8Array, which would truncate it; use Field.integer or a Float32Array",
        );
        expect(() => define_component({ name: "Bad", component: PerEntity.define({ x: PerEntity.f32() }), fields: { x: Field.number({ default: 0, maximum: Math.PI }) } })).toThrow(
            `define_component: Bad.x: its maximum ${Math.PI} is not a float32 value, and the field is stored in a Float32Array; use Math.fround(${Math.PI})`,
        );
        const values = Array.from({ length: 257 }, (_, i) => `v${i}`);
        expect(() => define_component({ name: "Bad", component: PerEntity.define({ x: PerEntity.u8() }), fields: { x: Field.enum(values, { default: "v0" }) } })).toThrow(
            "define_component: Bad.x: 257 enum values do not fit a Uint8Array (at most 256)",
        );
    });
});
