// The transform hierarchy: world matrices from parents, propagated for what changed, cycles refused, removal of a
// parent. Device-independent. The reference for every world matrix is gl-matrix (fromRotationTranslationScale
// and multiply), never the engine's own arithmetic.
import { mat4, quat, vec3 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { Name } from "../../engine/components/Name.js";
import { Parent } from "../../engine/components/Parent.js";
import { Transform } from "../../engine/components/Transform.js";
import { WorldTransform } from "../../engine/components/WorldTransform.js";
import { Engine } from "../../engine/Engine.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import { System } from "../../engine/System.js";

interface Placement {
    readonly position?: readonly [number, number, number];
    /** Axis and angle in radians. */
    readonly turn?: readonly [readonly [number, number, number], number];
    readonly scale?: readonly [number, number, number];
    readonly name?: string;
}

function place(em: EntityManager, placement: Placement = {}): number {
    const eid = em.create_entity();
    if (placement.name !== undefined) {
        em.add_component(eid, Name, (id) => {
            Name.value[id] = placement.name;
        });
    }
    em.add_component(eid, Transform, (id) => write(id, placement));
    return eid;
}

function write(eid: number, placement: Placement): void {
    const q = quat.create();
    if (placement.turn !== undefined) quat.setAxisAngle(q, vec3.normalize(vec3.create(), vec3.fromValues(...placement.turn[0])), placement.turn[1]);
    Transform.position.set(placement.position ?? [0, 0, 0], eid * 3);
    Transform.rotation.set(q, eid * 4);
    Transform.scale.set(placement.scale ?? [1, 1, 1], eid * 3);
}

/** gl-matrix's local matrix of `eid` from its Transform. */
function local(eid: number): mat4 {
    const t = Transform.position.subarray(eid * 3, eid * 3 + 3);
    const r = Transform.rotation.subarray(eid * 4, eid * 4 + 4);
    const s = Transform.scale.subarray(eid * 3, eid * 3 + 3);
    return mat4.fromRotationTranslationScale(mat4.create(), r, t, s);
}

/** gl-matrix's world matrix of `eid`: the product of the local matrices up its chain of parents. */
function expected_world(em: EntityManager, eid: number): mat4 {
    const parent = em.parent_of(eid);
    const own = local(eid);
    return parent === null ? own : mat4.multiply(mat4.create(), expected_world(em, parent), own);
}

function world(eid: number): number[] {
    return Array.from(WorldTransform.matrix.subarray(eid * 16, eid * 16 + 16));
}

function expect_world(em: EntityManager, eid: number): void {
    const want = Array.from(expected_world(em, eid));
    const got = world(eid);
    for (let i = 0; i < 16; i++) expect(got[i], `${em.describe(eid)}: matrix[${i}]`).toBeCloseTo(want[i], 5);
}

function world_position(eid: number): number[] {
    return world(eid).slice(12, 15);
}

describe("transform hierarchy: world matrices", () => {
    it("a child follows its parent's translation, rotation and scale, through three levels", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const base = place(em, { position: [10, 0, 0], turn: [[0, 1, 0], Math.PI / 2], scale: [2, 2, 2] });
        const arm = place(em, { position: [1, 0, 0], turn: [[1, 0, 0], 0.3], scale: [1, 0.5, 1] });
        const hand = place(em, { position: [0, 2, 0.5], turn: [[0, 0, 1], -0.7] });
        em.set_parent(arm, base);
        em.set_parent(hand, arm);
        engine.tick(0);
        // +x turned a quarter about y is -z, then scaled by 2
        expect(world_position(arm)[0]).toBeCloseTo(10, 5);
        expect(world_position(arm)[2]).toBeCloseTo(-2, 5);
        for (const eid of [base, arm, hand]) expect_world(em, eid);

        // the root moves and turns: both descendants follow the same frame, unmarked themselves
        em.set_position(base, -3, 4, 5);
        em.set_rotation(base, ...(quat.setAxisAngle(quat.create(), [0, 0, 1], 1.1) as unknown as [number, number, number, number]));
        engine.tick(0);
        for (const eid of [base, arm, hand]) expect_world(em, eid);
        expect(world_position(hand)).not.toEqual([0, 0, 0]);
    });

    it("an entity without a parent is a root: its world matrix is its own", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const root = place(em, { position: [1, 2, 3], turn: [[1, 1, 0], 0.4], scale: [3, 1, 2] });
        // computed when the Transform is added, before any tick (on_add observers see it)
        expect_world(em, root);
        engine.tick(0);
        expect_world(em, root);
        expect(em.parent_of(root)).toBeNull();
    });

    it("recomputes only what was marked: an unmarked write is not seen, a marked one is, with its subtree", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const parent = place(em, { position: [1, 0, 0] });
        const child = place(em, { position: [0, 1, 0] });
        const other = place(em, { position: [5, 5, 5] });
        em.set_parent(child, parent);
        engine.tick(0);
        expect(em.pending_transforms).toBe(0);
        // written in place without a mark: the world matrices keep what they were (and development builds say so)
        Transform.position[other * 3] = 50;
        Transform.position[parent * 3] = 7;
        expect(() => engine.tick(0)).toThrow(/its Transform was written in place without entityManager.mark_transform_changed/);
        expect(world_position(other)).toEqual([5, 5, 5]);
        expect(world_position(child)).toEqual([1, 1, 0]);
        Transform.position[other * 3] = 5;
        // marked: the parent and its child, not the other one
        em.mark_transform_changed(parent);
        expect(em.pending_transforms).toBe(1);
        engine.tick(0);
        expect(world_position(parent)).toEqual([7, 0, 0]);
        expect(world_position(child)).toEqual([7, 1, 0]);
        expect(world_position(other)).toEqual([5, 5, 5]);
    });

    it("parents before children: a child marked before its parent still ends on the parent's new matrix", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const chain = [place(em)];
        for (let i = 1; i < 6; i++) {
            chain.push(place(em, { position: [1, 0, 0], turn: [[0, 1, 0], 0.2] }));
            em.set_parent(chain[i], chain[i - 1]);
        }
        engine.tick(0);
        // marked leaf first, root last
        for (let i = chain.length - 1; i >= 0; i--) em.set_position(chain[i], 1, i, 0);
        em.set_rotation(chain[0], 0, Math.sin(0.5), 0, Math.cos(0.5));
        engine.tick(0);
        for (const eid of chain) expect_world(em, eid);
    });

    it("world matrices are current for every system: one that moves a parent, one after it that reads the child", async () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const parent = place(em);
        const child = place(em, { position: [0, 0, 1] });
        em.set_parent(child, parent);
        const seen: number[] = [];
        class Mover extends System {
            readonly name = "mover";
            x = 0;
            override update(): void {
                em.set_position(parent, ++this.x, 0, 0);
            }
        }
        class Reader extends System {
            readonly name = "reader";
            override update(): void {
                seen.push(WorldTransform.matrix[child * 16 + 12]);
            }
        }
        await engine.add_system(new Mover());
        await engine.add_system(new Reader());
        engine.tick(0);
        engine.tick(0);
        expect(seen).toEqual([1, 2]);
    });

    it("set_parent keeps the child's Transform by default, or with keep_world its place in the world", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const a = place(em, { position: [10, 0, 0], turn: [[0, 1, 0], 1], scale: [2, 2, 2] });
        const b = place(em, { position: [0, 3, 0] });
        const c = place(em, { position: [1, 2, 3], turn: [[1, 0, 0], 0.5] });
        engine.tick(0);
        const before = world(c);
        em.set_parent(c, a, { keep_world: true });
        engine.tick(0);
        for (let i = 0; i < 16; i++) expect(world(c)[i]).toBeCloseTo(before[i], 5);
        expect_world(em, c);
        em.set_parent(b, a);
        engine.tick(0);
        expect(Array.from(Transform.position.subarray(b * 3, b * 3 + 3))).toEqual([0, 3, 0]);
        expect_world(em, b);
        expect(em.children_of(a).sort()).toEqual([b, c].sort());
        // back to the world, in place
        em.set_parent(c, null, { keep_world: true });
        engine.tick(0);
        for (let i = 0; i < 16; i++) expect(world(c)[i]).toBeCloseTo(before[i], 5);
        expect(em.has_component(c, Parent)).toBe(false);
        expect(em.children_of(a)).toEqual([b]);
    });
});

