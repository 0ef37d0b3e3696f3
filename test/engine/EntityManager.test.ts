// EntityManager over a bitecs 0.4 world: device-independent. The "GPU slot pool" here is a fake (a free list
// of numbers) standing in for a system's GPU pool.
import { Not } from "bitecs";
import { describe, expect, it } from "vitest";
import { Transform } from "../../engine/components/Transform.js";
import { EntityManager, MAX_ENTITIES } from "../../engine/EntityManager.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";

/** A Trail-like component: level data plus the GPU slot its system gave the entity. */
const Ribbon = {
    width: new Float32Array(MAX_ENTITIES),
    colour: new Float32Array(MAX_ENTITIES * 4),
    slot: new Int32Array(MAX_ENTITIES),
};
const RibbonDescriptor = define_component({
    name: "Ribbon",
    component: Ribbon,
    fields: { width: Field.number({ default: 0.5 }), colour: Field.colour({ default: [1, 1, 1, 1] }) },
    reset(eid) {
        Ribbon.slot[eid] = -1;
    },
});

/** A fake GPU slot pool: what a trail system would keep on the device. */
class FakeSlotPool {
    readonly free: number[] = [];
    next = 0;
    owner = new Map<number, number>();
    allocate(eid: number): number {
        const slot = this.free.pop() ?? this.next++;
        this.owner.set(slot, eid);
        return slot;
    }
    release(slot: number): void {
        this.owner.delete(slot);
        this.free.push(slot);
    }
}

/** What a trail system does: a slot for each new Ribbon, freed by the removal observer. */
function ribbon_system(em: EntityManager, pool: FakeSlotPool): () => void {
    em.components.register(RibbonDescriptor);
    const off_add = em.on_add(Ribbon, (eid) => {
        if (Ribbon.slot[eid] === -1) Ribbon.slot[eid] = pool.allocate(eid);
    });
    const off_remove = em.on_remove(Ribbon, (eid) => {
        if (Ribbon.slot[eid] !== -1) pool.release(Ribbon.slot[eid]);
        Ribbon.slot[eid] = -1;
    });
    return () => {
        off_add();
        off_remove();
    };
}

describe("EntityManager: recycled ids", () => {
    it("an entity that gets a removed entity's id sees none of its values and none of its GPU slot", () => {
        const em = new EntityManager();
        const pool = new FakeSlotPool();
        ribbon_system(em, pool);
        const keep = em.create_entity();
        em.add_component(keep, Ribbon);
        const old = em.create_entity();
        em.add_component(old, Ribbon);
        Ribbon.width[old] = 7;
        Ribbon.colour.set([0.1, 0.2, 0.3, 0.4], old * 4);
        const old_slot = Ribbon.slot[old];
        expect(pool.owner.get(old_slot)).toBe(old);

        em.remove_entity(old);
        expect(pool.owner.has(old_slot)).toBe(false);

        const fresh = em.create_entity();
        expect(fresh).toBe(old); // bitecs recycles at once: the case under test
        expect(em.has_component(fresh, Ribbon)).toBe(false);
        em.add_component(fresh, Ribbon);
        expect(Ribbon.width[fresh]).toBe(0.5);
        expect(Array.from(Ribbon.colour.subarray(fresh * 4, fresh * 4 + 4))).toEqual([1, 1, 1, 1]);
        // a slot of its own, from the pool, not a stale index
        expect(pool.owner.get(Ribbon.slot[fresh])).toBe(fresh);
        expect(Ribbon.slot[fresh]).not.toBe(Ribbon.slot[keep]);
    });

    it("a component without a descriptor has its typed arrays zeroed on add, or its own reset run", () => {
        const em = new EntityManager();
        const Heat = { value: new Float32Array(MAX_ENTITIES), pair: new Uint16Array(MAX_ENTITIES * 2), other: new Float32Array(3) };
        const Slot = { index: new Int32Array(MAX_ENTITIES) };
        em.set_component_reset(Slot, (eid) => {
            Slot.index[eid] = -1;
        });
        const a = em.create_entity();
        em.add_component(a, Heat);
        em.add_component(a, Slot);
        Heat.value[a] = 3;
        Heat.pair[a * 2 + 1] = 9;
        Heat.other[0] = 5;
        Slot.index[a] = 4;
        em.remove_entity(a);
        const b = em.create_entity();
        expect(b).toBe(a);
        em.add_component(b, Heat);
        em.add_component(b, Slot);
        expect(Heat.value[b]).toBe(0);
        expect(Heat.pair[b * 2 + 1]).toBe(0);
        expect(Heat.other[0]).toBe(5); // not per-entity: left alone
        expect(Slot.index[b]).toBe(-1);
    });

    it("an id kept elsewhere with its generation is no longer current once the id is recycled", () => {
        const em = new EntityManager();
        const owner = em.create_entity();
        const kept = { eid: owner, generation: em.generation(owner) };
        expect(em.is_current(kept.eid, kept.generation)).toBe(true);
        em.remove_entity(owner);
        expect(em.is_current(kept.eid, kept.generation)).toBe(false);
        const other = em.create_entity();
        expect(other).toBe(owner);
        expect(em.is_current(kept.eid, kept.generation)).toBe(false);
        expect(em.is_current(other, em.generation(other))).toBe(true);
    });

    it("adding a component the entity already has changes nothing", () => {
        const em = new EntityManager();
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        Transform.position[eid * 3] = 4;
        expect(em.add_component(eid, Transform)).toBe(false);
        expect(Transform.position[eid * 3]).toBe(4);
    });
});

