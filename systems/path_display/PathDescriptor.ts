import { define_component, shortest_float32 } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { Path, PATH_DEFAULTS } from "./Path.js";

const rgba = (c: readonly number[]): [number, number, number, number] => [c[0], c[1], c[2], c[3]];

/** `Path` in level files: `{ "Path": { "waypoints": [[0, 0, 0], [4, 0, 2]], "width": 0.2 } }`. */
export const PathDescriptor = define_component({
    name: "Path",
    component: Path,
    description: "A path shown as a tube through world-space waypoints with direction markers, drawn by PathDisplaySystem",
    fields: {
        waypoints: Field.array(Field.vec3({ float32: true }), { min_items: 2, description: "world-space points the path runs through, in order" }),
        width: Field.number({ default: PATH_DEFAULTS.width, exclusive_minimum: 0, description: "tube diameter, world units" }),
        color: Field.colour({ default: rgba(PATH_DEFAULTS.color), description: "RGBA of the tube" }),
        marker_color: Field.colour({ default: rgba(PATH_DEFAULTS.marker_color), description: "RGBA of the direction markers" }),
        marker_spacing: Field.number({ default: PATH_DEFAULTS.marker_spacing, exclusive_minimum: 0, description: "world units between markers" }),
    },
    write(eid, value) {
        Path.set_waypoints(eid, value.waypoints);
    },
    read(eid) {
        const flat = Path.waypoints[eid];
        const waypoints: [number, number, number][] = [];
        if (flat !== undefined) for (let i = 0; i < flat.length; i += 3) waypoints.push([shortest_float32(flat[i]), shortest_float32(flat[i + 1]), shortest_float32(flat[i + 2])]);
        return { waypoints };
    },
    reset(eid) {
        Path.waypoints[eid] = undefined;
        Path.changed(eid);
    },
});
