// One bad extension never takes the frame down: whatever way it fails (record throws, a pass throws, its WGSL
// does not compile, its commands fail validation), its work is dropped, the failure is reported once naming the
// extension, the rest of the frame is drawn, and it records again after a retry (Dawn on SwiftShader).
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { FrameRecord } from "../../shade/renderer/extension/FrameRecord.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { RenderExtensionError, type RenderExtensionFailure } from "../../shade/renderer/extension/RenderExtensionError.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { TextureResourceDescriptor } from "../../shade/device/graph/TextureResourceDescriptor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu, read_texture, write_readback_png } from "../harness/index.js";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
function heap_after_gc(): number {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
}

const engines: GraphicsEngine[] = [];
afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
});

/** Paints one vertical band of the scene colour (HDR values that tonemap to a bright primary). */
class Band extends RenderExtension {
    phase = FramePhase.AfterTransparency;
    name: string;
    readonly #effect: FullscreenEffect;
    constructor(name: string, from: number, to: number, rgb: string) {
        super();
        this.name = name;
        this.#effect = new FullscreenEffect({
            label: `${name} band`,
            inputs: 0,
            format: "rgba16float",
            fragment: `fn effect(uv: vec2f) -> vec4f { if (uv.x < ${from} || uv.x >= ${to}) { discard; } return vec4f(${rgb}, 1.0); }`,
        });
    }
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
    }
}

class Marker extends FrameRecord {
    static is_present_at(): boolean {
        return true;
    }
}

type Mode = "none" | RenderExtensionFailure | "compile" | "record after publishing" | "oversized" | "no attachment usage";

/** Paints the middle band red, or fails in the way it is told to. */
class Saboteur extends RenderExtension {
    phase = FramePhase.AfterTransparency;
    name = "saboteur";
    mode: Mode = "none";
    records = 0;
    readonly #paint = new FullscreenEffect({
        label: "saboteur paint",
        inputs: 0,
        format: "rgba16float",
        fragment: `fn effect(uv: vec2f) -> vec4f { if (uv.x < 0.33 || uv.x >= 0.66) { discard; } return vec4f(4.0, 0.0, 0.0, 1.0); }`,
    });
    readonly #broken = new FullscreenEffect({
        label: "saboteur broken",
        inputs: 0,
        format: "rgba16float",
        fragment: `fn effect(uv: vec2f) -> vec4f {\n    return vec4f(uv, undefined_thing, 1.0);\n}`,
    });
    record(frame: FrameContext): void {
        this.records++;
        const scene = frame.get(SceneColor);
        switch (this.mode) {
            case "record":
                throw new Error("boom in record");
            case "record after publishing":
                scene.color = this.#paint.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
                frame.create(Marker);
                frame.graph.push_scope("left open");
                throw new Error("boom after publishing");
            case "execute": {
                const b = frame.graph.add("saboteur / explode", null, () => {
                    throw new TypeError("boom");
                });
                scene.color = b.write(scene.color, "load");
                return;
            }
            case "validation": {
                const b = frame.graph.add("saboteur / invalid", null, (_data, resources, execution) => {
                    const pass = execution.encoder.beginRenderPass({
                        label: "saboteur / invalid",
                        colorAttachments: [resources.color_attachment(written)],
                    });
                    pass.draw(3); // no pipeline set: a validation error at finish
                    pass.end();
                });
                const written = b.write(scene.color, "load");
                scene.color = written;
                return;
            }
            case "oversized": {
                // 10000 x 16 is over every device's maxTextureDimension2D of 8192: refused while recording
                const b = frame.graph.add("saboteur / strip", null, () => {});
                const strip = b.create("strip", TextureResourceDescriptor.from({ resolution: [10000, 16], format: "rgba8unorm", usage: 0x14 }));
                b.write(strip);
                return;
            }
            case "no attachment usage": {
                const b = frame.graph.add("saboteur / sampled only", null, (_data, resources) => {
                    resources.color_attachment(out);
                });
                const out = b.write(b.create("sampled only", TextureResourceDescriptor.from({ resolution: frame.resolution, format: "rgba8unorm", usage: 0x04 })));
                b.make_side_effect();
                return;
            }
            case "compile":
                scene.color = this.#broken.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
                return;
            default:
                scene.color = this.#paint.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
        }
    }
}

function make_engine() {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(30, 12);
    const engine = new GraphicsEngine({ gpu: get_gpu(), target, on_error: (e) => errors.push(e) });
    engine.feature_taa_enabled = false;
    engines.push(engine);
    const left = engine.add_extension(new Band("a left", 0, 0.33, "0.0, 4.0, 0.0"));
    const saboteur = engine.add_extension(new Saboteur());
    const right = engine.add_extension(new Band("z right", 0.66, 1.01, "0.0, 0.0, 4.0"));
    return { engine, target, errors, left, saboteur, right };
}

