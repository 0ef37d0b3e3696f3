/** An entity's name (the `name` of a level entity); side data, `undefined` when unnamed. */
export const Name = {
    value: [] as (string | undefined)[],
};
