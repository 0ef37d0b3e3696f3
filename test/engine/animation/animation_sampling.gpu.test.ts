// Sampling glTF clips: a Fox joint's rotation against values computed by hand from the file's bytes; STEP,
// CUBICSPLINE and morph weights on small documents built with glTF-Transform; the player's time, speed and loop;
// a cross-fade halfway lies halfway between the clips.
import { Document, WebIO } from "@gltf-transform/core";
import { describe, expect, it } from "vitest";
import { AnimationPlayer } from "../../../engine/animation/AnimationPlayer.js";
import { AnimationPose } from "../../../engine/animation/AnimationPose.js";
import { sample_clip } from "../../../engine/animation/sample_clip.js";
import { load_gltf } from "../../../engine/assets/load_gltf.js";
import type { Model } from "../../../engine/assets/Model.js";
import { with_gpu_device } from "../../harness/index.js";
import { FOX, MemoryReader, read_glb } from "../assets/asset_files.js";

/** Float32 values of accessor `index` of a GLB, read straight from the bytes. */
function floats(parts: ReturnType<typeof read_glb>, index: number): Float32Array {
    const accessor = parts.json.accessors[index];
    const view = parts.json.bufferViews[accessor.bufferView];
    const size = { SCALAR: 1, VEC3: 3, VEC4: 4 }[accessor.type as "SCALAR"]!;
    const start = parts.bin.byteOffset + (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
    return new Float32Array(parts.bin.buffer.slice(start, start + accessor.count * size * 4));
}

/** Textbook slerp in doubles, the short way: the reference. */
function slerp(a: number[], b: number[], t: number): number[] {
    let dot = a.reduce((s, v, i) => s + v * b[i], 0);
    const bb = dot < 0 ? b.map((v) => -v) : b;
    dot = Math.abs(dot);
    const theta = Math.acos(Math.min(1, dot));
    const s = Math.sin(theta);
    const wa = Math.sin((1 - t) * theta) / s;
    const wb = Math.sin(t * theta) / s;
    return a.map((v, i) => wa * v + wb * bb[i]);
}

async function load_document(device: GPUDevice, doc: Document): Promise<Model> {
    const reader = new MemoryReader().set("made.glb", await new WebIO().writeBinary(doc));
    return load_gltf("made.glb", { device, reader });
}

describe("animation sampling", () => {
    it("a Fox joint's rotation at two times between keyframes is the slerp of the file's quaternions", async () => {
        await with_gpu_device(async (device) => {
            const parts = read_glb(FOX);
            const model = await load_gltf(FOX, { device });
            const walk_index = parts.json.animations.findIndex((a: { name: string }) => a.name === "Walk");
            const walk = parts.json.animations[walk_index];
            // the rotation channel whose first two keys are furthest apart: slerp and lerp differ most there
            let best = { channel: -1, angle: 0 };
            walk.channels.forEach((c: { sampler: number; target: { path: string } }, i: number) => {
                if (c.target.path !== "rotation") return;
                const q = floats(parts, walk.samplers[c.sampler].output);
                const dot = Math.abs(q[0] * q[4] + q[1] * q[5] + q[2] * q[6] + q[3] * q[7]);
                if (Math.acos(Math.min(1, dot)) > best.angle) best = { channel: i, angle: Math.acos(Math.min(1, dot)) };
            });
            const channel = walk.channels[best.channel];
            const node: number = channel.target.node;
            const times = floats(parts, walk.samplers[channel.sampler].input);
            const quats = floats(parts, walk.samplers[channel.sampler].output);
            const player = new AnimationPlayer(model.animations, model.nodes);
            player.play("Walk");
            for (const [k, fraction] of [[0, 0.5], [3, 0.25]] as const) {
                const time = times[k] + (times[k + 1] - times[k]) * fraction;
                const expected = slerp([...quats.subarray(k * 4, k * 4 + 4)], [...quats.subarray(k * 4 + 4, k * 4 + 8)], fraction);
                player.time = time;
                player.update(0);
                const got = [...player.pose.rotation.subarray(node * 4, node * 4 + 4)];
                for (let i = 0; i < 4; i++) expect(got[i], `node ${node} at ${time} s, component ${i}`).toBeCloseTo(expected[i], 5);
            }
            // a node the clip does not animate keeps its rest transform
            const still = model.nodes.findIndex((n, i) => !walk.channels.some((c: { target: { node: number } }) => c.target.node === i));
            expect([...player.pose.translation.subarray(still * 3, still * 3 + 3)]).toEqual([...model.nodes[still].translation]);
            model.destroy();
        });
    });

    it("STEP holds each key's value until the next key, exactly at the edge", async () => {
        await with_gpu_device(async (device) => {
            const doc = new Document();
            const buffer = doc.createBuffer();
            const node = doc.createNode("stepper");
            doc.createScene().addChild(node);
            const input = doc.createAccessor().setType("SCALAR").setArray(new Float32Array([0, 1, 2])).setBuffer(buffer);
            const output = doc.createAccessor().setType("VEC3").setArray(new Float32Array([1, 0, 0, 5, 0, 0, 9, 0, 0])).setBuffer(buffer);
            const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation("STEP");
            doc.createAnimation("steps").addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath("translation").setSampler(sampler));
            const model = await load_document(device, doc);
            const clip = model.clip("steps")!;
            expect(clip.channels[0].interpolation).toBe("STEP");
            const pose = new AnimationPose(model.nodes);
            const x = (time: number) => (sample_clip(clip, time, pose), pose.translation[0]);
            expect([x(-1), x(0), x(0.999), x(1), x(1.5), x(1.999), x(2), x(3)]).toEqual([1, 1, 1, 5, 5, 5, 9, 9]);
            model.destroy();
        });
    });

    it("CUBICSPLINE follows the Hermite spline through values and tangents (not the straight line); rotations stay unit", async () => {
        await with_gpu_device(async (device) => {
            const doc = new Document();
            const buffer = doc.createBuffer();
            const node = doc.createNode("spline");
            doc.createScene().addChild(node);
            const input = doc.createAccessor().setType("SCALAR").setArray(new Float32Array([0, 2])).setBuffer(buffer);
            // [in-tangent, value, out-tangent] per key; x: 0 -> 10 leaving at slope 4, arriving at slope -4
            const output = doc.createAccessor().setType("VEC3").setArray(new Float32Array([0, 0, 0, 0, 0, 0, 4, 0, 0, -4, 0, 0, 10, 0, 0, 0, 0, 0])).setBuffer(buffer);
            const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation("CUBICSPLINE");
            const s = Math.SQRT1_2;
            const rotations = doc.createAccessor().setType("VEC4").setArray(new Float32Array([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, s, s, 0, 0, 0, 0])).setBuffer(buffer);
            const rotation_sampler = doc.createAnimationSampler().setInput(input).setOutput(rotations).setInterpolation("CUBICSPLINE");
            doc.createAnimation("spline")
                .addSampler(sampler)
                .addSampler(rotation_sampler)
                .addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath("translation").setSampler(sampler))
                .addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath("rotation").setSampler(rotation_sampler));
            const model = await load_document(device, doc);
            const clip = model.clip("spline")!;
            const pose = new AnimationPose(model.nodes);
            sample_clip(clip, 1, pose);
            // s = 0.5, dt = 2: 0.5 * 0 + 0.25 * 2 * 4 ... = h00 v0 + h10 dt b0 + h01 v1 + h11 dt a1 = 0 + 1 + 5 + 1
            expect(pose.translation[0]).toBeCloseTo(7, 5);
            sample_clip(clip, 0, pose);
            expect(pose.translation[0]).toBe(0);
            sample_clip(clip, 2, pose);
            expect(pose.translation[0]).toBe(10);
            sample_clip(clip, 0.7, pose);
            const q = pose.rotation;
            expect(Math.hypot(q[0], q[1], q[2], q[3])).toBeCloseTo(1, 5);
            model.destroy();
        });
    });

    it("morph target weights are sampled into the node's weights", async () => {
        await with_gpu_device(async (device) => {
            const doc = new Document();
            const buffer = doc.createBuffer();
            const position = doc.createAccessor().setType("VEC3").setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])).setBuffer(buffer);
            const target = (dx: number) => doc.createPrimitiveTarget().setAttribute("POSITION", doc.createAccessor().setType("VEC3").setArray(new Float32Array([dx, 0, 0, dx, 0, 0, dx, 0, 0])).setBuffer(buffer));
            const primitive = doc.createPrimitive().setAttribute("POSITION", position).addTarget(target(1)).addTarget(target(2));
            const mesh = doc.createMesh("morph").addPrimitive(primitive).setWeights([0.25, 0]);
            const node = doc.createNode("morphing").setMesh(mesh);
            doc.createScene().addChild(node);
            const input = doc.createAccessor().setType("SCALAR").setArray(new Float32Array([0, 1])).setBuffer(buffer);
            const output = doc.createAccessor().setType("SCALAR").setArray(new Float32Array([0, 1, 1, 0])).setBuffer(buffer);
            const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation("LINEAR");
            doc.createAnimation("blink").addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath("weights").setSampler(sampler));
            const model = await load_document(device, doc);
            expect(model.meshes[0].primitives[0].morph_targets).toBe(2);
            expect([...model.nodes[0].weights]).toEqual([0.25, 0]);
            const player = new AnimationPlayer(model.animations, model.nodes);
            expect([...player.pose.weights]).toEqual([0.25, 0]);
            player.play("blink", { time: 0.25 });
            player.update(0);
            expect([...player.pose.weights]).toEqual([0.25, 0.75]);
            model.destroy();
        });
    });
});

