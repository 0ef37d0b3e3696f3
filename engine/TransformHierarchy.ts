import { addComponent, removeComponent, type World } from "bitecs";
import { mat4, quat, vec3 } from "gl-matrix";
import { Parent } from "./components/Parent.js";
import { Transform } from "./components/Transform.js";
import { WorldTransform } from "./components/WorldTransform.js";
import { compose_world_matrix as compose } from "./compose_world_matrix.js";
import { PerEntity } from "./PerEntity.js";
import { StaleTransformCheck } from "./StaleTransformCheck.js";

// Entity ids are unique in the process (one entity index for every world), so the links can be shared stores.
const LINKS = PerEntity.define({
    first_child: PerEntity.i32(1, -1),
    next_sibling: PerEntity.i32(1, -1),
    previous_sibling: PerEntity.i32(1, -1),
    /** The id of the hierarchy whose dirty list holds the entity (0: none), so that a recycled id is never lost. */
    dirty: PerEntity.u32(),
    /** 1 while the entity has a Transform. */
    placed: PerEntity.u8(),
});

const PARENT_WORLD = mat4.create();
const CHILD_WORLD = mat4.create();
const LOCAL = mat4.create();
const TRANSLATION = vec3.create();
const ROTATION = quat.create();
const SCALE = vec3.create();

function read_matrix(out: mat4, eid: number): void {
    const W = WorldTransform.matrix;
    for (let i = 0; i < 16; i++) out[i] = W[eid * 16 + i];
}

/**
 * @internal
 * The parent links of one world and the propagation of world matrices (`WorldTransform`). Owned by an
 * `EntityManager`, which checks that the entities are its own before it calls in; the checks here are the
 * hierarchy's own (a cycle, an entity without Transform).
 *
 * Children hang off their parent as an intrusive list (first child, next and previous sibling), so linking,
 * unlinking and walking a subtree allocate nothing. A change is a mark on the entity (`mark`); `flush` walks the
 * marked entities, skips those with a marked ancestor (its subtree covers them), and recomputes each remaining
 * one's subtree, parents before children: the cost follows what changed, not how many entities there are.
 */
export class TransformHierarchy {
    readonly #world: World;
    /** Non-zero, unique in the process: the mark this hierarchy leaves in `LINKS.dirty`. */
    readonly #id: number;
    readonly #describe: (eid: number) => string;
    #dirty = new Int32Array(64);
    #dirty_count = 0;
    /** Development builds: finds a Transform written in place without a mark (see StaleTransformCheck). */
    readonly #stale: StaleTransformCheck | null;

    constructor(world: World, id: number, describe: (eid: number) => string) {
        this.#world = world;
        this.#id = id;
        this.#describe = describe;
        this.#stale = __SHADE_DEBUG__ ? new StaleTransformCheck(describe) : null;
    }

    /** Entities marked and not yet propagated. */
    get pending(): number {
        return this.#dirty_count;
    }

    /** The entity got its Transform: its world matrix is its own at once (observers see it), then marked. */
    transform_added(eid: number): void {
        LINKS.placed[eid] = 1;
        this.#stale?.add(eid);
        compose(Transform.position, Transform.rotation, Transform.scale, WorldTransform.matrix, eid, -1);
        WorldTransform.version[eid]++;
        this.mark(eid);
    }

    /** The entity lost its Transform: it leaves its parent, and its children become roots where they are. */
    transform_removed(eid: number): void {
        if (LINKS.first_child[eid] >= 0) this.detach_children(eid);
        if (Parent.eid[eid] >= 0) this.set_parent(eid, null, false);
        LINKS.placed[eid] = 0;
        this.#stale?.remove(eid);
    }

    /** Whether `eid` has a Transform (so it can be in the hierarchy). */
    placed(eid: number): boolean {
        return LINKS.placed[eid] === 1;
    }

