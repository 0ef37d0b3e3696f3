// Writes levels/skirmish.json: the skirmish level, made from a fixed seed so that it is the same every time.
//   node scripts/make_skirmish_level.mjs
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let seed = 20261202;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const round = (v) => Math.round(v * 100) / 100;

const TEAMS = [
    { name: "blue", colour: [0.3, 0.6, 1, 0.55], trail: [0.35, 0.7, 1, 0.9], z: 4.6 },
    { name: "red", colour: [1, 0.4, 0.25, 0.55], trail: [1, 0.45, 0.2, 0.9], z: -4.6 },
];

const entities = [
    {
        name: "ground",
        Transform: {},
        Terrain: { size: 48, resolution: 129, height_scale: 2.4, seed: 7, octaves: 5, frequency: 2.2, sand_level: 0.08, snow_level: 2, rock_slope: 0.22 },
    },
];
const routes = [];
for (let team = 0; team < 2; team++) {
    for (let r = 0; r < 4; r++) {
        // a loop wandering from the team's side towards the middle and back
        const cx = -12 + r * 8 + (random() - 0.5) * 2;
        const cz = TEAMS[team].z + (random() - 0.5) * 3;
        const loop = [];
        const n = 6;
        for (let i = 0; i < n; i++) {
            const a = (i / n) * Math.PI * 2;
            const rx = 3 + random() * 2.5;
            const rz = 4 + random() * 3;
            loop.push([round(cx + Math.cos(a) * rx), round(cz + Math.sin(a) * rz * (team === 0 ? -1 : 1) * 0.9)]);
        }
        routes.push({ team, loop });
        entities.push({
            name: `${TEAMS[team].name} route ${r + 1}`,
            Path: {
                waypoints: [...loop, loop[0]].map(([x, z]) => [x, 0.06, z]),
                width: 0.08,
                color: TEAMS[team].colour,
                marker_color: [1, 1, 1, 0.7],
                marker_spacing: 1.6,
            },
        });
    }
}

const UNITS_PER_ROUTE = 25;
// the Fox is modelled in centimetres, about 90 long: a unit is about 0.75 long
const FOX_SCALE = 0.0085;
for (const [index, route] of routes.entries()) {
    for (let u = 0; u < UNITS_PER_ROUTE; u++) {
        entities.push({
            name: `${TEAMS[route.team].name} unit ${index * UNITS_PER_ROUTE + u + 1}`,
            Transform: { position: [route.loop[0][0], 0.35, route.loop[0][1]] },
            Walker: { loop: route.loop, speed: round(1.2 + random() * 0.8), offset: round(u / UNITS_PER_ROUTE), team: route.team },
            Trail3D: { max_age: 1.2, width: 0.12, color: TEAMS[route.team].trail, head: [1, 1, 1, 1], tail: [1, 1, 1, 0] },
            // the blue team is the player's: selection circles under its units, and it sees through the fog
            ...(route.team === 0
                ? { Decal: { size: [0.95, 2, 0.95], frame: 1, color: [0.45, 0.8, 1, 0.85] }, FogRevealer: { radius: 4.5, team: 0 } }
                : {}),
        });
        // the unit's body: the Khronos Fox, walking (its gait follows the unit's speed: GaitSystem), standing on
        // the ground under the unit's centre
        entities.push({
            name: `${TEAMS[route.team].name} unit ${index * UNITS_PER_ROUTE + u + 1} fox`,
            parent: `${TEAMS[route.team].name} unit ${index * UNITS_PER_ROUTE + u + 1}`,
            Transform: { position: [0, -0.35, 0], scale: [FOX_SCALE, FOX_SCALE, FOX_SCALE] },
            Model: { src: "Fox/Fox.glb" },
            Animator: { clip: "Walk" },
        });
    }
}

// camps: a fire (additive sparks and flames) with smoke (alpha) rising from it
const CAMPS = [[-16, 14], [16, 13], [-15, -14], [15, -13], [0, 0]];
for (const [i, [x, z]] of CAMPS.entries()) {
    entities.push({ name: `camp ${i + 1} scorch`, Transform: { position: [x, 0, z] }, Decal: { size: [3.2, 3, 3.2], frame: 0, color: [1, 1, 1, 0.95] } });
    entities.push({
        name: `camp ${i + 1} fire`,
        Transform: { position: [x, 0.1, z] },
        ParticleEmitter: {
            rate: 90, lifetime_min: 0.4, lifetime_max: 0.9, cone_angle: 0.35, speed_min: 0.8, speed_max: 1.8,
            gravity: [0, 0.6, 0], drag: 0.8, size_start: 0.55, size_end: 0.1,
            color_start: [4, 1.6, 0.35, 1], color_end: [1.2, 0.2, 0.05, 0], frame_start: 0, frame_count: 1, blend: "additive", seed: 100 + i,
        },
    });
    entities.push({
        name: `camp ${i + 1} sparks`,
        Transform: { position: [x, 0.2, z] },
        ParticleEmitter: {
            rate: 25, lifetime_min: 0.5, lifetime_max: 1.2, cone_angle: 0.6, speed_min: 2, speed_max: 4,
            gravity: [0, -3, 0], drag: 0.3, size_start: 0.12, size_end: 0.04,
            color_start: [6, 3, 0.8, 1], color_end: [3, 0.6, 0.1, 0], frame_start: 2, frame_count: 1, blend: "additive", seed: 200 + i,
        },
    });
    entities.push({
        name: `camp ${i + 1} smoke`,
        Transform: { position: [x, 0.9, z] },
        ParticleEmitter: {
            rate: 14, lifetime_min: 2.5, lifetime_max: 4, cone_angle: 0.25, speed_min: 0.5, speed_max: 0.9,
            gravity: [0.25, 0.15, 0], drag: 0.2, size_start: 0.7, size_end: 2.4,
            color_start: [0.3, 0.3, 0.32, 0.55], color_end: [0.45, 0.45, 0.5, 0], frame_start: 4, frame_count: 4, blend: "alpha", seed: 300 + i,
        },
    });
}

// sparks where units of the two teams meet: a silent emitter the game moves to the impact and bursts
entities.push({
    name: "impact sparks",
    Transform: { position: [0, 0.5, 0] },
    ParticleEmitter: {
        rate: 0, lifetime_min: 0.3, lifetime_max: 0.7, cone_angle: 1.2, speed_min: 2.5, speed_max: 5,
        gravity: [0, -6, 0], drag: 0.5, size_start: 0.14, size_end: 0.03,
        color_start: [8, 5, 1.5, 1], color_end: [4, 1, 0.2, 0], frame_start: 2, frame_count: 1, blend: "additive", seed: 999,
    },
});

const level = { version: 1, entities };
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "samples", "skirmish", "levels", "skirmish.json");
// one entity a line: readable, and diffs stay small
writeFileSync(out, `{\n "version": ${level.version},\n "entities": [\n${entities.map((e) => "  " + JSON.stringify(e)).join(",\n")}\n ]\n}\n`);
console.log(`wrote ${out}: ${entities.length} entities`);
