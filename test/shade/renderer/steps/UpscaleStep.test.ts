// UpscaleStep on a FAKE device (device-independent: what the step records, when it resets its history, what
// it allocates). What the resolve computes is tested on Dawn in TemporalUpscale.gpu.test.ts.
//
// The step is driven through a minimal frame of its own (depth at AfterGBuffer, a scene colour at
// AfterLighting, the step at BeforePresent, a presenting reader) so that nothing but the step and the graph
// runs: the Renderer's other steps belong to other tests.
import { Session } from "node:inspector/promises";
import { describe, expect, it } from "vitest";
import { FrameGraph } from "../../../../shade/device/graph/FrameGraph.js";
import { GPUTextureAllocator } from "../../../../shade/device/graph/GPUTextureAllocator.js";
import { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderView } from "../../../../shade/renderer/extension/RenderView.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../../shade/renderer/extension/ViewTextures.js";
import { UpscaleStep } from "../../../../shade/renderer/steps/UpscaleStep.js";
import { fake_step_device, type FakeStepDeviceStats } from "./fake_step_device.js";

const USAGE = 0x10 | 0x04 | 0x01;
const noop = (): void => {};

/** A frame with just enough around the step; `blends` records the blend factor each resolve uploaded. */
function harness() {
    const { device, stats } = fake_step_device();
    const blends: number[] = [];
    const record_blends = { on: true };
    const write = device.queue.writeBuffer.bind(device.queue);
    // the resolve's parameters: [jitter_uv.xy, history_jitter_ndc.xy, blend, pad, ...]
    (device.queue as { writeBuffer: unknown }).writeBuffer = (buffer: GPUBuffer, offset: number, data: Float32Array) => {
        if (record_blends.on && buffer.label === "taa resolve params") blends.push(data[4]);
        write(buffer, offset, data);
    };
    const graph = new FrameGraph(new GPUTextureAllocator(device));
    const view = new RenderView();
    const frame = new FrameContext(graph, view, device);
    const step = new UpscaleStep();
    const encoder = device.createCommandEncoder();
    const execution = { graphics: device, encoder };
    const size = { output: 64, internal: 32 };

    /** One frame; `inspect` sees the compiled graph before it is reset. */
    const render = (enabled = true, inspect?: (graph: FrameGraph) => void): void => {
        const { output, internal } = size;
        const camera = view.camera;
        // as the Renderer does with the upscale on
        step.jitter_camera(camera, graph.frame_index, internal, internal);
        camera.bind(device);
        frame.begin(internal, internal, enabled ? output : internal, enabled ? output : internal);
        frame.enter(FramePhase.AfterGBuffer);
        const g = graph.add("depth", null, noop);
        frame.create(ViewTextures).depth = g.write(g.create("depth", TextureResourceDescriptor.of(internal, internal, "depth32float", USAGE)));
        frame.enter(FramePhase.AfterLighting);
        const l = graph.add("lighting", null, noop);
        frame.create(SceneColor).color = l.write(l.create("scene colour", TextureResourceDescriptor.of(internal, internal, "rgba16float", USAGE)));
        frame.enter(FramePhase.AfterTransparency);
        frame.enter(FramePhase.BeforePresent);
        step.record(frame, enabled);
        const present = graph.add("present", null, noop);
        present.read(frame.get(SceneColor).color);
        present.make_side_effect();
        frame.enter(FramePhase.Overlay);
        frame.close();
        graph.compile();
        graph.execute(execution);
        inspect?.(graph);
        graph.reset();
        camera.unbind();
    };
    return { device, stats, graph, frame, step, render, blends, size, record_blends };
}

