// The GPU pass timer's read-back: one mapAsync per `frames_per_read` frames, every frame's numbers delivered in
// order, and nothing allocated per frame by the timer (FAKE device, device-independent: its mapAsync maps at once
// through one reused thenable, so whatever a frame allocates is ours). On Dawn: real timestamps, the batch edge.
import { describe, expect, it } from "vitest";
import { GPUPassTimer } from "../../../../shade/device/graph/GPUPassTimer.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { steady_bytes_per_frame } from "../../../harness/allocation.js";
import { with_gpu_device } from "../../../harness/index.js";
import { fake_gpu_device } from "../../renderer/fake_gpu_device.js";

const STEPS = ["gbuffer cull", "gbuffer", "lighting", "taa resolve", "tonemap + taa sharpen"];

function timed_fake_renderer(frames_per_read: number): Renderer {
    const { device } = fake_gpu_device({ features: ["timestamp-query"], sync_map: true });
    const scene = new Scene();
    scene.add(new Mesh(make_box_geometry(), new StandardMaterial()));
    return new Renderer({ device, target: new TextureRenderTarget(32, 32), scene, gpu_timing_frames_per_read: frames_per_read });
}

describe("GPUPassTimer read-back", () => {
    it("FAKE device (device-independent): maps once per frames_per_read frames, at exactly the last frame of each batch", () => {
        const renderer = timed_fake_renderer(8);
        const timer = renderer.timer!;
        const seen: number[] = [];
        timer.on_frame = (t) => seen.push(t.timing_count);
        for (let i = 0; i < 7; i++) renderer.render_frame();
        expect(timer.maps, "7 frames: the first batch is not full").toBe(0);
        expect(timer.frames_read).toBe(0);
        renderer.render_frame();
        expect(timer.maps, "the 8th frame fills the batch").toBe(1);
        expect(timer.frames_read).toBe(8);
        for (let i = 0; i < 8 * 9 + 3; i++) renderer.render_frame();
        expect(timer.maps).toBe(10);
        expect(timer.frames_read).toBe(80);
        // every frame delivered, each with the built-in steps
        expect(seen.length).toBe(80);
        expect(new Set(seen)).toEqual(new Set([STEPS.length]));
        expect(timer.timings.slice(0, timer.timing_count).map((t) => t.name)).toEqual(STEPS);
        renderer.destroy();
    });

    it("FAKE device (device-independent): a timed steady frame allocates nothing but one view of each batch's mapped range", async () => {
        const renderer = timed_fake_renderer(8);
        const untimed = new Renderer({ device: fake_gpu_device().device, target: new TextureRenderTarget(32, 32), scene: renderer.scene, gpu_timing: false });
        const timed_frame = () => renderer.render_frame();
        const untimed_frame = () => untimed.render_frame();
        for (let i = 0; i < 4000; i++) {
            timed_frame();
            untimed_frame();
        }
        // windows of 800 frames = 100 batches; a Uint32Array view is ~70-100 bytes: ~12 B/frame
        const reading = await steady_bytes_per_frame([timed_frame, untimed_frame], {
            window: 800,
            accept: (m) => m[0] - m[1] < 16,
        });
        const [timed, bare] = reading.medians;
        console.log(`[alloc] timer: ${timed.toFixed(1)} B/frame timed vs ${bare.toFixed(1)} untimed (frames_per_read 8, ${reading.rounds} round(s))`);
        expect(bare, "the untimed frame allocates nothing").toBeLessThan(4);
        expect(timed - bare, "bytes per frame the timer adds").toBeLessThan(16);
        renderer.destroy();
        untimed.destroy();
    });

    it("rejects a frames_per_read outside [1, 64]", () => {
        const { device } = fake_gpu_device({ features: ["timestamp-query"] });
        expect(() => new GPUPassTimer(device, { frames_per_read: 0 })).toThrow(/frames_per_read must be a whole number in \[1, 64\], got 0/);
        expect(() => new GPUPassTimer(device, { frames_per_read: 2.5 })).toThrow(/got 2.5/);
        expect(new GPUPassTimer(device, { frames_per_read: 64 }).frames_per_read).toBe(64);
    });

    it("on Dawn: no numbers until a batch of frames_per_read frames is full, then every frame of it in order", async () => {
        await with_gpu_device(
            async (device) => {
                const scene = new Scene();
                scene.add(new Mesh(make_box_geometry(), new StandardMaterial()));
                const renderer = new Renderer({ device, target: new TextureRenderTarget(48, 48), scene, gpu_timing_frames_per_read: 4 });
                const timer = renderer.timer!;
                const frames: string[][] = [];
                timer.on_frame = (t) => frames.push(t.timings.slice(0, t.timing_count).map((p) => `${p.name} ${p.ms >= 0 && Number.isFinite(p.ms) ? "ok" : p.ms}`));
                for (let i = 0; i < 3; i++) renderer.render_frame();
                await device.queue.onSubmittedWorkDone();
                await new Promise((resolve) => setTimeout(resolve, 50));
                expect(timer.maps, "3 of 4 frames: nothing mapped").toBe(0);
                expect(frames.length).toBe(0);
                renderer.render_frame();
                expect(timer.maps).toBe(1);
                await device.queue.onSubmittedWorkDone();
                for (let waited = 0; frames.length < 4 && waited < 30_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
                expect(frames).toEqual(Array.from({ length: 4 }, () => STEPS.map((s) => `${s} ok`)));
                expect(timer.frames_read).toBe(4);
                renderer.destroy();
            },
            { features: ["timestamp-query"] },
        );
    });
});
