// Animation sampling: 1,000 Fox players (24 joints, 21 channels a clip), each updated once a frame, a third of them
// cross-fading between two clips; CPU milliseconds per frame, median over 200 frames after warm-up. No GPU (the
// Fox's clips and nodes are read through glTF-Transform and the loader's own converters).
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { WebIO } from "@gltf-transform/core";
import { AnimationPlayer } from "../engine/animation/AnimationPlayer.js";
import { read_animation } from "../engine/assets/read_animation.js";

const PLAYERS = 1000;
const FRAMES = 200;

const document = await new WebIO().readBinary(new Uint8Array(readFileSync("samples/assets/Fox/Fox.glb")));
const root = document.getRoot();
const nodes = root.listNodes();
const index = new Map(nodes.map((n, i) => [n, i]));
const clips = root.listAnimations().map((a, i) => read_animation("Fox.glb", i, a, index));
const rest = nodes.map((n) => ({ translation: n.getTranslation(), rotation: n.getRotation(), scale: n.getScale() }));

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
}

function frame_times(players: AnimationPlayer[], frames: number): number[] {
    const times: number[] = [];
    for (let f = 0; f < frames; f++) {
        const t0 = performance.now();
        for (let i = 0; i < players.length; i++) players[i].update(1 / 60);
        times.push(performance.now() - t0);
    }
    return times;
}

function make(fading: boolean): AnimationPlayer[] {
    const players: AnimationPlayer[] = [];
    for (let i = 0; i < PLAYERS; i++) {
        const player = new AnimationPlayer(clips, rest);
        player.play(clips[i % 3].name, { time: (i * 0.013) % 1, speed: 0.8 + (i % 5) * 0.1 });
        // a fade so long that it lasts the whole measurement
        if (fading && i % 3 === 0) player.cross_fade(clips[(i + 1) % 3].name, 1e6);
        players.push(player);
    }
    return players;
}

console.log(`machine: ${cpus()[0]?.model ?? "unknown"} x ${cpus().length}, node ${process.version}`);
for (const fading of [false, true]) {
    const players = make(fading);
    frame_times(players, 300); // warm-up: the JIT
    const times = frame_times(players, FRAMES);
    const ms = median(times);
    console.log(`${PLAYERS} Fox players${fading ? ", a third cross-fading" : ""}: ${ms.toFixed(3)} ms a frame (${((ms * 1000) / PLAYERS).toFixed(2)} us a player)`);
}
