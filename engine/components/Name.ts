import { PerEntity } from "../PerEntity.js";

/** An entity's name (the `name` of a level entity); side data, `undefined` when unnamed. */
export const Name = PerEntity.define({
    value: PerEntity.value<string | undefined>(undefined),
});
