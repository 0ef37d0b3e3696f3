import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { TransformDescriptor } from "../../../engine/components/TransformDescriptor.js";
import { EntityManager } from "../../../engine/EntityManager.js";
import { define_component, shortest_float32 } from "../../../engine/level/ComponentDescriptor.js";
import { Field } from "../../../engine/level/Field.js";
import { PerEntity } from "../../../engine/PerEntity.js";

const Glow = PerEntity.define({
    strength: PerEntity.f32(),
    tint: PerEntity.f32(4),
    mode: PerEntity.u8(),
    on: PerEntity.u8(),
    slot: PerEntity.i32(),
});
const labels: (string | undefined)[] = [];
const GlowDescriptor = define_component({
    name: "Glow",
    component: Glow,
    fields: {
        strength: Field.number({ default: 2, minimum: 0 }),
        tint: Field.colour(),
        mode: Field.enum(["add", "mix"], { default: "mix" }),
        on: Field.boolean({ default: true }),
        label: Field.string({ optional: true }),
    },
    write(eid, value) {
        labels[eid] = value.label;
    },
    read(eid) {
        return { label: labels[eid] };
    },
    reset(eid) {
        Glow.slot[eid] = -1;
        labels[eid] = undefined;
    },
});

describe("ComponentDescriptor", () => {
    it("writes a JSON value into the bound typed arrays and side data, and reads it back", () => {
        const em = new EntityManager();
        em.components.register(GlowDescriptor);
        const eid = em.create_entity();
        em.add_component(eid, Glow);
        expect(Glow.slot[eid]).toBe(-1);
        expect(Glow.strength[eid]).toBe(2);
        GlowDescriptor.write(eid, { tint: [1, 0.5, 0.25, 1.1 / 2], mode: "add", label: "hi" }, em);
        expect(Array.from(Glow.tint.subarray(eid * 4, eid * 4 + 4))).toEqual([1, 0.5, 0.25, Math.fround(0.55)]);
        expect(Glow.mode[eid]).toBe(0);
        expect(GlowDescriptor.read(eid, em)).toEqual({ strength: 2, tint: [1, 0.5, 0.25, 0.55], mode: "add", on: true, label: "hi" });
    });

    it("Transform starts at the identity when added", () => {
        const em = new EntityManager();
        const eid = em.create_entity();
        Transform.rotation[eid * 4 + 3] = 7;
        em.add_component(eid, Transform);
        expect(TransformDescriptor.read(eid, em)).toEqual({ position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] });
    });

    it("saves floats as the shortest decimal of the float32", () => {
        expect(shortest_float32(Math.fround(1.1))).toBe(1.1);
        expect(shortest_float32(Math.fround(-0.3333333))).toBe(-0.3333333);
    });

    it("refuses a field with no typed array and no write, naming component and field", () => {
        expect(() => define_component({ name: "Bad", component: { a: new Float32Array(3) }, fields: { a: Field.number() } })).toThrow(
            "define_component: Bad.a is a typed array that does not grow with the entity ids; declare the component with PerEntity.define({ a: PerEntity.f32(1), ... })",
        );
        expect(() => define_component({ name: "Bad", component: PerEntity.define({ a: PerEntity.f32(2) }), fields: { a: Field.vec3() } })).toThrow(
            "define_component: Bad.a holds 2 element(s) per entity; a vec3 field needs 3",
        );
        expect(() => define_component({ name: "Bad", component: {}, fields: { waypoints: Field.array(Field.vec3()) } })).toThrow(
            "define_component: Bad.waypoints: an array field is side data; give the descriptor write() and read() that store it",
        );
    });
});

describe("shortest_float32", () => {
    it("every float32 it returns reads back as the same float32, with no more digits than needed", () => {
        let state = 12345;
        for (let i = 0; i < 20000; i++) {
            state = (state * 1103515245 + 12345) >>> 0;
            const v = Math.fround((state / 2 ** 32 - 0.5) * 10 ** ((state % 13) - 6));
            const s = shortest_float32(v);
            expect(Math.fround(s)).toBe(v);
            const digits = s.toPrecision(9).replace(/e.*$/, "").replace(/[-.]/g, "").replace(/^0+/, "").replace(/0+$/, "").length;
            if (digits > 1) expect(Math.fround(Number(v.toPrecision(digits - 1)))).not.toBe(v);
        }
    });
});
