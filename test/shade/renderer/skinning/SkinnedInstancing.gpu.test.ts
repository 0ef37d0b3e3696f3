// Skinned meshes of one skinning group drawn as one instanced draw per mesh pass (Renderer.skinned_instancing):
// a field of posed two-joint boxes, some rigid boxes of the same geometry among them, a sun shadow and the velocity
// product. Drawn instanced and each on its own, the picture, the shadows and the motion are the same, frame after
// frame while the poses and the meshes move; instanced, the skinned meshes are one run of the G-buffer's list.
import { describe, expect, it } from "vitest";
import { Geometry } from "../../../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { Velocity } from "../../../../shade/renderer/products/Velocity.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { MeshSkin } from "../../../../shade/renderer/scene/MeshSkin.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { ShadowExtension } from "../../../../shade/renderer/shadows/ShadowExtension.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";
import { TextureProbe } from "../products/probe.js";

const W = 96;
const H = 64;
const COUNT = 10;

/** A 0.6 x 0.9 x 0.6 box: vertices above y = 0 bound to joint 1, below to joint 0. */
function skinned_box(): Geometry {
    const box = make_box_geometry(0.6, 0.9, 0.6);
    const position = box.attributes.position.array;
    const n = position.length / 3;
    const joints = new Float32Array(n * 4);
    const weights = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
        joints[i * 4] = position[i * 3 + 1] > 0 ? 1 : 0;
        weights[i * 4] = 1;
    }
    return new Geometry({ position, normal: box.attributes.normal!.array, uv: box.attributes.uv!.array, joints, weights, index: box.index });
}

interface Field {
    readonly scene: Scene;
    readonly skinned: Mesh[];
    /** Poses frame `f`: each box at its place, its upper half leaning by its own amount; every third box walks. */
    pose(f: number): void;
}

function make_field(): Field {
    const geometry = skinned_box();
    const scene = new Scene();
    const ground = new StandardMaterial({ base_color: [0.5, 0.55, 0.5, 1], label: "ground" });
    scene.add(new Mesh(make_box_geometry(12, 0.1, 6), ground)).position.set([0, -0.5, 0]);
    const skinned: Mesh[] = [];
    for (let i = 0; i < COUNT; i++) {
        const material = new StandardMaterial({ base_color: [0.3 + 0.07 * i, 0.4, 0.9 - 0.06 * i, 1], label: `unit ${i}` });
        const mesh = scene.add(new Mesh(geometry, material));
        mesh.skin = new MeshSkin(2, `unit ${i}`);
        skinned.push(mesh);
    }
    // rigid meshes of the same geometry among them: runs of their own
    const rigid = new StandardMaterial({ base_color: [0.9, 0.9, 0.3, 1], label: "rigid" });
    scene.add(new Mesh(geometry, rigid)).position.set([-4, 0, -1.5]);
    scene.add(new Mesh(geometry, rigid)).position.set([4, 0, -1.5]);
    const pose = (f: number): void => {
        for (let i = 0; i < COUNT; i++) {
            const mesh = skinned[i];
            const x = (i % 5) * 1.5 - 3 + (i % 3 === 0 ? f * 0.08 : 0);
            const z = Math.floor(i / 5) * 1.6 - 0.8;
            mesh.position.set([x, 0, z]);
            const m = mesh.skin!.matrices;
            // joints are world space: joint 0 at the box, joint 1 leaning its half sideways by an amount of its own
            m.set([x, 0, z], 12);
            m.set([x + 0.05 * (i % 4) + 0.04 * f * (i % 2), 0.02 * i, z], 16 + 12);
            mesh.skin!.mark_changed();
        }
    };
    return { scene, skinned, pose };
}

interface Run {
    readonly color: TextureReadback[];
    readonly velocity: TextureReadback[];
    readonly skinned_runs: number[];
    /** Per frame, the instances the G-buffer's culling let through of the skin batch's run (-1: no such run). */
    readonly batch_drawn: number[];
    /**
     * Direct draws of more than one instance recorded on the G-buffer and velocity passes over all frames: the
     * skin batch's (a culled run drawn directly would draw what the culling left out, from stale visible slots).
     */
    direct_instanced_draws: number;
    /** Direct draws of any instance count on those passes (the bundled static runs are not among them). */
    direct_draws: number;
}

