// GraphicsEngine with a live renderer (Dawn on SwiftShader): what the running renderer refuses leaves the engine's
// own registry as it was, and settings changed while running reach the next frame.
import { afterEach, describe, expect, it } from "vitest";
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu } from "../harness/index.js";

const engines: GraphicsEngine[] = [];

afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
});

function make_engine(options: { target?: TextureRenderTarget } = {}) {
    const errors: Error[] = [];
    const target = options.target ?? new TextureRenderTarget(32, 32);
    const engine = new GraphicsEngine({ gpu: get_gpu(), target, on_error: (e) => errors.push(e) });
    engines.push(engine);
    return { engine, target, errors };
}

class Probe extends RenderExtension {
    name: string;
    phase = FramePhase.AfterTransparency;
    records = 0;
    constructor(name = "probe") {
        super();
        this.name = name;
    }
    record(frame: FrameContext): void {
        void frame;
        this.records++;
    }
}

function counts(engine: GraphicsEngine, phase = FramePhase.AfterTransparency) {
    return { engine: engine.extension_count(phase), renderer: engine.renderer?.extension_count(phase) ?? null };
}

describe("GraphicsEngine with a running renderer", () => {
    it("the running renderer refusing an extension (a namesake registered on it directly) rolls the engine's registry back", async () => {
        const { engine, errors } = make_engine();
        await engine.start();
        // the engine does not know the renderer's own extension: its registry takes the twin, the renderer refuses it
        engine.renderer!.add_extension(new Probe("twin"));
        const twin = new Probe("twin");
        const before = engine.describe();
        expect(() => engine.add_extension(twin)).toThrow("AfterTransparency already has a render extension named 'twin' (Probe)");
        expect(engine.has_extension(twin)).toBe(false);
        expect(counts(engine)).toEqual({ engine: 0, renderer: 1 });
        expect(engine.describe()).toEqual(before);
        engine.render();
        expect(twin.records).toBe(0);
        // and nothing of it comes back with the next renderer
        await engine.stop();
        await engine.start();
        expect(counts(engine)).toEqual({ engine: 0, renderer: 0 });
        engine.render();
        expect(twin.records).toBe(0);
        expect(errors).toEqual([]);
    });

    it("the running renderer refusing an extension that closes a cycle with one registered on it directly rolls the engine's registry back", async () => {
        const { engine, errors } = make_engine();
        await engine.start();
        class Second extends Probe {}
        class First extends Probe {
            override after = [Second];
        }
        class Cyclic extends Second {
            override after = [First];
        }
        engine.renderer!.add_extension(new First("first"));
        const cyclic = new Cyclic("cyclic");
        expect(() => engine.add_extension(cyclic)).toThrow("closes an ordering cycle");
        expect(engine.has_extension(cyclic)).toBe(false);
        expect(counts(engine)).toEqual({ engine: 0, renderer: 1 });
        // the engine still takes a well-behaved extension, and both sides agree
        const fine = engine.add_extension(new Probe("fine"));
        expect(counts(engine)).toEqual({ engine: 1, renderer: 2 });
        engine.render();
        expect(fine.records).toBe(1);
        expect(cyclic.records).toBe(0);
        expect(errors).toEqual([]);
    });

    it("resolution_scale set while running reaches the renderer: the next frame's internal resolution follows it", async () => {
        const { engine, errors } = make_engine({ target: new TextureRenderTarget(64, 32) });
        await engine.start();
        const seen: string[] = [];
        class Size extends Probe {
            override record(frame: FrameContext): void {
                seen.push(`${frame.internal_resolution[0]}x${frame.internal_resolution[1]} of ${frame.output_resolution[0]}x${frame.output_resolution[1]}`);
            }
        }
        engine.add_extension(new Size("size"));
        engine.resolution_scale = 0.5;
        engine.render();
        engine.resolution_scale = 0.25;
        engine.render();
        engine.resolution_scale = 1;
        engine.render();
        expect(engine.renderer!.resolution_scale).toBe(1);
        expect(seen).toEqual(["32x16 of 64x32", "16x8 of 64x32", "64x32 of 64x32"]);
        // kept for the next renderer too
        engine.resolution_scale = 0.5;
        await engine.stop();
        await engine.start();
        engine.render();
        expect(seen.at(-1)).toBe("32x16 of 64x32");
        expect(errors).toEqual([]);
    });
});