describe("UpscaleStep (FAKE device, device-independent)", () => {
    it("records 'taa resolve' then 'taa sharpen', both run, and an output-size scene colour is published", () => {
        const h = harness();
        let published = "";
        const record = h.step.record.bind(h.step);
        h.step.record = (frame, enabled) => {
            record(frame, enabled);
            const d = frame.describe(frame.get(SceneColor).color);
            published = `${d.width}x${d.height} ${d.format}`;
        };
        let dot = "";
        h.render(true, (graph) => {
            dot = graph.dump();
            expect(graph.is_culled("taa resolve")).toBe(false);
            expect(graph.is_culled("taa sharpen")).toBe(false);
        });
        expect(published).toBe("64x64 rgba16float");
        expect(dot.indexOf('label="taa resolve"')).toBeGreaterThan(0);
        expect(dot.indexOf('label="taa sharpen"')).toBeGreaterThan(dot.indexOf('label="taa resolve"'));
        expect(h.stats.debug_depth).toBe(0);
    });

    it("resets the history on the first frame, a size change, reset_history(), and a frame without the upscale", () => {
        const h = harness();
        h.render();
        h.render();
        h.render();
        expect(h.blends).toEqual([1, 0.1, 0.1].map(Math.fround));

        h.blends.length = 0;
        h.size.internal = 16; // dynamic resolution
        h.render();
        h.render();
        h.step.reset_history();
        h.render();
        h.render();
        h.render(false); // the upscale off for a frame: its history is stale after it
        h.render();
        h.render();
        h.size.output = 48; // a resized canvas
        h.render();
        h.render();
        expect(h.blends).toEqual([1, 0.1, 1, 0.1, 1, 0.1, 1, 0.1].map(Math.fround));
    });

    it("builds its GPU objects once per device; history textures are remade only when the output size changes", () => {
        const h = harness();
        h.render();
        const textures = h.stats.textures;
        for (let i = 0; i < 10; i++) h.render();
        expect(h.stats.textures).toBe(textures);
        h.size.internal = 16;
        h.render();
        h.render();
        // the internal size changed: new pooled inputs, the same two histories
        const after_internal = h.stats.textures;
        h.size.output = 48;
        h.render();
        expect(h.stats.textures - after_internal).toBeGreaterThanOrEqual(2);

        // a new device (a restart, a lost device) builds everything again for itself
        const other = fake_step_device();
        const graph = new FrameGraph(new GPUTextureAllocator(other.device));
        const frame = new FrameContext(graph, new RenderView(), other.device);
        frame.view.camera.update(32, 32);
        frame.view.camera.bind(other.device);
        frame.begin(32, 32, 64, 64);
        frame.enter(FramePhase.AfterGBuffer);
        const g = graph.add("depth", null, noop);
        frame.create(ViewTextures).depth = g.write(g.create("depth", TextureResourceDescriptor.of(32, 32, "depth32float", USAGE)));
        frame.enter(FramePhase.AfterLighting);
        const l = graph.add("lighting", null, noop);
        frame.create(SceneColor).color = l.write(l.create("scene colour", TextureResourceDescriptor.of(32, 32, "rgba16float", USAGE)));
        frame.enter(FramePhase.BeforePresent);
        h.step.record(frame, true);
        const stats: FakeStepDeviceStats = other.stats;
        // the two histories on the new device, before any pooled texture exists there
        expect(stats.textures).toBe(2);
        expect(stats.buffers).toBe(2); // the camera's uniforms and the resolve's parameters
        frame.close();
    });

    it("record + execute allocate nothing once warm (every allocation attributed to the file that made it)", async () => {
        const h = harness();
        h.record_blends.on = false;
        let leak = false;
        const kept: object[] = [];
        const frame = () => {
            h.render();
            // positive control: one small object per frame, made here
            if (leak) kept[0] = { frame: h.graph.frame_index };
        };
        for (let i = 0; i < 20_000; i++) frame();
        const bind_groups = h.stats.bind_groups;
        const textures = h.stats.textures;
        leak = true;
        const by_file = await allocations_by_file(frame, 500);
        const summary = [...by_file].map(([file, bytes]) => `${file} ${(bytes / 500).toFixed(0)}`).join(", ");
        console.log(`[alloc] bytes/frame by allocating file, steady frames on a FAKE device: ${summary}`);
        expect(by_file.get("UpscaleStep.test.ts") ?? 0, "the control's object is seen").toBeGreaterThanOrEqual(500 * 16);
        // the step's own files; the graph and the fullscreen helper it calls are measured by their own tests
        for (const file of ["UpscaleStep.ts", "TemporalJitter.ts", "taa_resolve.wgsl.ts"]) {
            expect(by_file.get(file) ?? 0, `bytes allocated in ${file} over 500 steady frames`).toBe(0);
        }
        expect(h.stats.bind_groups).toBe(bind_groups);
        expect(h.stats.textures).toBe(textures);
    });
});

interface ProfileNode {
    callFrame: { functionName: string; url: string };
    selfSize: number;
    children: ProfileNode[];
}

/**
 * Bytes allocated while `body` runs `frames` times, by the source file of the JS function that allocated
 * them (V8's sampling heap profiler at an 8-byte interval, keeping what minor GCs collect; a builtin such as
 * Array.prototype.push counts against the function that called it).
 */
async function allocations_by_file(body: () => void, frames: number): Promise<Map<string, number>> {
    const session = new Session();
    session.connect();
    try {
        await session.post("HeapProfiler.enable");
        await session.post("HeapProfiler.startSampling", {
            samplingInterval: 8,
            includeObjectsCollectedByMinorGC: true,
            includeObjectsCollectedByMajorGC: true,
        } as unknown as never);
        for (let i = 0; i < frames; i++) body();
        const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: ProfileNode } };
        const by_file = new Map<string, number>();
        const walk = (node: ProfileNode, owner: string): void => {
            const url = node.callFrame.url;
            const file = url === "" ? owner : url.slice(url.lastIndexOf("/") + 1);
            if (node.selfSize > 0) by_file.set(file, (by_file.get(file) ?? 0) + node.selfSize);
            for (const child of node.children) walk(child, file);
        };
        walk(profile.head, "(root)");
        return by_file;
    } finally {
        await session.post("HeapProfiler.disable");
        session.disconnect();
    }
}