interface RunOptions {
    readonly instanced: boolean;
    /** The G-buffer's frustum culling on (default) or off. */
    readonly culled?: boolean;
    readonly frames?: number;
    /** Frame `f`'s camera target's x (default 0: the whole field in view). */
    readonly look_x?: (f: number) => number;
}

// frames of the field (four by default), the poses and the walkers moving; the colour and velocity of each
async function run(device: GPUDevice, options: RunOptions): Promise<Run> {
    const field = make_field();
    const target = new TextureRenderTarget(W, H);
    const errors: Error[] = [];
    const renderer = new Renderer({ device, target, scene: field.scene, feature_taa_enabled: false, resolution_scale: 1, on_error: (e) => errors.push(e) });
    renderer.skinned_instancing = options.instanced;
    renderer.gbuffer_culling.enabled = options.culled ?? true;
    renderer.add_extension(new ShadowExtension({ cascades: 2, resolution: 256, distance: 20 }));
    const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
    field.scene.sun.direction.set([-0.5, -1, -0.3]);
    const out: Run = { color: [], velocity: [], skinned_runs: [], batch_drawn: [], direct_instanced_draws: 0, direct_draws: 0 };
    // every direct indexed draw on a pass encoder is seen (Dawn's encoder methods live on the prototype)
    const encoder = GPURenderPassEncoder.prototype;
    const draw_indexed = encoder.drawIndexed;
    encoder.drawIndexed = function (this: GPURenderPassEncoder, index_count: number, instance_count = 1, ...rest: number[]) {
        if (this.label === "gbuffer" || this.label === "velocity") {
            out.direct_draws++;
            if (instance_count > 1) out.direct_instanced_draws++;
        }
        return draw_indexed.call(this, index_count, instance_count, ...rest);
    };
    try {
        await frames(device, options, field, renderer, target, probe, out);
    } finally {
        encoder.drawIndexed = draw_indexed;
    }
    expect(errors).toEqual([]);
    renderer.destroy();
    return out;
}

async function frames(device: GPUDevice, options: RunOptions, field: Field, renderer: Renderer, target: TextureRenderTarget, probe: TextureProbe, out: Run): Promise<void> {
    for (let f = 0; f < (options.frames ?? 4); f++) {
        field.pose(f);
        const x = options.look_x?.(f) ?? 0;
        renderer.view.camera.position.set([x, 3.5, 6]);
        renderer.view.camera.target.set([x, 0, 0]);
        renderer.render_frame();
        out.color.push(await read_texture(device, target.acquire()));
        out.velocity.push(await read_texture(device, probe.texture!));
        const list = renderer.gbuffer_draw_list;
        let runs = 0;
        let batch = -1;
        for (let i = 0; i < list.opaque_run_count; i++) {
            if (list.opaque_runs[i].skin !== null) runs++;
            if (list.opaque_runs[i].batch !== null) batch = i;
        }
        out.skinned_runs.push(runs);
        out.batch_drawn.push(batch < 0 ? -1 : (await renderer.gbuffer_culling.read_instance_counts(device))[batch]);
    }
}

function largest_difference(a: TextureReadback, b: TextureReadback): number {
    let worst = 0;
    for (let i = 0; i < a.data.length; i++) worst = Math.max(worst, Math.abs(a.data[i] - b.data[i]));
    return worst;
}

