// Level loading: validation errors (path and expected shape in the message), world unchanged on a throw,
// round trip. Device-independent: no GPU is involved.
import { describe, expect, it } from "vitest";
import { Name } from "../../../engine/components/Name.js";
import { Transform } from "../../../engine/components/Transform.js";
import { Engine } from "../../../engine/Engine.js";
import { PerEntity } from "../../../engine/PerEntity.js";
import { define_component } from "../../../engine/level/ComponentDescriptor.js";
import { Field } from "../../../engine/level/Field.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { level_to_json, save_level } from "../../../engine/level/save_level.js";

/** A Trail3D-like test component: bound fields, an enum, a flag, side data (waypoints) and a GPU slot. */
const Trail = PerEntity.define({
    width: PerEntity.f32(),
    max_age: PerEntity.f32(),
    colour: PerEntity.f32(4),
    blend: PerEntity.u8(),
    spawning: PerEntity.u8(),
    slot: PerEntity.i32(),
});
const waypoints: ([number, number, number][] | undefined)[] = [];
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
        if (value.width === 13) throw new Error("unlucky width");
        waypoints[eid] = value.waypoints.map((p) => [p[0], p[1], p[2]]);
    },
    read(eid) {
        return { waypoints: (waypoints[eid] ?? []).map((p) => [p[0], p[1], p[2]]) };
    },
    reset(eid) {
        Trail.slot[eid] = -1;
        waypoints[eid] = undefined;
    },
    check(value) {
        return value.blend === "additive" && value.colour[3] !== 1 ? { path: "colour[3]", expected: "alpha 1 with additive blending" } : null;
    },
});

function engine_with_trails(): Engine {
    const engine = new Engine();
    engine.entityManager.components.register(TrailDescriptor);
    return engine;
}

function error_of(engine: Engine, source: unknown): LevelError {
    try {
        load_level(engine, source);
    } catch (error) {
        expect(error).toBeInstanceOf(LevelError);
        return error as LevelError;
    }
    throw new Error("load_level did not throw");
}

const e = (entities: unknown[]): unknown => ({ entities });

