// Worked example for DriftEngine `PassDefinition.prepare` ("fill a target the pass owns, once a frame, before
// anything opens the frame's own"; sampled from `draw`; released in `dispose`; zero cost when no pass declares
// it; a pass needing another's output must come after it). Here: extensions at FrameStart write textures they
// own (imported into the frame's graph, so their passes are side effects) and publish them in a record; a
// later extension samples them. Order is declared (`after`), not registration order - registering the
// dependent first still works, and names alone would put it first.
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { FrameRecord } from "../../shade/renderer/extension/FrameRecord.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { Renderer } from "../../shade/renderer/Renderer.js";
import { SCENE_COLOR_FORMAT } from "../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { pixel_at, read_texture, tonemapped, with_gpu_device, write_readback_png } from "../harness/index.js";
import { STEADY_BYTES_BOUND, steady_frame_bytes } from "./steady_frame_bytes.js";

const SIZE = 64;
const OWNED = 4;
const PALETTE = [
    [0.8, 0.2, 0.1],
    [0.1, 0.7, 0.3],
    [0.2, 0.3, 0.9],
];

/** The prepared targets of this frame, written at FrameStart only. */
class PreparedTargets extends FrameRecord {
    #source: FrameGraphHandle = -1;
    #derived: FrameGraphHandle = -1;
    static override is_present_at(phase: FramePhase): boolean {
        void phase;
        return true;
    }
    static override is_writable_at(phase: FramePhase): boolean {
        return phase === FramePhase.FrameStart;
    }
    get source(): FrameGraphHandle {
        return this.read(this.#source, "source");
    }
    set source(h: FrameGraphHandle) {
        this.#source = this.publish(h, "source");
    }
    get derived(): FrameGraphHandle {
        return this.read(this.#derived, "derived");
    }
    set derived(h: FrameGraphHandle) {
        this.#derived = this.publish(h, "derived");
    }
    // reused next frame rather than made again (no garbage per frame)
    override reset_for_reuse(): boolean {
        this.#source = -1;
        this.#derived = -1;
        return true;
    }
}

/** Drift's `createPassAttachment`: a texture the extension owns, one per device (a new device rebuilds it). */
class OwnedTarget {
    readonly #per_device = new WeakMap<GPUDevice, GPUTexture>();
    #last: GPUTexture | null = null;
    created = 0;
    constructor(readonly label: string) {}
    on(device: GPUDevice): GPUTexture {
        let t = this.#per_device.get(device);
        if (t === undefined) {
            t = device.createTexture({
                label: this.label,
                size: { width: OWNED, height: OWNED },
                format: "rgba8unorm",
                usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC,
            });
            this.#per_device.set(device, t);
            this.#last = t;
            this.created++;
        }
        return t;
    }
    /** Drift's `dispose`. */
    destroy(): void {
        this.#last?.destroy();
        this.#last = null;
    }
}

/** Prepares a target filled with this frame's palette colour (a clear; no shader needed). */
class SourcePrepare extends RenderExtension {
    name = "zz source"; // sorts last by name: only `after` puts the dependent behind it
    phase = FramePhase.FrameStart;
    readonly target = new OwnedTarget("source target");
    prepared = 0;
    #frame = 0;
    #handle: FrameGraphHandle = -1;
    readonly #clear: GPUColorDict = { r: 0, g: 0, b: 0, a: 1 };
    readonly #attachments: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "zz source / fill", colorAttachments: this.#attachments };
    record(frame: FrameContext): void {
        const c = PALETTE[this.#frame++ % PALETTE.length];
        this.#clear.r = c[0];
        this.#clear.g = c[1];
        this.#clear.b = c[2];
        const pass = frame.graph.add("zz source / fill", this, execute_source);
        this.#handle = pass.write(frame.graph.import_texture("source target", this.target.on(frame.device)), "clear");
        frame.create(PreparedTargets).source = this.#handle;
    }
    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        this.prepared++;
        this.#attachments[0] = resources.color_attachment(this.#handle, this.#clear);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        execution.encoder.beginRenderPass(this.#descriptor).end();
    }
    override destroy(): void {
        this.target.destroy();
    }
}

function execute_source(e: SourcePrepare, resources: FrameGraphResources, execution: FrameExecution): void {
    e.execute(resources, execution);
}

/** Prepares a second target from the first (half its colour): it needs the source's output, so it comes after it. */
class DerivedPrepare extends RenderExtension {
    name = "aa derived";
    phase = FramePhase.FrameStart;
    after = [SourcePrepare];
    readonly target = new OwnedTarget("derived target");
    readonly #halve = new FullscreenEffect({
        label: "aa derived / halve",
        inputs: 1,
        format: "rgba8unorm",
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f { return vec4f(sample_input_0(uv).rgb * 0.5, 1.0); }`,
    });
    record(frame: FrameContext): void {
        const targets = frame.get(PreparedTargets);
        const owned = frame.graph.import_texture("derived target", this.target.on(frame.device));
        targets.derived = this.#halve.graph_draw(frame.graph, owned, targets.source, undefined, undefined, undefined, "clear");
    }
    override destroy(): void {
        this.target.destroy();
    }
}

/** Drift's `draw`: samples the prepared targets (left half the source, right half the derived). */
class DrawPrepared extends RenderExtension {
    name = "draw prepared";
    phase = FramePhase.AfterTransparency;
    readonly #effect = new FullscreenEffect({
        label: "draw prepared",
        inputs: 2,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f {
            return select(sample_input_1(uv), sample_input_0(uv), uv.x < 0.5);
        }`,
    });
    record(frame: FrameContext): void {
        if (!frame.has(PreparedTargets)) return;
        const targets = frame.get(PreparedTargets);
        const scene = frame.get(SceneColor);
        const output = frame.graph.create("prepared drawn", frame.describe(scene.color));
        scene.color = this.#effect.graph_draw(frame.graph, output, targets.source, targets.derived);
    }
}

