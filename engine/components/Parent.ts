import { PerEntity } from "../PerEntity.js";

/**
 * The entity's parent in the transform hierarchy: `Parent.eid[eid]`, -1 for none. A bitecs component that
 * children have and roots lack (query `[Transform, Not(Parent)]` for roots). Set and cleared only through
 * `entityManager.set_parent(child, parent)`, which refuses a cycle; read it freely.
 */
export const Parent = PerEntity.define({
    eid: PerEntity.i32(1, -1),
});