describe("load_level: bad input", () => {
    const cases: { what: string; source: unknown; path: string; message: string }[] = [
        {
            what: "an unknown component",
            source: e([{ Transform: {} }, { Trial3D: { width: 1 } }]),
            path: "entities[1].Trial3D",
            message:
                "load_level: entities[1].Trial3D: unknown component 'Trial3D' (is its system added to the engine?); " +
                'expected "name", "parent" or a component: one of Transform, Trail3D',
        },
        {
            what: "an unknown field",
            source: e([{ Transform: { positon: [1, 2, 3] } }]),
            path: "entities[0].Transform.positon",
            message: "load_level: entities[0].Transform.positon: unknown field 'positon' of Transform; expected a Transform object { position?, rotation?, scale? }",
        },
        {
            what: "a wrong type",
            source: e([{}, {}, {}, { Trail3D: { width: "wide" } }]),
            path: "entities[3].Trail3D.width",
            message: 'load_level: entities[3].Trail3D.width: got "wide"; expected a finite number > 0',
        },
        {
            what: "a missing required field",
            source: e([{ Trail3D: { max_age: 1 } }]),
            path: "entities[0].Trail3D.width",
            message: "load_level: entities[0].Trail3D.width: missing required field 'width'; expected a finite number > 0",
        },
        {
            what: "NaN in a parsed object",
            source: e([{ Trail3D: { width: Number.NaN } }]),
            path: "entities[0].Trail3D.width",
            message: "load_level: entities[0].Trail3D.width: got NaN; expected a finite number > 0",
        },
        {
            what: "Infinity in a parsed object",
            source: e([{ Transform: { position: [0, Number.POSITIVE_INFINITY, 0] } }]),
            path: "entities[0].Transform.position[1]",
            message: "load_level: entities[0].Transform.position[1]: got Infinity; expected a finite number",
        },
        {
            what: "a huge literal in text (1e999 parses to Infinity)",
            source: '{ "entities": [ { "Trail3D": { "width": 1e999 } } ] }',
            path: "entities[0].Trail3D.width",
            message:
                "load_level: entities[0].Trail3D.width: got Infinity (a number literal beyond the range of a double, like 1e999); expected a finite number > 0",
        },
        {
            what: "a number out of range",
            source: e([{ Trail3D: { width: 0 } }]),
            path: "entities[0].Trail3D.width",
            message: "load_level: entities[0].Trail3D.width: got 0; expected a finite number > 0",
        },
        {
            what: "a vector of the wrong length",
            source: e([{ Transform: { scale: [1, 2] } }]),
            path: "entities[0].Transform.scale",
            message: "load_level: entities[0].Transform.scale: got [1,2]; expected [x, y, z]: 3 finite numbers",
        },
        {
            what: "a colour channel out of 0..1",
            source: e([{ Trail3D: { width: 1, colour: [1, 2, 0, 1] } }]),
            path: "entities[0].Trail3D.colour[1]",
            message: "load_level: entities[0].Trail3D.colour[1]: got 2; expected a number in 0..1",
        },
        {
            what: "a bad enum value",
            source: e([{ Trail3D: { width: 1, blend: "screen" } }]),
            path: "entities[0].Trail3D.blend",
            message: 'load_level: entities[0].Trail3D.blend: got "screen"; expected one of "alpha", "additive"',
        },
        {
            what: "a bad waypoint deep in an array field",
            source: e([{ Trail3D: { width: 1, waypoints: [[0, 0, 0], [1, null, 0]] } }]),
            path: "entities[0].Trail3D.waypoints[1][1]",
            message: "load_level: entities[0].Trail3D.waypoints[1][1]: got null; expected a finite number",
        },
        {
            what: "a zero quaternion (a field check beyond the schema)",
            source: e([{ Transform: { rotation: [0, 0, 0, 0] } }]),
            path: "entities[0].Transform.rotation",
            message: "load_level: entities[0].Transform.rotation: got [0,0,0,0]; expected [x, y, z, w]: a quaternion of 4 finite numbers, not all zero",
        },
        {
            what: "a descriptor's own check across fields",
            source: e([{ Trail3D: { width: 1, blend: "additive", colour: [1, 1, 1, 0.5] } }]),
            path: "entities[0].Trail3D.colour[3]",
            message: "load_level: entities[0].Trail3D.colour[3]: got 0.5; expected alpha 1 with additive blending",
        },
        {
            what: "a name that is not a string",
            source: e([{ name: 3 }]),
            path: "entities[0].name",
            message: "load_level: entities[0].name: got 3; expected a string",
        },
        {
            what: "no entities array",
            source: { entitys: [] },
            path: "entities",
            message: "load_level: entities: missing required field 'entities'; expected an array of entity objects",
        },
        {
            what: "a wrong version",
            source: { version: 2, entities: [] },
            path: "version",
            message: "load_level: version: got 2; expected 1",
        },
        {
            what: "not an object at all",
            source: [1, 2],
            path: "",
            message:
                'load_level: the level: got [1,2]; expected a level object { "version"?: 1, "entities": [ { "name"?: string, "parent"?: string, "<Component>": {...} } ] }',
        },
    ];
    for (const c of cases) {
        it(`${c.what}: names ${c.path || "the level"} and the expected shape`, () => {
            const error = error_of(engine_with_trails(), c.source);
            expect(error.message).toBe(c.message);
            expect(error.path).toBe(c.path);
        });
    }

    it("truncated JSON text: a syntax error with line, column, offset and the path where it broke", () => {
        const text = '{\n  "entities": [\n    { "Transform": { "position": [1, 2';
        const error = error_of(engine_with_trails(), text);
        expect(error.path).toBe("entities[0].Transform.position[1]");
        expect(error.position).toBe(text.length);
        expect(error.message).toMatch(/^load_level: entities\[0\]\.Transform\.position\[1\]: the text is not valid JSON at line 3, column 39 \(offset 56\): /);
        expect(error.message).toMatch(/; expected complete JSON text of a level object/);
    });

    it("malformed JSON text in the middle: the offset of the bad character", () => {
        const text = '{ "entities": [ { "name": "a" }, { "name" "b" } ] }';
        const error = error_of(engine_with_trails(), text);
        expect(error.position).toBe(text.indexOf('"b"'));
        expect(error.path).toBe("entities[1].name");
        expect(error.message).toContain("line 1, column 43 (offset 42)");
    });

    it("empty text", () => {
        const error = error_of(engine_with_trails(), "");
        expect(error.path).toBe("");
        expect(error.message).toMatch(/^load_level: the level: the text is not valid JSON at line 1, column 1 \(offset 0\)/);
    });

    it("more entities than fit: refused before any is made, naming the capacity", () => {
        const engine = new Engine({ max_entities: 5 });
        engine.entityManager.create_entity();
        const entities = Array.from({ length: 5 }, () => ({}));
        const error = error_of(engine, e(entities));
        expect(error.path).toBe("entities");
        expect(error.message).toBe(
            "load_level: entities: 5 entities do not fit beside the 1 alive in a world of capacity 5; expected at most 4 entities (new Engine({ max_entities }) sets the capacity)",
        );
        expect(engine.entityManager.entity_count).toBe(1);
        expect(load_level(engine, e(entities.slice(1)))).toHaveLength(4);
    });
});

/** Everything a failed load could have touched. */
function snapshot(engine: Engine): unknown {
    return {
        count: engine.entityManager.entity_count,
        ids: engine.entityManager.entities(),
        arrays: [Transform.position, Transform.rotation, Transform.scale, ...Object.values(Trail)].map((a) => Array.from(a.subarray(0, 64))),
        side: JSON.stringify(waypoints.slice(0, 64)),
        names: JSON.stringify(Name.value.slice(0, 64)),
    };
}

