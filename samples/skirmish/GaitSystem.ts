import { Parent } from "../../engine/components/Parent.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import { System } from "../../engine/System.js";
import { Animator } from "../../systems/model/Animator.js";
import { Walker } from "./Walker.js";

/** Ground speed (world units a second) at which a unit's fox plays its walk clip as authored. */
const WALK_SPEED = 1.1;
/** Faster than this, the fox runs (its run clip covers ground about 2.4 times as fast as the walk). */
const RUN_ABOVE = 1.9;
const RUN_RATIO = 2.4;

/**
 * The skirmish units' gait: every animated body whose parent is a `Walker` walks at a rate matching the unit's
 * ground speed, and runs when the unit is fast. Runs before the `AnimatorSystem`, whose cross-fade smooths a change
 * of gait. Allocates nothing.
 */
export class GaitSystem extends System {
    readonly name = "GaitSystem";
    // reads walkers' speeds, no world matrix
    override readonly reads_world_transforms = false;
    #query: EntityQuery | null = null;

    async startup(entityManager: EntityManager): Promise<void> {
        this.#query ??= entityManager.register_query([Animator, Parent]);
    }

    update(): void {
        const query = this.#query;
        if (query === null) return;
        const list = query.entities;
        for (let k = 0; k < list.length; k++) {
            const eid = list[k];
            const unit = Parent.eid[eid];
            if (Walker.loop[unit] === undefined) continue;
            const speed = Walker.speed[unit];
            const run = speed > RUN_ABOVE;
            Animator.clip[eid] = run ? "Run" : "Walk";
            Animator.speed[eid] = run ? speed / (WALK_SPEED * RUN_RATIO) : speed / WALK_SPEED;
        }
    }
}