    /** `eid`'s world matrix is computed again (with its subtree) at the next `flush`. */
    mark(eid: number): void {
        if (LINKS.dirty[eid] === this.#id) return;
        LINKS.dirty[eid] = this.#id;
        if (this.#dirty_count === this.#dirty.length) {
            const grown = new Int32Array(this.#dirty.length * 2);
            grown.set(this.#dirty);
            this.#dirty = grown;
        }
        this.#dirty[this.#dirty_count++] = eid;
    }

    parent_of(eid: number): number {
        return Parent.eid[eid];
    }

    has_children(eid: number): boolean {
        return LINKS.first_child[eid] >= 0;
    }

    /** `eid`'s children, appended to `out`. */
    children(eid: number, out: number[]): number[] {
        for (let c = LINKS.first_child[eid]; c >= 0; c = LINKS.next_sibling[c]) out.push(c);
        return out;
    }

    /** Every descendant of `eid`, parents before their children (a new array: removal is not per frame). */
    descendants(eid: number): Int32Array {
        let out = new Int32Array(16);
        let n = 0;
        const first = LINKS.first_child;
        const next = LINKS.next_sibling;
        let node = first[eid];
        while (node >= 0) {
            if (n === out.length) {
                const grown = new Int32Array(n * 2);
                grown.set(out);
                out = grown;
            }
            out[n++] = node;
            if (first[node] >= 0) {
                node = first[node];
                continue;
            }
            while (node !== eid && next[node] < 0) node = Parent.eid[node];
            if (node === eid) break;
            node = next[node];
        }
        return out.subarray(0, n);
    }

    /**
     * Makes `parent` (or none) the parent of `child`; both have a Transform (the caller checked that they exist).
     * A link that would close a cycle throws, naming both, and changes nothing. With `keep_world` the child's
     * Transform is rewritten so that it stays where it is in the world; otherwise its Transform is kept and now
     * counts from the new parent.
     */
    set_parent(child: number, parent: number | null, keep_world: boolean): void {
        const describe = this.#describe;
        if (!this.placed(child)) throw new Error(`EntityManager.set_parent: ${describe(child)} has no Transform; the hierarchy places entities by their Transform`);
        if (parent !== null) {
            if (!this.placed(parent)) throw new Error(`EntityManager.set_parent: ${describe(parent)} has no Transform, so it cannot be the parent of ${describe(child)}`);
            if (parent === child) throw new Error(`EntityManager.set_parent: ${describe(child)} cannot be its own parent`);
            for (let a = Parent.eid[parent]; a >= 0; a = Parent.eid[a]) {
                if (a === child) {
                    throw new Error(
                        `EntityManager.set_parent: ${describe(parent)} cannot be the parent of ${describe(child)}: ` +
                            `${describe(child)} is an ancestor of ${describe(parent)}, so the link would close a cycle`,
                    );
                }
            }
        }
        const old = Parent.eid[child];
        if (old === (parent ?? -1)) return;
        if (keep_world) {
            this.flush();
            this.#local_for(child, parent);
        }
        if (old >= 0) this.#unlink(child);
        if (parent === null) {
            Parent.eid[child] = -1;
            removeComponent(this.#world, child, Parent);
        } else {
            const next = LINKS.first_child[parent];
            LINKS.next_sibling[child] = next;
            LINKS.previous_sibling[child] = -1;
            if (next >= 0) LINKS.previous_sibling[next] = child;
            LINKS.first_child[parent] = child;
            // before addComponent, so that Parent's on_add observers read the parent
            Parent.eid[child] = parent;
            if (old < 0) addComponent(this.#world, child, Parent);
        }
        this.mark(child);
    }

    /** `eid`'s children become roots, staying where they are in the world. */
    detach_children(eid: number): void {
        while (LINKS.first_child[eid] >= 0) this.set_parent(LINKS.first_child[eid], null, true);
    }

    /** Takes `eid` out of its parent's child list without touching components (the entity is being removed). */
    forget(eid: number): void {
        if (Parent.eid[eid] >= 0) this.#unlink(eid);
        Parent.eid[eid] = -1;
    }

    /**
     * Computes the world matrix of every marked entity and of its descendants, parents before children, each
     * once; an entity whose ancestor is marked too is covered by the ancestor's walk. Allocates nothing.
     */
    flush(): void {
        const n = this.#dirty_count;
        if (n === 0) {
            this.#stale?.verify();
            return;
        }
        const list = this.#dirty;
        const id = this.#id;
        // no entity is created in here, so the stores cannot grow under these references
        const dirty = LINKS.dirty;
        const placed = LINKS.placed;
        const parent = Parent.eid;
        for (let i = 0; i < n; i++) {
            const eid = list[i];
            // a stale entry: removed since (or recycled into another world, which marks it as its own)
            if (dirty[eid] !== id || placed[eid] === 0) continue;
            let covered = false;
            for (let a = parent[eid]; a >= 0; a = parent[a]) {
                if (dirty[a] === id) {
                    covered = true;
                    break;
                }
            }
            if (!covered) this.#update_subtree(eid);
        }
        for (let i = 0; i < n; i++) if (dirty[list[i]] === id) dirty[list[i]] = 0;
        this.#dirty_count = 0;
        this.#stale?.verify();
    }

    #update_subtree(root: number): void {
        const T = Transform.position;
        const R = Transform.rotation;
        const S = Transform.scale;
        const W = WorldTransform.matrix;
        const V = WorldTransform.version;
        const parent = Parent.eid;
        const first = LINKS.first_child;
        const next = LINKS.next_sibling;
        compose(T, R, S, W, root, parent[root]);
        V[root]++;
        // pre-order without a stack: down to the first child, else across to the next sibling, else up
        let node = first[root];
        while (node >= 0) {
            compose(T, R, S, W, node, parent[node]);
            V[node]++;
            if (first[node] >= 0) {
                node = first[node];
                continue;
            }
            while (node !== root && next[node] < 0) node = parent[node];
            if (node === root) break;
            node = next[node];
        }
    }

    #unlink(child: number): void {
        const parent = Parent.eid[child];
        const previous = LINKS.previous_sibling[child];
        const next = LINKS.next_sibling[child];
        if (previous >= 0) LINKS.next_sibling[previous] = next;
        else LINKS.first_child[parent] = next;
        if (next >= 0) LINKS.previous_sibling[next] = previous;
        LINKS.next_sibling[child] = -1;
        LINKS.previous_sibling[child] = -1;
    }

    /** Rewrites `child`'s Transform so that under `parent` its world matrix stays what it is now. */
    #local_for(child: number, parent: number | null): void {
        read_matrix(CHILD_WORLD, child);
        if (parent !== null) {
            read_matrix(PARENT_WORLD, parent);
            if (mat4.invert(PARENT_WORLD, PARENT_WORLD) === null) {
                throw new Error(`EntityManager.set_parent: ${this.#describe(parent)} has a zero scale, so ${this.#describe(child)} cannot keep its place under it`);
            }
            mat4.multiply(LOCAL, PARENT_WORLD, CHILD_WORLD);
        } else {
            mat4.copy(LOCAL, CHILD_WORLD);
        }
        mat4.getTranslation(TRANSLATION, LOCAL);
        mat4.getScaling(SCALE, LOCAL);
        mat4.getRotation(ROTATION, LOCAL);
        quat.normalize(ROTATION, ROTATION);
        const p = child * 3;
        const r = child * 4;
        for (let i = 0; i < 3; i++) {
            Transform.position[p + i] = TRANSLATION[i];
            Transform.scale[p + i] = SCALE[i];
        }
        for (let i = 0; i < 4; i++) Transform.rotation[r + i] = ROTATION[i];
    }
}
