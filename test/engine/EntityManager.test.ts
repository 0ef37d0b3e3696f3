// EntityManager over a bitecs 0.4 world: device-independent. The "GPU slot pool" here is a fake (a free list
// of numbers) standing in for a system's GPU pool.
import { Not } from "bitecs";
import { describe, expect, it } from "vitest";
import { Transform } from "../../engine/components/Transform.js";
import { Engine } from "../../engine/Engine.js";
import { DEFAULT_MAX_ENTITIES, EntityManager } from "../../engine/EntityManager.js";
import { PerEntity } from "../../engine/PerEntity.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";

/** A Trail-like component: level data plus the GPU slot its system gave the entity. */
const Ribbon = PerEntity.define({
    width: PerEntity.f32(),
    colour: PerEntity.f32(4),
    slot: PerEntity.i32(),
});
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

    it("a component without a descriptor has its slots put back to the stores' fill values on add, or its own reset run", () => {
        const em = new EntityManager();
        const Heat = PerEntity.define({ value: PerEntity.f32(), pair: PerEntity.u16(2), slot: PerEntity.i32(1, -1), label: PerEntity.value<string | undefined>(undefined) });
        const Slot = PerEntity.define({ index: PerEntity.i32() });
        em.set_component_reset(Slot, (eid) => {
            Slot.index[eid] = -1;
        });
        const a = em.create_entity();
        em.add_component(a, Heat);
        em.add_component(a, Slot);
        Heat.value[a] = 3;
        Heat.pair[a * 2 + 1] = 9;
        Heat.slot[a] = 2;
        Heat.label[a] = "hot";
        Slot.index[a] = 4;
        em.remove_entity(a);
        const b = em.create_entity();
        expect(b).toBe(a);
        em.add_component(b, Heat);
        em.add_component(b, Slot);
        expect(Heat.value[b]).toBe(0);
        expect(Heat.pair[b * 2 + 1]).toBe(0);
        expect(Heat.slot[b]).toBe(-1);
        expect(Heat.label[b]).toBeUndefined();
        expect(Slot.index[b]).toBe(-1);
    });

    it("refuses a component whose typed arrays do not grow with the entity ids, naming the array", () => {
        const em = new EntityManager();
        const eid = em.create_entity();
        const Fixed = { heat: new Float32Array(16) };
        expect(() => em.add_component(eid, Fixed)).toThrow(
            "EntityManager.add_component: the component's typed array 'heat' does not grow with the entity ids; declare the component with PerEntity.define({ heat: PerEntity.f32(...) })",
        );
        expect(em.has_component(eid, Fixed)).toBe(false);
        // a tag (no arrays) is fine
        expect(em.add_component(eid, {})).toBe(true);
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
    it("refuses one entity past the capacity, naming it, and the world stays whole", () => {
        const em = new EntityManager({ max_entities: 3 });
        const ids = [em.create_entity(), em.create_entity(), em.create_entity()];
        expect(em.entity_count).toBe(3);
        expect(() => em.create_entity()).toThrow(
            "EntityManager.create_entity: this world holds its capacity of 3 entities; remove some, or raise the capacity (new Engine({ max_entities }))",
        );
        expect(em.entity_count).toBe(3);
        expect(em.entities()).toEqual(ids);
        // room again after a removal: the refused call took no id
        em.remove_entity(ids[1]);
        expect(em.create_entity()).toBe(ids[1]);
    });

    it("takes the capacity from the Engine's options, and refuses a bad one", () => {
        expect(new Engine({ max_entities: 7 }).entityManager.max_entities).toBe(7);
        expect(new Engine().entityManager.max_entities).toBe(DEFAULT_MAX_ENTITIES);
        expect(() => new EntityManager({ max_entities: 0 })).toThrow("new EntityManager: max_entities must be an integer >= 1, got 0");
        expect(() => new EntityManager({ max_entities: 1.5 })).toThrow("new EntityManager: max_entities must be an integer >= 1, got 1.5");
    });

    it("grows every store past its first capacity, keeping what was written", () => {
        const Heat = PerEntity.define({ value: PerEntity.f32(2), slot: PerEntity.i32(1, -1), label: PerEntity.value<string | undefined>(undefined) });
        const em = new EntityManager();
        const first = em.create_entity();
        em.add_component(first, Heat);
        Heat.value[first * 2 + 1] = 4.5;
        Heat.label[first] = "first";
        const before = Heat.value;
        const capacity = PerEntity.capacity;
        const made: number[] = [];
        while (made.length === 0 || made[made.length - 1] < capacity) made.push(em.create_entity());
        expect(PerEntity.capacity).toBeGreaterThan(capacity);
        const last = made[made.length - 1];
        // the arrays were replaced (so code reads them through the store) with the old values copied
        expect(Heat.value).not.toBe(before);
        expect(Heat.value.length).toBe(PerEntity.capacity * 2);
        expect(Heat.value[first * 2 + 1]).toBe(4.5);
        expect(Heat.label[first]).toBe("first");
        expect(Heat.slot[last]).toBe(-1);
        em.add_component(last, Heat);
        Heat.value[last * 2 + 1] = 2;
        expect(Heat.value[last * 2 + 1]).toBe(2);
        for (const eid of made) em.remove_entity(eid);
    });
});