describe("load_level: the world is unchanged on a throw", () => {
    it("no entity added and no component value changed, whichever entity is bad", () => {
        const engine = engine_with_trails();
        load_level(engine, e([{ name: "a", Transform: { position: [1, 2, 3] }, Trail3D: { width: 1, waypoints: [[1, 1, 1]] } }]));
        // the removed entity's id is the next to be recycled: a partial load would write into its slots
        const doomed = load_level(engine, e([{ Transform: { position: [4, 4, 4] } }]))[0];
        engine.entityManager.remove_entity(doomed);
        const before = snapshot(engine);
        const bad_levels = [
            e([{ Transform: { position: [9, 9, 9] }, Trail3D: { width: 2 } }, { Trail3D: { width: -1 } }]),
            e([{ name: "x", Transform: {} }, { Transform: { rotation: [0, 0, 0, 0] } }]),
            e([{ Trail3D: { width: 3, waypoints: [[5, 5, 5]] } }, { Bogus: {} }]),
            '{ "entities": [ { "Transform": { "position": [7, 7, 7] } }, { "Trail3D": { "width": 1e999 } } ] }',
            '{ "entities": [ { "Transform": { "position": [7, 7, 7] } },',
        ];
        for (const level of bad_levels) {
            expect(() => load_level(engine, level)).toThrow(LevelError);
            expect(snapshot(engine)).toEqual(before);
        }
    });

    it("a descriptor write that throws midway: the entities made so far are taken out again", () => {
        const engine = engine_with_trails();
        const count = engine.entityManager.entity_count;
        expect(() => load_level(engine, e([{ Trail3D: { width: 1 } }, { Trail3D: { width: 13 } }]))).toThrow("unlucky width");
        expect(engine.entityManager.entity_count).toBe(count);
    });
});

describe("load_level / save_level: round trip", () => {
    const level = {
        version: 1,
        entities: [
            {
                name: "ship",
                Transform: { position: [1.1, -2.5, 3], rotation: [0, 0.7071068, 0, 0.7071068], scale: [1, 1, 1] },
                Trail3D: { width: 0.3, max_age: 1.5, colour: [1, 0.5, 0.25, 1], blend: "additive", spawning: false, waypoints: [[0, 0, 0], [0.1, 0.2, 0.3]] },
            },
            { Transform: { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [2, 2, 2] } },
            { name: "marker" },
        ],
    };

    it("load -> save gives back the same level (float32 values saved as their shortest decimals)", () => {
        const engine = engine_with_trails();
        const ids = load_level(engine, JSON.stringify(level));
        expect(ids.length).toBe(3);
        expect(Transform.position[ids[0] * 3]).toBe(Math.fround(1.1));
        expect(Trail.blend[ids[0]]).toBe(1);
        expect(Trail.slot[ids[0]]).toBe(-1);
        expect(save_level(engine)).toEqual(level);
        expect(JSON.parse(level_to_json(engine))).toEqual(level);
    });

    it("left-out fields are saved with their defaults, and that saves back to itself", () => {
        const engine = engine_with_trails();
        load_level(engine, e([{ Transform: {}, Trail3D: { width: 1 } }]));
        const saved = save_level(engine);
        expect(saved.entities[0]).toEqual({
            Transform: { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
            Trail3D: { width: 1, max_age: 2, colour: [1, 1, 1, 1], blend: "alpha", spawning: true, waypoints: [] },
        });
        const again = engine_with_trails();
        load_level(again, level_to_json(engine));
        expect(save_level(again)).toEqual(saved);
    });

    it("a bare entity (no name, no component with a descriptor) is left out of the save, not written as {}", () => {
        const engine = engine_with_trails();
        const em = engine.entityManager;
        // dirty input: bare entities in the level, between and after named ones
        load_level(engine, e([{}, { name: "a" }, {}, { Transform: {} }, {}]));
        // and from code: a bare entity, and one whose only component has no descriptor
        em.create_entity();
        const untracked = PerEntity.define({ hp: PerEntity.f32() });
        em.add_component(em.create_entity(), untracked);
        const saved = save_level(engine);
        expect(saved.entities).toEqual([{ name: "a" }, { Transform: { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } }]);
        // and the save loads back to itself
        const again = engine_with_trails();
        load_level(again, JSON.parse(JSON.stringify(saved)));
        expect(save_level(again)).toEqual(saved);
    });

    it("a system's on_add observer sees the level's values, not the defaults", () => {
        const engine = engine_with_trails();
        const seen: [number, string | undefined][] = [];
        engine.entityManager.on_add(Trail, (eid) => seen.push([Trail.width[eid], waypoints[eid] && JSON.stringify(waypoints[eid])]));
        load_level(engine, e([{ Trail3D: { width: 0.75, waypoints: [[1, 2, 3]] } }]));
        expect(seen).toEqual([[0.75, "[[1,2,3]]"]]);
    });

    it("a component registered later is known from then on (the compiled schema is rebuilt)", () => {
        const engine = new Engine();
        expect(() => load_level(engine, e([{ Trail3D: { width: 1 } }]))).toThrow("unknown component 'Trail3D'");
        engine.entityManager.components.register(TrailDescriptor);
        engine.entityManager.components.register(TrailDescriptor); // a second time: a no-op
        expect(load_level(engine, e([{ Trail3D: { width: 1 } }])).length).toBe(1);
    });
});
