import { TransformDescriptor } from "../../engine/components/TransformDescriptor.js";
import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { FogRevealer } from "./FogRevealer.js";

/** Most teams a level may name (the `team` field's range); a system may track fewer. */
export const MAX_FOG_TEAMS = 16;

/** `FogRevealer` in level files: `{ "FogRevealer": { "radius": 8, "team": 0 } }`. */
export const FogRevealerDescriptor = define_component({
    name: "FogRevealer",
    component: FogRevealer,
    requires: [TransformDescriptor],
    description: "Reveals the fog of war within radius of the entity (needs Transform) to its team, through FogOfWarSystem",
    fields: {
        radius: Field.number({ default: 5, exclusive_minimum: 0, description: "world units seen around the entity on the x-z plane" }),
        team: Field.integer({ default: 0, minimum: 0, maximum: MAX_FOG_TEAMS - 1, description: "the team that sees what it reveals" }),
    },
});