describe("EntityManager: observers", () => {
    it("on_remove runs for remove_component and for remove_entity, while the data is readable; unsubscribe stops it", () => {
        const em = new EntityManager();
        const seen: [number, number][] = [];
        const off = em.on_remove(Transform, (eid) => seen.push([eid, Transform.position[eid * 3]]));
        const a = em.create_entity();
        const b = em.create_entity();
        em.add_component(a, Transform);
        em.add_component(b, Transform);
        Transform.position[a * 3] = 11;
        Transform.position[b * 3] = 22;
        expect(em.remove_component(a, Transform)).toBe(true);
        expect(em.remove_component(a, Transform)).toBe(false);
        em.remove_entity(b);
        expect(seen).toEqual([
            [a, 11],
            [b, 22],
        ]);
        off();
        em.add_component(a, Transform);
        em.remove_entity(a);
        expect(seen.length).toBe(2);
    });

    it("on_add runs after the reset (a recycled id never shows old values to it)", () => {
        const em = new EntityManager();
        const scales: number[] = [];
        em.on_add(Transform, (eid) => scales.push(Transform.scale[eid * 3]));
        const a = em.create_entity();
        em.add_component(a, Transform);
        Transform.scale[a * 3] = 9;
        em.remove_entity(a);
        em.add_component(em.create_entity(), Transform);
        expect(scales).toEqual([1, 1]);
    });

    it("errors name the missing entity", () => {
        const em = new EntityManager();
        expect(() => em.remove_entity(999)).toThrow("EntityManager.remove_entity: entity 999 does not exist");
        expect(() => em.add_component(999, Transform)).toThrow("EntityManager.add_component: entity 999 does not exist");
        expect(() => em.remove_component(999, Transform)).toThrow("EntityManager.remove_component: entity 999 does not exist");
    });
});

describe("EntityManager: registered queries", () => {
    const TERMS = [Transform];
    it("a registered query follows adds and removals without a query() call", () => {
        const em = new EntityManager();
        const q = em.register_query(TERMS);
        const none = em.register_query([Not(Transform)]);
        const a = em.create_entity();
        const b = em.create_entity();
        em.add_component(a, Transform);
        em.add_component(b, Transform);
        expect([...q.entities].sort()).toEqual([a, b]);
        em.remove_entity(a);
        expect([...q.entities]).toEqual([b]);
        em.remove_component(b, Transform);
        expect(q.count).toBe(0);
        expect([...none.entities]).toEqual([b]);
        // the same array every time: nothing allocated per read
        expect(q.entities).toBe(q.entities);
    });
});

describe("EntityManager: capacity", () => {
    it("refuses more than MAX_ENTITIES - 1 live entities, naming the limit", () => {
        const em = new EntityManager();
        for (let i = 1; i < MAX_ENTITIES; i++) em.create_entity();
        expect(em.entity_count).toBe(MAX_ENTITIES - 1);
        expect(() => em.create_entity()).toThrow(`EntityManager.create_entity: more than ${MAX_ENTITIES - 1} entities are alive`);
        expect(em.entity_count).toBe(MAX_ENTITIES - 1);
    });
});