describe("AnimationPlayer", () => {
    it("plays by name with time, speed and loop; a missing name is refused naming the clips", async () => {
        await with_gpu_device(async (device) => {
            const model = await load_gltf(FOX, { device });
            const player = new AnimationPlayer(model.animations, model.nodes);
            expect(() => player.play("Jump")).toThrow(/no clip 'Jump' \(clips: 'Survey', 'Walk', 'Run'\)/);
            const run = model.clip("Run")!;
            player.play("Run", { speed: 2 });
            player.update(0.25);
            expect(player.time).toBeCloseTo(0.5, 6);
            player.update(run.duration / 2); // 0.5 + duration: wrapped
            expect(player.time).toBeCloseTo(0.5, 5);
            player.speed = -1;
            player.update(0.75);
            expect(player.time).toBeCloseTo(run.duration - 0.25, 5);
            player.play("Run", { loop: false });
            player.update(run.duration * 3);
            expect(player.time).toBe(run.duration);
            model.destroy();
        });
    });

    it("a cross-fade halfway lies halfway between the two clips, each at its own time; at the end it is the new clip", async () => {
        await with_gpu_device(async (device) => {
            const model = await load_gltf(FOX, { device });
            const walk = model.clip("Walk")!;
            const run = model.clip("Run")!;
            const player = new AnimationPlayer(model.animations, model.nodes);
            player.play("Walk", { time: 0.1 });
            player.update(0);
            player.cross_fade("Run", 0.4, { time: 0.2 });
            player.update(0.2); // halfway: Walk at 0.3, Run at 0.4
            expect(player.fade).toBeCloseTo(0.5, 6);
            const a = new AnimationPose(model.nodes);
            const b = new AnimationPose(model.nodes);
            sample_clip(walk, 0.3, a);
            sample_clip(run, 0.4, b);
            let moved = 0;
            for (const channel of walk.channels) {
                const n = channel.node;
                if (channel.path === "rotation") {
                    const expected = slerp([...a.rotation.subarray(n * 4, n * 4 + 4)], [...b.rotation.subarray(n * 4, n * 4 + 4)], 0.5);
                    for (let i = 0; i < 4; i++) expect(player.pose.rotation[n * 4 + i]).toBeCloseTo(expected[i], 5);
                    const apart = Math.abs(a.rotation[n * 4] - b.rotation[n * 4]);
                    if (apart > 1e-3) moved++;
                } else if (channel.path === "translation") {
                    for (let i = 0; i < 3; i++) expect(player.pose.translation[n * 3 + i]).toBeCloseTo((a.translation[n * 3 + i] + b.translation[n * 3 + i]) / 2, 4);
                }
            }
            expect(moved).toBeGreaterThan(3); // the clips differ there, so halfway is neither
            player.update(0.2);
            expect(player.fade).toBe(1);
            sample_clip(run, 0.6, b);
            for (let i = 0; i < b.rotation.length; i++) expect(player.pose.rotation[i]).toBeCloseTo(b.rotation[i], 5);
            model.destroy();
        });
    });
});
