// Allocation per steady frame of FogOfWarSystem and HighlightSystem: Engine.tick (the fog's update with
// revealers crossing cells and cells fading, the grid upload and publication at FrameStart, the fog pass; the
// highlight's collect, seed, four flood passes and composite) once warm.
//
// Measured with test/harness/allocation.ts: young-generation bytes over windows right after a full GC (read in
// rounds until steady), on a FAKE device (device-independent: every object it hands out is made once; Dawn's JS
// wrappers allocate per encoder and pass whatever we do). The engine and frame graph allocate a little per pass
// on their own, so the systems are measured against reference extensions that record the same graph shape
// and open the same GPU passes; the difference is what the two systems allocate.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { Engine } from "../../../engine/Engine.js";
import type { FrameExecution } from "../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../shade/device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../../shade/device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../shade/renderer/extension/ViewTextures.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { FogOfWarSystem } from "../../../systems/fog_of_war/FogOfWarSystem.js";
import { FogRevealer } from "../../../systems/fog_of_war/FogRevealer.js";
import { VisibilityGrid } from "../../../systems/fog_of_war/VisibilityGrid.js";
import { Highlight } from "../../../systems/highlight/Highlight.js";
import { HighlightSystem } from "../../../systems/highlight/HighlightSystem.js";
import { steady_bytes_per_frame } from "../../harness/allocation.js";
import { fake_gpu_device, type FakeDeviceStats } from "../../shade/renderer/fake_gpu_device.js";

interface Data {
    a: FrameGraphHandle;
    b: FrameGraphHandle;
    out: FrameGraphHandle;
}

/** A pass that opens and ends one render pass on `out`, resolving the views the real pass resolves. */
function render_pass(colors: GPURenderPassColorAttachment[], pass: GPURenderPassDescriptor) {
    return (d: Data, r: FrameGraphResources, e: FrameExecution): void => {
        if (d.a !== -1) r.view(d.a);
        if (d.b !== -1) r.view(d.b);
        colors[0] = r.color_attachment(d.out);
        e.encoder.beginRenderPass(pass).end();
    };
}