describe("skinned meshes drawn instanced on Dawn", () => {
    it("a field of posed skinned boxes with rigid ones of the same geometry: the same picture, shadows and motion instanced and one draw each", async () => {
        await with_gpu_device(async (device) => {
            const alone = await run(device, { instanced: false });
            const instanced = await run(device, { instanced: true });
            write_readback_png(instanced.color[3], "skinned_instancing");
            expect(alone.skinned_runs, "one run per skinned mesh when not instanced").toEqual([COUNT, COUNT, COUNT, COUNT]);
            // materials of one pipeline variant share runs: every skinned box of the group is one instanced draw
            expect(instanced.skinned_runs, "one run of the skin batch").toEqual([1, 1, 1, 1]);
            for (let f = 0; f < 4; f++) {
                expect(largest_difference(instanced.color[f], alone.color[f]), `frame ${f}: colour`).toBeLessThanOrEqual(1);
                expect(largest_difference(instanced.velocity[f], alone.velocity[f]), `frame ${f}: velocity`).toBeLessThan(1e-4);
            }
            // the field is drawn at all: lit boxes over the ground, and motion where the poses moved
            let moving = 0;
            const { data: v, channels } = instanced.velocity[3];
            for (let p = 0; p < W * H; p++) if (Math.abs(v[p * channels]) + Math.abs(v[p * channels + 1]) > 1e-4) moving++;
            expect(moving, "pixels with motion in the last frame").toBeGreaterThan(30);
        });
    });

    it("a camera sweep across the field: the skin batch's run is frustum-culled, with the picture and motion of everything drawn", async () => {
        await with_gpu_device(async (device) => {
            // the camera slides along the field: boxes leave at one side and straddle the frustum's edges
            const sweep = { frames: 12, look_x: (f: number) => -7 + f * 1.2 };
            const culled = await run(device, { instanced: true, ...sweep });
            const everything = await run(device, { instanced: true, culled: false, ...sweep });
            write_readback_png(culled.color[1], "skinned_instancing_culled");
            let culled_frames = 0;
            for (let f = 0; f < sweep.frames; f++) {
                expect(largest_difference(culled.color[f], everything.color[f]), `frame ${f}: colour`).toBeLessThanOrEqual(1);
                expect(largest_difference(culled.velocity[f], everything.velocity[f]), `frame ${f}: velocity`).toBeLessThan(1e-4);
                expect(culled.batch_drawn[f], `frame ${f}: the batch's run is drawn indirectly`).toBeGreaterThanOrEqual(0);
                if (culled.batch_drawn[f] < COUNT) culled_frames++;
            }
            // culled, the batch's run is drawn only indirectly (the instances the culling let through) in the
            // G-buffer and velocity passes; not culled, directly (which also shows the count sees those draws)
            expect(culled.direct_instanced_draws, "direct draws of the skin batch, culled").toBe(0);
            expect(everything.direct_instanced_draws, "direct draws of the skin batch, not culled").toBeGreaterThanOrEqual(2 * sweep.frames);
            // the sweep starts and ends with part of the field out of view: the culling left boxes out there

            expect(culled_frames, `frames with boxes culled (drawn: ${culled.batch_drawn.join(", ")})`).toBeGreaterThanOrEqual(2);
            expect(Math.max(...culled.batch_drawn), "some frame draws boxes").toBeGreaterThan(0);
        });
    });

    it("drawn one by one (instancing off), the skinned meshes are culled too, with the picture and motion of everything drawn", async () => {
        await with_gpu_device(async (device) => {
            const sweep = { frames: 12, look_x: (f: number) => -7 + f * 1.2 };
            const culled = await run(device, { instanced: false, ...sweep });
            const everything = await run(device, { instanced: false, culled: false, ...sweep });
            for (let f = 0; f < sweep.frames; f++) {
                expect(largest_difference(culled.color[f], everything.color[f]), `frame ${f}: colour`).toBeLessThanOrEqual(1);
                expect(largest_difference(culled.velocity[f], everything.velocity[f]), `frame ${f}: velocity`).toBeLessThan(1e-4);
            }
            // culled, every skinned mesh's draw is indirect; not culled, each is a direct draw in both passes
            expect(culled.direct_draws, "direct draws on the G-buffer and velocity passes, culled").toBe(0);
            expect(everything.direct_draws, "direct draws, not culled").toBeGreaterThanOrEqual(2 * COUNT * sweep.frames);
        });
    });
});
