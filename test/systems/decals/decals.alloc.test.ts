// Allocation per steady frame of the decal system (and the terrain beneath it): Engine.tick with a terrain and
// 1,000 decals, a few of them moving every frame (so the dirty-range upload runs).
//
// Measured with test/harness/allocation.ts: young-generation bytes over windows right after a full GC that no
// GC lands in, read in rounds until steady. Zero is asserted on a FAKE device (device-independent: every object it
// hands out is made once, so what is left is our code), against a reference of the same graph shape (the
// engine and frame graph around the systems allocate a little per pass on their own): two AfterGBuffer
// extensions, one writing the four G-buffer targets and depth with a load, one reading depth and normal and
// writing albedo, each opening and ending one render pass. On Dawn, the system's update and the extension's
// upload (what runs on the CPU per frame besides encoding) are measured directly and must allocate nothing.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { Engine } from "../../../engine/Engine.js";
import type { FrameExecution } from "../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { ViewTextures } from "../../../shade/renderer/extension/ViewTextures.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { Decal } from "../../../systems/decals/Decal.js";
import { DecalSystem } from "../../../systems/decals/DecalSystem.js";
import { Terrain } from "../../../systems/terrain/Terrain.js";
import { TerrainSystem } from "../../../systems/terrain/TerrainSystem.js";
import { steady_bytes_per_frame } from "../../harness/allocation.js";
import { with_gpu_device } from "../../harness/index.js";
import { fake_gpu_device } from "../../shade/renderer/fake_gpu_device.js";

interface GData {
    handles: FrameGraphHandle[];
}