/** The fog's shape: FrameStart imports a texture, writes it and publishes it as a VisibilityGrid. */
class ReferenceGrid extends RenderExtension {
    name = "reference grid";
    phase = FramePhase.FrameStart;
    texture: GPUTexture | null = null;
    readonly #execute = (_d: unknown, _r: FrameGraphResources, _e: FrameExecution): void => {};
    override record(frame: FrameContext): void {
        this.texture ??= frame.device.createTexture({ label: "reference grid", size: { width: 64, height: 64 }, format: "r8unorm", usage: 0x06 });
        const handle = frame.graph.import_texture("reference grid", this.texture);
        frame.create(VisibilityGrid).grid = frame.graph.add("reference grid / upload", this, this.#execute).write(handle, "load");
    }
}

/** At AfterTransparency: the highlight's seed, four floods and composite, then the fog's one pass. */
class ReferenceDraw extends RenderExtension {
    name = "reference draw";
    phase = FramePhase.AfterTransparency;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #pass: GPURenderPassDescriptor = { label: "reference", colorAttachments: this.#colors };
    readonly #execute = render_pass(this.#colors, this.#pass);
    readonly #data: Data[] = Array.from({ length: 7 }, () => ({ a: -1, b: -1, out: -1 }));
    override record(frame: FrameContext): void {
        const graph = frame.graph;
        const ids = frame.get(GBufferTextures).object_id;
        const size = graph.describe(ids);
        const seed = TextureResourceDescriptor.of(size.width, size.height, "rg32uint", 0x14);
        const data = this.#data;
        let builder = graph.add("reference / seed", data[0], this.#execute);
        data[0].a = builder.read(ids);
        let seeds = (data[0].out = builder.write(builder.create("reference seeds", seed)));
        for (let k = 1; k <= 4; k++) {
            builder = graph.add("reference / flood", data[k], this.#execute);
            data[k].a = builder.read(seeds);
            seeds = data[k].out = builder.write(builder.create("reference seeds", seed));
        }
        const scene = frame.get(SceneColor);
        builder = graph.add("reference / composite", data[5], this.#execute);
        data[5].a = builder.read(seeds);
        data[5].b = builder.read(ids);
        scene.color = data[5].out = builder.write(scene.color, "load");
        builder = graph.add("reference / fog", data[6], this.#execute);
        data[6].a = builder.read(frame.get(VisibilityGrid).grid);
        data[6].b = builder.read(frame.get(ViewTextures).depth);
        scene.color = data[6].out = builder.write(scene.color, "load");
    }
}

function fake_gpu(device: GPUDevice): GPU {
    const adapter = { features: new Set<string>(), limits: device.limits, info: {}, requestDevice: async () => device };
    return { requestAdapter: async () => adapter } as unknown as GPU;
}

describe("Fog of war and highlight allocation per steady frame", () => {
    it("FAKE device (device-independent): Engine.tick with revealers crossing cells, cells fading and an 8 px outline allocates nothing once warm, beyond a reference of the same graph shape", async () => {
        const frame_of = async (variant: "systems" | "reference"): Promise<{ frame: () => void; stats: FakeDeviceStats; fog: FogOfWarSystem | null }> => {
            const { device, stats } = fake_gpu_device();
            const engine = new Engine({ graphics: { gpu: fake_gpu(device), target: new TextureRenderTarget(64, 64) } });
            engine.graphics.feature_taa_enabled = false;
            const mesh = new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial({ base_color: [1, 1, 1] }));
            engine.graphics.scene.add(mesh);
            await engine.graphics.start();
            const em = engine.entityManager;
            const eids: number[] = [];
            let fog: FogOfWarSystem | null = null;
            // the same entities move in both variants: only the systems differ
            for (let i = 0; i < 50; i++) {
                const eid = em.create_entity();
                em.add_component(eid, Transform);
                em.add_component(eid, FogRevealer, (e) => (FogRevealer.radius[e] = 3 + (i % 4)));
                eids.push(eid);
            }
            if (variant === "systems") {
                fog = await engine.add_system(new FogOfWarSystem(engine.graphics, { grid: [64, 64], bounds: [-32, -32, 32, 32], fade_time: 0.1 }));
                const highlight = await engine.add_system(new HighlightSystem(engine.graphics));
                highlight.set_mesh(eids[0], mesh);
                em.add_component(eids[0], Highlight, (e) => {
                    Highlight.width[e] = 8;
                    Highlight.color.set([1, 0, 0, 1], e * 4);
                });
            } else {
                engine.graphics.add_extension(new ReferenceGrid());
                engine.graphics.add_extension(new ReferenceDraw());
            }
            let tick = 0;
            const frame = (): void => {
                tick++;
                // each revealer walks a circle of radius 10 at a cell every few frames
                for (let i = 0; i < eids.length; i++) {
                    const a = tick * 0.05 + i;
                    engine.entityManager.set_position(eids[i], Math.cos(a) * 10, 0, Math.sin(a) * 10);
                }
                engine.tick(1 / 60);
            };
            return { frame, stats, fog };
        };
        const systems = await frame_of("systems");
        const reference = await frame_of("reference");
        for (let i = 0; i < 3000; i++) {
            systems.frame();
            reference.frame();
        }
        const p0 = systems.stats.render_passes;
        const r0 = reference.stats.render_passes;
        systems.frame();
        reference.frame();
        expect(systems.stats.render_passes - p0, "as many GPU passes as the reference").toBe(reference.stats.render_passes - r0);
        let moves = 0;
        const counted = (): void => {
            systems.frame();
            moves += systems.fog!.moves;
        };
        const plain = (): void => {
            reference.frame();
            moves += 0;
        };
        const textures = systems.stats.textures;
        const reading = await steady_bytes_per_frame([counted, plain], { window: 1000, accept: ([o, t]) => o - t < 8 });
        const [ours, theirs] = reading.medians;
        const extra = ours - theirs;
        console.log(
            `[alloc] FAKE device: fog + highlight ${ours.toFixed(1)} young bytes/frame, reference ${theirs.toFixed(1)}: ` +
                `${extra.toFixed(1)} bytes/frame are the systems' (${moves} revealer moves measured, reading ${reading.rounds})`,
        );
        // revealers really crossed cells (the reveal/conceal path ran), and cells faded
        expect(moves).toBeGreaterThan(5000);
        expect(systems.stats.textures, "textures created in steady state").toBe(textures);
        expect(extra).toBeLessThan(8);
    });
});