describe("DriftEngine prepare: pass-owned targets filled once a frame", () => {
    it("filled before the frame's own passes, this frame's content sampled by a later draw; ordered by after, not registration", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.capture_pass_list = true;
            const baseline_passes = (() => {
                renderer.render_frame();
                return renderer.last_frame_passes.map((p) => p.name);
            })();
            expect(renderer.extension_count(FramePhase.FrameStart)).toBe(0);

            // registered dependent-first: the declared order puts the source first all the same
            const draw = renderer.add_extension(new DrawPrepared());
            const derived = renderer.add_extension(new DerivedPrepare());
            const source = renderer.add_extension(new SourcePrepare());
            const start = renderer.describe().phases.find((p) => p.phase === FramePhase.FrameStart)!;
            expect(start.extensions.map((e) => e.name)).toEqual(["zz source", "aa derived"]);

            for (let f = 0; f < 3; f++) {
                renderer.render_frame();
                const image = await read_texture(device, target.acquire());
                write_readback_png(image, `drift_prepare_frame_${f}`);
                const c = PALETTE[f];
                const left = pixel_at(image, 8, 32);
                const right = pixel_at(image, 56, 32);
                for (let k = 0; k < 3; k++) {
                    // this frame's colour, not the last frame's: prepared before the draw of the same frame
                    expect(Math.abs(left[k] - tonemapped(c[k])), `frame ${f} left ${left}`).toBeLessThan(4);
                    expect(Math.abs(right[k] - tonemapped(Math.round(c[k] * 255) / 255 / 2)), `frame ${f} right ${right}`).toBeLessThan(4);
                }
                const names = renderer.last_frame_passes.map((p) => p.name);
                expect(names.indexOf("zz source / fill")).toBeLessThan(names.indexOf("aa derived / halve"));
                expect(names.indexOf("aa derived / halve")).toBeLessThan(names.indexOf("gbuffer"));
            }
            // once a frame; built once (init), the same owned textures every frame
            expect(source.prepared).toBe(3);
            expect(source.target.created).toBe(1);
            expect(derived.target.created).toBe(1);

            // nobody declares a prepare: no FrameStart work at all, the same passes as before any was added
            renderer.remove_extension(source);
            renderer.remove_extension(derived);
            renderer.remove_extension(draw);
            renderer.render_frame();
            expect(renderer.extension_count(FramePhase.FrameStart)).toBe(0);
            expect(renderer.last_frame_passes.map((p) => p.name)).toEqual(baseline_passes);
            expect(source.prepared).toBe(3);
            // Drift's dispose: the owner releases what it made
            source.destroy();
            derived.destroy();
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("FAKE device (device-independent): a steady frame with the example registered allocates nothing", async () => {
        const { bytes, textures_in_steady_state } = await steady_frame_bytes((r) => {
            r.add_extension(new DrawPrepared());
            r.add_extension(new DerivedPrepare());
            r.add_extension(new SourcePrepare());
        });
        expect(textures_in_steady_state, "textures created in steady state").toBe(0);
        expect(bytes, "young bytes per steady frame").toBeLessThan(STEADY_BYTES_BOUND);
    });
});
