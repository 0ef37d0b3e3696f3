// Allocation per steady frame of the particle system: Engine.tick (system update, the simulation's record and
// execute at FrameStart, the draw's at AfterTransparency) with additive and alpha emitters spawning and dying
// every frame.
//
// Measured with test/harness/allocation.ts: young-generation bytes over windows right after a full GC that no
// GC lands in, read in rounds until steady. Zero is asserted on a FAKE device (device-independent: every object it hands
// out is made once, so what is left is our code), since Dawn's JS wrappers allocate per encoder and pass
// whatever we do. The engine and frame graph around the system allocate a little per pass on their own (their
// code, measured at the time of writing), so the system is measured against a reference: two extensions that
// record the same graph shape (a side-effect compute pass at FrameStart; at AfterTransparency a pass reading the
// depth and writing the colour, a side-effect compute pass and a pass writing the colour (the splat), one creating
// two transients, one resolving them into the colour) and open and
// end the same GPU passes. The difference is what the particle system's update, record and execute allocate.
import { addComponent } from "bitecs";
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import type { FrameExecution } from "../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../shade/device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../../shade/device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../shade/renderer/extension/ViewTextures.js";
import { Engine } from "../../../engine/Engine.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { add_particle_emitter, GPUParticleEmitterSystem, ParticleBlend } from "../../../systems/particles/index.js";
import { steady_bytes_per_frame } from "../../harness/allocation.js";
import { fake_gpu_device, type FakeDeviceStats } from "../../shade/renderer/fake_gpu_device.js";