describe("transform hierarchy: what is refused", () => {
    it("development builds name an entity whose Transform was written in place without a mark, within a few frames", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const crowd = Array.from({ length: 100 }, (_, i) => place(em, { position: [i, 0, 0], name: `unit ${i}` }));
        em.set_parent(crowd[41], crowd[40]);
        engine.tick(0);
        // a marked write is fine, however many frames pass
        for (let f = 0; f < 20; f++) {
            em.set_position(crowd[7], f, 0, 0);
            engine.tick(0);
        }
        Transform.position[crowd[40] * 3 + 1] = 3; // moved without a mark: it and its child are drawn where they were
        let message = "";
        for (let f = 0; f < 20 && message === ""; f++) {
            try {
                engine.tick(0);
            } catch (error) {
                message = (error as Error).message;
            }
        }
        expect(message).toBe(
            `entity ${crowd[40]} ('unit 40'): its Transform was written in place without entityManager.mark_transform_changed(eid), so its world matrix ` +
                `(and its children's) still says where it was; call mark_transform_changed after writing Transform, or write through set_position / set_rotation / set_scale`,
        );
        em.mark_transform_changed(crowd[40]);
        engine.tick(0);
        expect(world_position(crowd[41])).toEqual([81, 3, 0]); // its own [41, 0, 0] under the parent at [40, 3, 0]
    });

    it("a cycle is refused where it is made, naming both entities, and nothing changes", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const top = place(em, { name: "top" });
        const middle = place(em, { name: "middle" });
        const bottom = place(em);
        em.set_parent(middle, top);
        em.set_parent(bottom, middle);
        expect(() => em.set_parent(top, bottom)).toThrow(
            `EntityManager.set_parent: entity ${bottom} cannot be the parent of entity ${top} ('top'): entity ${top} ('top') is an ancestor of entity ${bottom}, so the link would close a cycle`,
        );
        expect(() => em.set_parent(middle, bottom)).toThrow(`entity ${bottom} cannot be the parent of entity ${middle} ('middle')`);
        expect(() => em.set_parent(top, top)).toThrow(`EntityManager.set_parent: entity ${top} ('top') cannot be its own parent`);
        expect(em.parent_of(top)).toBeNull();
        expect(em.parent_of(middle)).toBe(top);
        expect(em.children_of(bottom)).toEqual([]);
        engine.tick(0);
        for (const eid of [top, middle, bottom]) expect_world(em, eid);
    });

    it("refuses entities without a Transform, of another world, and Parent added by hand", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const placed = place(em);
        const bare = em.create_entity();
        const other = new Engine().entityManager;
        const foreign = place(other);
        expect(() => em.set_parent(bare, placed)).toThrow(`EntityManager.set_parent: entity ${bare} has no Transform; the hierarchy places entities by their Transform`);
        expect(() => em.set_parent(placed, bare)).toThrow(`EntityManager.set_parent: entity ${bare} has no Transform, so it cannot be the parent of entity ${placed}`);
        expect(() => em.set_parent(placed, foreign)).toThrow(`EntityManager.set_parent: entity ${foreign} (the parent of entity ${placed}) does not exist in this world`);
        expect(() => em.add_component(placed, Parent)).toThrow("EntityManager.add_component: Parent is set with set_parent(child, parent)");
        expect(() => em.mark_transform_changed(bare)).toThrow(`EntityManager.mark_transform_changed: entity ${bare} has no Transform`);
        expect(() => em.set_position(foreign, 0, 0, 0)).toThrow(`EntityManager.mark_transform_changed: entity ${foreign} does not exist in this world`);
    });
});

