import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { Highlight } from "./Highlight.js";

/** Widest outline in pixels (the jump flood's first step is the next power of two). */
export const MAX_HIGHLIGHT_WIDTH = 256;

/** `Highlight` in level files: `{ "Highlight": { "color": [1, 0.8, 0, 1], "width": 3 } }`. */
export const HighlightDescriptor = define_component({
    name: "Highlight",
    component: Highlight,
    description: "An outline around the entity's mesh (named with HighlightSystem.set_mesh), drawn by HighlightSystem",
    fields: {
        color: Field.colour({ default: [1, 0.8, 0.1, 1], description: "RGBA of the outline (straight alpha)" }),
        width: Field.number({ default: 2, exclusive_minimum: 0, maximum: MAX_HIGHLIGHT_WIDTH, description: "outline width in pixels" }),
    },
});