/** The terrain's shape: one pass loading and writing the four targets and depth. */
class ReferenceGround extends RenderExtension {
    name = "reference ground";
    phase = FramePhase.AfterGBuffer;
    readonly #data: GData = { handles: [-1, -1, -1, -1, -1] };
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #pass: GPURenderPassDescriptor = { label: "reference ground", colorAttachments: this.#colors };
    readonly #execute = (d: GData, r: FrameGraphResources, e: FrameExecution): void => {
        for (let i = 0; i < 4; i++) this.#colors[i] = r.color_attachment(d.handles[i]);
        this.#pass.depthStencilAttachment = r.depth_attachment(d.handles[4]);
        e.encoder.beginRenderPass(this.#pass).end();
    };
    override record(frame: FrameContext): void {
        const g = frame.get(GBufferTextures);
        const v = frame.get(ViewTextures);
        const h = this.#data.handles;
        const pass = frame.graph.add("reference / ground", this.#data, this.#execute);
        h[0] = pass.write(g.albedo, "load");
        h[1] = pass.write(g.normal, "load");
        h[2] = pass.write(g.material, "load");
        h[3] = pass.write(g.object_id, "load");
        h[4] = pass.write(v.depth, "load");
        g.albedo = h[0];
        g.normal = h[1];
        g.material = h[2];
        g.object_id = h[3];
        v.depth = h[4];
    }
}

/** The decals' shape: one pass reading depth and normal, loading and writing albedo. */
class ReferenceMarks extends RenderExtension {
    name = "reference marks";
    phase = FramePhase.AfterGBuffer;
    override after = [ReferenceGround];
    readonly #data: GData = { handles: [-1, -1, -1] };
    readonly #keys: unknown[] = [null, null];
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #pass: GPURenderPassDescriptor = { label: "reference marks", colorAttachments: this.#colors };
    readonly #execute = (d: GData, r: FrameGraphResources, e: FrameExecution): void => {
        this.#keys[0] = r.view(d.handles[0]);
        this.#keys[1] = r.view(d.handles[1]);
        this.#colors[0] = r.color_attachment(d.handles[2]);
        e.encoder.beginRenderPass(this.#pass).end();
    };
    override record(frame: FrameContext): void {
        const g = frame.get(GBufferTextures);
        const h = this.#data.handles;
        const pass = frame.graph.add("reference / marks", this.#data, this.#execute);
        h[0] = pass.read(frame.get(ViewTextures).depth);
        h[1] = pass.read(g.normal);
        h[2] = pass.write(g.albedo, "load");
        g.albedo = h[2];
    }
}

function fake_gpu(device: GPUDevice): GPU {
    const adapter = { features: new Set<string>(), limits: device.limits, info: {}, requestDevice: async () => device };
    return { requestAdapter: async () => adapter } as unknown as GPU;
}

const DECALS = 1000;

async function populate(engine: Engine): Promise<number[]> {
    const em = engine.entityManager;
    const ground = em.create_entity();
    em.add_component(ground, Transform);
    em.add_component(ground, Terrain);
    Terrain.write(ground, { size: 64, resolution: 33 });
    const eids: number[] = [];
    for (let i = 0; i < DECALS; i++) {
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        em.add_component(eid, Decal);
        Transform.position.set([(i % 50) - 25, 0, Math.floor(i / 50) - 20], eid * 3);
        Decal.write(eid, { size: [1, 1, 1], frame: i % 8, rotation: i * 0.1 });
        eids.push(eid);
    }
    return eids;
}

describe("Decal system allocation per steady frame", () => {
    it("FAKE device (device-independent): Engine.tick with a terrain and 1,000 decals, some moving, allocates nothing once warm beyond a reference of the same graph shape", async () => {
        const frame_of = async (variant: "decals" | "reference"): Promise<{ frame: () => void; uploads: () => number; stop: () => Promise<void> }> => {
            const { device } = fake_gpu_device();
            const engine = new Engine({ graphics: { gpu: fake_gpu(device), target: new TextureRenderTarget(64, 64) } });
            engine.graphics.feature_taa_enabled = false;
            await engine.graphics.start();
            let decals: DecalSystem | null = null;
            let terrain: TerrainSystem | null = null;
            if (variant === "decals") {
                terrain = await engine.add_system(new TerrainSystem(engine.graphics));
                decals = await engine.add_system(new DecalSystem(engine.graphics, { initial_capacity: 16 }));
            } else {
                engine.graphics.add_extension(new ReferenceGround());
                engine.graphics.add_extension(new ReferenceMarks());
            }
            const eids = await populate(engine);
            let tick = 0;
            let uploaded = 0;
            const frame = (): void => {
                tick++;
                // three decals move, one turns: what a game does every frame (selection circles under units)
                for (let k = 0; k < 3; k++) {
                    const eid = eids[(tick + k * 97) % DECALS];
                    Transform.position[eid * 3] += 0.01;
                    engine.entityManager.mark_transform_changed(eid);
                }
                Decal.rotation[eids[tick % DECALS]] += 0.1;
                engine.tick(1 / 60);
                uploaded += decals?.extension?.last_upload_count ?? 0;
            };
            const stop = async (): Promise<void> => {
                if (decals !== null) await engine.remove_system(decals);
                if (terrain !== null) await engine.remove_system(terrain);
                await engine.graphics.stop();
            };
            return { frame, uploads: () => uploaded, stop };
        };
        const decals = await frame_of("decals");
        const reference = await frame_of("reference");
        for (let i = 0; i < 2000; i++) {
            decals.frame();
            reference.frame();
        }
        let frames = 0;
        const counted = (): void => {
            decals.frame();
            frames++;
        };
        const before = decals.uploads();
        const reading = await steady_bytes_per_frame([counted, reference.frame], { window: 500, accept: ([o, t]) => o - t < 8 });
        const [ours, theirs] = reading.medians;
        const extra = ours - theirs;
        console.log(
            `[alloc] FAKE device: terrain + ${DECALS} decals ${ours.toFixed(1)} young bytes/frame, reference ${theirs.toFixed(1)}: ` +
                `${extra.toFixed(1)} bytes/frame are the systems' (reading ${reading.rounds}, windows of 500 frames)`,
        );
        // the dirty records went up (a few per frame), not the whole buffer
        const per_frame = (decals.uploads() - before) / frames;
        expect(per_frame).toBeGreaterThan(1);
        expect(per_frame).toBeLessThan(DECALS / 2);
        expect(extra).toBeLessThan(8);
        await decals.stop();
        await reference.stop();
    });

    it("Dawn: the system's update and the extension's upload allocate nothing per frame", async () => {
        await with_gpu_device(async (device) => {
            const engine = new Engine();
            const system = await engine.add_system(new DecalSystem(engine.graphics, { initial_capacity: 16 }));
            const eids = await populate(engine);
            let tick = 0;
            const frame = (): void => {
                tick++;
                for (let k = 0; k < 3; k++) {
                    const eid = eids[(tick + k * 97) % DECALS];
                    Transform.position[eid * 3 + 2] += 0.01;
                    engine.entityManager.mark_transform_changed(eid);
                }
                engine.entityManager.update_world_transforms();
                system.update(1 / 60);
                system.extension!.upload(device);
            };
            for (let i = 0; i < 1500; i++) frame();
            await device.queue.onSubmittedWorkDone();
            const bytes = (await steady_bytes_per_frame([frame], { window: 300, accept: ([b]) => b < 1 })).medians[0];
            await device.queue.onSubmittedWorkDone();
            console.info(`decals update + upload (Dawn): ${bytes.toFixed(2)} bytes per frame`);
            expect(bytes).toBeLessThan(1);
            await engine.remove_system(system);
        });
    });
});