describe("transform hierarchy: removal", () => {
    it("removing a parent removes its whole subtree by default, descendants before their ancestors", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const root = place(em);
        const keep = place(em);
        const child = place(em);
        const sibling = place(em);
        const grandchild = place(em);
        em.set_parent(child, root);
        em.set_parent(sibling, root);
        em.set_parent(grandchild, child);
        const removed: number[] = [];
        em.on_remove(Transform, (eid) => removed.push(eid));
        em.remove_entity(root);
        expect(removed).toHaveLength(4);
        expect(new Set(removed)).toEqual(new Set([root, child, sibling, grandchild]));
        expect(removed.indexOf(grandchild)).toBeLessThan(removed.indexOf(child));
        expect(removed.at(-1)).toBe(root);
        expect(em.entities()).toEqual([keep]);
        // the recycled ids start outside any hierarchy
        const fresh = [place(em), place(em), place(em), place(em)];
        for (const eid of fresh) {
            expect(em.parent_of(eid)).toBeNull();
            expect(em.children_of(eid)).toEqual([]);
        }
    });

    it("removing a child leaves its parent and siblings linked", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const root = place(em, { position: [1, 0, 0] });
        const kids = [place(em), place(em), place(em)];
        for (const kid of kids) em.set_parent(kid, root);
        em.remove_entity(kids[1]);
        expect(em.children_of(root).sort()).toEqual([kids[0], kids[2]].sort());
        em.set_position(root, 4, 0, 0);
        engine.tick(0);
        expect(world_position(kids[0])).toEqual([4, 0, 0]);
        expect(world_position(kids[2])).toEqual([4, 0, 0]);
    });

    it("with { children: 'detach' } the children become roots that stay where they are", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const root = place(em, { position: [10, 0, 0], turn: [[0, 1, 0], 0.8], scale: [2, 2, 2] });
        const child = place(em, { position: [1, 1, 0] });
        const grandchild = place(em, { position: [0, 0, 1] });
        em.set_parent(child, root);
        em.set_parent(grandchild, child);
        engine.tick(0);
        const child_world = world(child);
        const grandchild_world = world(grandchild);
        em.remove_entity(root, { children: "detach" });
        engine.tick(0);
        expect(em.entities().sort()).toEqual([child, grandchild].sort());
        expect(em.parent_of(child)).toBeNull();
        expect(em.has_component(child, Parent)).toBe(false);
        expect(em.parent_of(grandchild)).toBe(child);
        for (let i = 0; i < 16; i++) {
            expect(world(child)[i]).toBeCloseTo(child_world[i], 5);
            expect(world(grandchild)[i]).toBeCloseTo(grandchild_world[i], 5);
        }
        expect(() => em.remove_entity(child, { children: "keep" as "detach" })).toThrow(`EntityManager.remove_entity: children must be "remove" or "detach", got "keep"`);
    });

    it("removing Parent makes a root of the Transform as written; removing a parent's Transform frees its children in place", () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const root = place(em, { position: [5, 0, 0] });
        const child = place(em, { position: [1, 0, 0] });
        const other = place(em, { position: [0, 0, 2] });
        em.set_parent(child, root);
        em.set_parent(other, root);
        engine.tick(0);
        expect(em.remove_component(child, Parent)).toBe(true);
        engine.tick(0);
        expect(world_position(child)).toEqual([1, 0, 0]);
        expect(em.remove_component(root, Transform)).toBe(true);
        engine.tick(0);
        expect(em.parent_of(other)).toBeNull();
        expect(world_position(other)).toEqual([5, 0, 2]);
        expect(Array.from(Transform.position.subarray(other * 3, other * 3 + 3))).toEqual([5, 0, 2]);
    });
});