async function bands(engine: GraphicsEngine, target: TextureRenderTarget, name: string): Promise<string> {
    const image = await read_texture(engine.device!, target.acquire());
    write_readback_png(image, name);
    const at = (x: number) => {
        const i = (6 * image.width + x) * 4;
        const [r, g, b] = image.data.slice(i, i + 3);
        return r > 150 && g < 80 && b < 80 ? "R" : g > 150 && r < 80 ? "G" : b > 150 && r < 80 ? "B" : "-";
    };
    return `${at(4)}${at(15)}${at(25)}`;
}

const extension_errors = (errors: Error[]) => errors.filter((e): e is RenderExtensionError => e instanceof RenderExtensionError);

async function render_until_reported(engine: GraphicsEngine, errors: Error[]): Promise<void> {
    for (let attempt = 0; extension_errors(errors).length === 0 && attempt < 300; attempt++) {
        expect(engine.render()).toBe(true);
        await engine.device!.queue.onSubmittedWorkDone();
        await new Promise((resolve) => setTimeout(resolve, 2));
    }
}

describe("fault isolation", () => {
    it("a healthy frame draws all three bands (the control)", async () => {
        const { engine, target, errors } = make_engine();
        await engine.start();
        engine.render();
        expect(await bands(engine, target, "isolation_control")).toBe("GRB");
        expect(errors).toEqual([]);
    });

    const cases: [Mode, RenderExtensionFailure, RegExp][] = [
        ["record", "record", /^Render extension 'saboteur' failed to record at AfterTransparency$/],
        ["record after publishing", "record", /^Render extension 'saboteur' failed to record at AfterTransparency$/],
        ["execute", "execute", /^Render extension 'saboteur' failed to execute pass 'saboteur \/ explode' at AfterTransparency$/],
        ["validation", "validation", /^Render extension 'saboteur' failed GPU validation in pass 'saboteur \/ invalid' at AfterTransparency$/],
        ["oversized", "record", /^Render extension 'saboteur' failed to record at AfterTransparency$/],
        ["no attachment usage", "execute", /^Render extension 'saboteur' failed to execute pass 'saboteur \/ sampled only' at AfterTransparency$/],
        ["compile", "execute", /^Render extension 'saboteur' failed (to execute|GPU validation in) pass 'saboteur broken' at AfterTransparency$/],
    ];
    for (const [mode, failure, message] of cases) {
        it(`'${mode}': only the saboteur's work is dropped, it is reported once, and it records again after a retry`, async () => {
            const { engine, target, errors, saboteur } = make_engine();
            await engine.start();
            saboteur.mode = mode;
            await render_until_reported(engine, errors);
            if (mode === "record" || mode === "record after publishing" || mode === "execute" || mode === "oversized" || mode === "no attachment usage") {
                // found while the frame was made: that very frame is drawn without it
                expect(saboteur.records).toBe(1);
                expect(await bands(engine, target, `isolation_${mode.replace(/ /g, "_")}_failing_frame`)).toBe("G-B");
            }
            const reported = extension_errors(errors);
            expect(reported.length).toBe(1);
            expect(reported[0].message).toMatch(message);
            if (mode !== "compile") expect(reported[0].failure).toBe(failure);
            expect(reported[0].extension).toBe(saboteur);
            expect(reported[0].cause).toBeInstanceOf(Error);
            if (mode === "oversized") expect((reported[0].cause as Error).message).toMatch(/'strip' is 10000x16, larger than this device's maxTextureDimension2D \(\d+\)/);
            if (mode === "no attachment usage") expect((reported[0].cause as Error).message).toMatch(/lacks GPUTextureUsage.RENDER_ATTACHMENT/);

            // the frame goes on without it: no red, both neighbours drawn, nothing more reported
            engine.render();
            engine.render();
            expect(await bands(engine, target, `isolation_${mode.replace(/ /g, "_")}`)).toBe("G-B");
            expect(extension_errors(errors).length).toBe(1);
            const records = saboteur.records;
            engine.render();
            expect(saboteur.records).toBe(records); // suspended
            // fixed and retried: drawn again
            saboteur.mode = "none";
            engine.retry_extensions();
            engine.render();
            expect(await bands(engine, target, `isolation_${mode.replace(/ /g, "_")}_retried`)).toBe("GRB");
            // only GPU errors from before the culprit was found, and none after
            const others = errors.filter((e) => !(e instanceof RenderExtensionError));
            for (const e of others) expect(e.message).toMatch(/^GPU error: /);
            if (mode !== "validation" && mode !== "compile") expect(others).toEqual([]);
        });
    }

    it("a record that failed after publishing leaves no trace: its record withdrawn, its scope closed", async () => {
        const { engine, errors, saboteur } = make_engine();
        let seen: boolean | null = null;
        class Reader extends RenderExtension {
            name = "zz reader";
            phase = FramePhase.AfterTransparency;
            record(frame: FrameContext): void {
                seen = frame.has(Marker);
            }
        }
        engine.add_extension(new Reader());
        await engine.start();
        saboteur.mode = "record after publishing";
        engine.render();
        expect(seen).toBe(false);
        expect(extension_errors(errors).length).toBe(1);
    });

    it("chaos with GPU failures: a persistent compile or validation failure among random throws is found and reported once, heap flat", async () => {
        const errors: Error[] = [];
        const target = new TextureRenderTarget(16, 8);
        const engine = new GraphicsEngine({ gpu: get_gpu(), target, on_error: (e) => errors.push(e) });
        engine.feature_taa_enabled = false;
        engines.push(engine);
        const saboteurs: Saboteur[] = [];
        for (let i = 0; i < 10; i++) {
            const s = new Saboteur();
            s.name = `saboteur ${i}`;
            saboteurs.push(engine.add_extension(s));
        }
        await engine.start();
        let seed = 777;
        const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
        const gpu_culprits = [saboteurs[3], saboteurs[8]];
        gpu_culprits[0].mode = "validation";
        gpu_culprits[1].mode = "compile";
        let heap_after_warmup = 0;
        for (let frame = 0; frame < 400; frame++) {
            for (const s of saboteurs) if (!gpu_culprits.includes(s)) s.mode = "none";
            const victim = saboteurs[Math.floor(random() * 10)];
            if (!gpu_culprits.includes(victim)) victim.mode = random() < 0.5 ? "record" : "execute";
            expect(engine.render()).toBe(true);
            if (frame % 20 === 19) {
                await engine.device!.queue.onSubmittedWorkDone();
                await new Promise((resolve) => setTimeout(resolve, 1));
            }
            if (frame === 100) heap_after_warmup = heap_after_gc();
        }
        const reported = extension_errors(errors);
        for (const culprit of gpu_culprits) {
            const mine = reported.filter((e) => e.extension === culprit);
            expect(mine.length, culprit.name).toBe(1);
            expect(mine[0].message).toMatch(/failed (GPU validation in|to execute) pass 'saboteur (\/ invalid|broken)' at AfterTransparency/);
        }
        // the others: each injected throw is reported once, as the saboteur it came from
        for (const e of reported) expect(e.message).toMatch(/^Render extension 'saboteur \d' failed/);
        // GPU errors only while the culprits were being found, not after
        const last_gpu_error = errors.map((e, i) => (e instanceof RenderExtensionError ? -1 : i)).reduce((a, b) => Math.max(a, b), -1);
        const culprits_found = Math.max(...gpu_culprits.map((c) => errors.findIndex((e) => e instanceof RenderExtensionError && e.extension === c)));
        expect(last_gpu_error).toBeLessThan(culprits_found);
        // memory: no growth beyond noise once warm (fault handling keeps nothing per failure)
        expect(heap_after_gc() - heap_after_warmup).toBeLessThan(2 * 1024 * 1024);
    });

    it("chaos: 300 frames, one of ten extensions fails at random each frame; every failure reported once, no frame throws", async () => {
        const errors: Error[] = [];
        const target = new TextureRenderTarget(16, 8);
        const engine = new GraphicsEngine({ gpu: get_gpu(), target, on_error: (e) => errors.push(e) });
        engine.feature_taa_enabled = false;
        engines.push(engine);
        const saboteurs: Saboteur[] = [];
        for (let i = 0; i < 10; i++) {
            const s = new Saboteur();
            s.name = `saboteur ${i}`;
            saboteurs.push(engine.add_extension(s));
        }
        await engine.start();
        let seed = 12345;
        const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
        const modes: Mode[] = ["record", "execute", "record after publishing"];
        const injected = new Map<string, number>();
        for (let frame = 0; frame < 300; frame++) {
            for (const s of saboteurs) s.mode = "none";
            const victim = saboteurs[Math.floor(random() * 10)];
            if (!engine.renderer!.registry.is_suspended(victim)) {
                victim.mode = modes[Math.floor(random() * modes.length)];
                injected.set(victim.name, (injected.get(victim.name) ?? 0) + 1);
            }
            expect(engine.render()).toBe(true);
            if (frame % 10 === 9) engine.retry_extensions();
        }
        const reported = new Map<string, number>();
        for (const e of extension_errors(errors)) reported.set(e.extension.name, (reported.get(e.extension.name) ?? 0) + 1);
        expect(reported).toEqual(injected);
        expect(errors.filter((e) => !(e instanceof RenderExtensionError))).toEqual([]);
    });
});