/** The reference's FrameStart: one side-effect pass opening and ending a compute pass. */
class ReferenceSimulation extends RenderExtension {
    name = "reference simulation";
    phase = FramePhase.FrameStart;
    readonly #descriptor: GPUComputePassDescriptor = { label: "reference / simulate" };
    readonly #execute = (_d: unknown, _r: FrameGraphResources, execution: FrameExecution): void => {
        const pass = execution.encoder.beginComputePass(this.#descriptor);
        pass.dispatchWorkgroups(1);
        pass.end();
    };
    record(frame: FrameContext): void {
        frame.graph.add("reference / simulate", this, this.#execute).make_side_effect();
    }
}

interface ReferenceData {
    depth: FrameGraphHandle;
    first: FrameGraphHandle;
    splatted: FrameGraphHandle;
    second: FrameGraphHandle;
    accum: FrameGraphHandle;
    revealage: FrameGraphHandle;
}

/** The reference's AfterTransparency: the particle draw's three passes, each opening and ending a render pass. */
class ReferenceDraw extends RenderExtension {
    name = "reference draw";
    phase = FramePhase.AfterTransparency;
    readonly #data: ReferenceData = { depth: -1, first: -1, splatted: -1, second: -1, accum: -1, revealage: -1 };
    readonly #compute: GPUComputePassDescriptor = { label: "reference / splat" };
    readonly #splat = (d: ReferenceData, r: FrameGraphResources, e: FrameExecution): void => {
        this.#keys[0] = r.view(d.depth);
        const pass = e.encoder.beginComputePass(this.#compute);
        pass.dispatchWorkgroups(1);
        pass.end();
    };
    readonly #resolve = (d: ReferenceData, r: FrameGraphResources, e: FrameExecution): void => {
        this.#colors.length = 1;
        this.#colors[0] = r.color_attachment(d.splatted);
        this.#pass.depthStencilAttachment = undefined;
        e.encoder.beginRenderPass(this.#pass).end();
    };
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #pass: GPURenderPassDescriptor = { label: "reference", colorAttachments: this.#colors };
    readonly #one = (d: ReferenceData, r: FrameGraphResources, e: FrameExecution): void => {
        this.#colors.length = 1;
        this.#colors[0] = r.color_attachment(d.first);
        this.#pass.depthStencilAttachment = r.depth_attachment(d.depth);
        this.#keys[0] = r.view(d.depth);
        e.encoder.beginRenderPass(this.#pass).end();
    };
    readonly #two = (d: ReferenceData, r: FrameGraphResources, e: FrameExecution): void => {
        this.#colors[0] = r.color_attachment(d.accum);
        this.#colors[1] = r.color_attachment(d.revealage, REVEALAGE_CLEAR);
        this.#pass.depthStencilAttachment = r.depth_attachment(d.depth);
        this.#keys[0] = r.view(d.depth);
        e.encoder.beginRenderPass(this.#pass).end();
    };
    readonly #three = (d: ReferenceData, r: FrameGraphResources, e: FrameExecution): void => {
        this.#keys[0] = r.view(d.accum);
        this.#keys[1] = r.view(d.revealage);
        this.#colors.length = 1;
        this.#colors[0] = r.color_attachment(d.second);
        this.#pass.depthStencilAttachment = undefined;
        e.encoder.beginRenderPass(this.#pass).end();
    };
    readonly #keys: unknown[] = [null, null];
    record(frame: FrameContext): void {
        const graph = frame.graph;
        const scene = frame.get(SceneColor);
        const d = this.#data;
        d.depth = frame.get(ViewTextures).depth;
        const one = graph.add("reference / additive", d, this.#one);
        one.read(d.depth);
        d.first = one.write(scene.color, "load");
        scene.color = d.first;
        graph.add("reference / splat", d, this.#splat).make_side_effect().read(d.depth);
        d.splatted = graph.add("reference / splat resolve", d, this.#resolve).write(scene.color, "load");
        scene.color = d.splatted;
        const w = frame.resolution[0];
        const h = frame.resolution[1];
        const two = graph.add("reference / accumulate", d, this.#two);
        two.read(d.depth);
        d.accum = two.write(two.create("accumulation", TextureResourceDescriptor.of(w, h, "rgba16float", 0x14)));
        d.revealage = two.write(two.create("revealage", TextureResourceDescriptor.of(w, h, "r16float", 0x14)));
        const three = graph.add("reference / composite", d, this.#three);
        three.read(d.accum);
        three.read(d.revealage);
        d.second = three.write(scene.color, "load");
        scene.color = d.second;
    }
}

const REVEALAGE_CLEAR: GPUColorDict = { r: 1, g: 1, b: 1, a: 1 };

function fake_gpu(device: GPUDevice): GPU {
    const adapter = { features: new Set<string>(), limits: device.limits, info: {}, requestDevice: async () => device };
    return { requestAdapter: async () => adapter } as unknown as GPU;
}

describe("GPU particles allocation per steady frame", () => {
    it("FAKE device (device-independent): Engine.tick with emitters spawning, dying and drawing (both blend modes) allocates nothing once warm, beyond a reference of the same graph shape", async () => {
        const frame_of = async (variant: "particles" | "reference"): Promise<{ frame: () => void; stats: FakeDeviceStats; stop: () => Promise<void> }> => {
            const { device, stats } = fake_gpu_device();
            const engine = new Engine({ graphics: { gpu: fake_gpu(device), target: new TextureRenderTarget(64, 64) } });
            engine.graphics.feature_taa_enabled = false;
            await engine.graphics.start();
            const em = engine.entityManager;
            const eids: number[] = [];
            for (let i = 0; i < 8; i++) {
                const eid = em.create_entity();
                addComponent(em.world, eid, Transform);
                Transform.rotation.set([0, 0, 0.3826834, 0.9238795], eid * 4);
                eids.push(eid);
            }
            let system: GPUParticleEmitterSystem | null = null;
            if (variant === "particles") {
                system = await engine.add_system(new GPUParticleEmitterSystem(engine.graphics, { capacity: 4096 }));
                for (let i = 0; i < 8; i++) {
                    add_particle_emitter(em, eids[i], { rate: 1000 + i * 37, lifetime: [0.1, 0.5], blend: i % 2 === 0 ? ParticleBlend.Additive : ParticleBlend.Alpha });
                }
            } else {
                engine.graphics.add_extension(new ReferenceSimulation());
                engine.graphics.add_extension(new ReferenceDraw());
            }
            let tick = 0;
            const frame = (): void => {
                // a burst now and then, and an emitter moves: what a game does every frame
                if (system !== null && (tick & 15) === 0) system.burst(eids[tick & 7], 3);
                Transform.position[eids[1] * 3] = (tick & 31) * 0.01;
                em.mark_transform_changed(eids[1]);
                tick++;
                engine.tick(1 / 60);
            };
            const stop = async (): Promise<void> => {
                if (system !== null) await engine.remove_system(system);
                await engine.graphics.stop();
            };
            return { frame, stats, stop };
        };
        const particles = await frame_of("particles");
        const reference = await frame_of("reference");
        for (let i = 0; i < 5000; i++) {
            particles.frame();
            reference.frame();
        }
        const passes = (s: FakeDeviceStats): number => s.render_passes + s.compute_passes;
        const p0 = passes(particles.stats);
        const r0 = passes(reference.stats);
        particles.frame();
        reference.frame();
        // the simulation's compute pass, additive, accumulate, composite, and the renderer's own: as many as the reference
        expect(particles.stats.compute_passes).toBeGreaterThan(0);
        expect(passes(particles.stats) - p0).toBe(passes(reference.stats) - r0);
        const textures = particles.stats.textures;
        const reading = await steady_bytes_per_frame([particles.frame, reference.frame], { window: 1000, accept: ([o, t]) => o - t < 8 });
        const [ours, theirs] = reading.medians;
        const extra = ours - theirs;
        console.log(
            `[alloc] FAKE device: particles ${ours.toFixed(1)} young bytes/frame, reference ${theirs.toFixed(1)}: ` +
                `${extra.toFixed(1)} bytes/frame are the particle system's (reading ${reading.rounds}, windows of 1000 frames)`,
        );
        expect(particles.stats.textures, "textures created in steady state").toBe(textures);
        expect(extra).toBeLessThan(8);
        await particles.stop();
        await reference.stop();
    });
});