describe("world matrices between systems", () => {
    /** A fake system: runs `body` in its update, reading world matrices or not as told. */
    class Step extends System {
        readonly name: string;
        override readonly reads_world_transforms: boolean;
        readonly #body: () => void;
        constructor(name: string, reads: boolean, body: () => void) {
            super();
            this.name = name;
            this.reads_world_transforms = reads;
            this.#body = body;
        }
        override update(): void {
            this.#body();
        }
    }
    /** A fake system without an update of its own. */
    class Idle extends System {
        readonly name = "Idle";
    }

    it("changes made by systems that read no world matrix are composed in one walk, before the next system that reads them", async () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const unit = place(em, { position: [0, 0, 0] });
        const joint = place(em, { position: [0, 1, 0] });
        em.set_parent(joint, unit);
        engine.update(0);
        let seen: number[] = [];
        let x = 0;
        // a mover, a system without an update, an animator (reading nothing), then one that reads the joint
        await engine.add_system(new Step("mover", false, () => em.set_position(unit, ++x, 0, 0)));
        await engine.add_system(new Idle());
        await engine.add_system(new Step("animator", false, () => em.set_position(joint, 0, 1 + x, 0)));
        await engine.add_system(new Step("reader", true, () => (seen = world_position(joint))));
        const before = WorldTransform.version[joint];
        engine.update(0);
        expect(seen, "the reader sees both changes").toEqual([1, 2, 0]);
        // the unit's walk covered the joint: composed once in the tick, not once per change
        expect(WorldTransform.version[joint] - before, "the joint's world matrix composed once").toBe(1);
        engine.update(0);
        expect(seen).toEqual([2, 3, 0]);
        expect(WorldTransform.version[joint] - before).toBe(2);
    });

    it("a system that reads world matrices sees the changes of the systems before it", async () => {
        const engine = new Engine();
        const em = engine.entityManager;
        const unit = place(em, { position: [0, 0, 0] });
        const joint = place(em, { position: [0, 1, 0] });
        em.set_parent(joint, unit);
        let seen: number[] = [];
        await engine.add_system(new Step("mover", false, () => em.set_position(unit, 4, 0, 0)));
        await engine.add_system(new Step("reader", true, () => (seen = world_position(joint))));
        await engine.add_system(new Step("animator", false, () => em.set_position(joint, 0, 2, 0)));
        engine.update(0);
        expect(seen, "moved by the mover, not yet by the animator").toEqual([4, 1, 0]);
        expect(world_position(joint), "after the tick: both").toEqual([4, 2, 0]);
    });
});
