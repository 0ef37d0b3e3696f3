// The WGSL error path of an extension with its own render pipeline (not FullscreenEffect): compiled through
// compile_shader, a broken module surfaces once as that extension's failure whose cause names the shader's label
// and the line, no GPU error is raised, and the rest of the frame is drawn (Dawn on SwiftShader).
import { afterEach, describe, expect, it } from "vitest";
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { CompiledShader } from "../../shade/device/CompiledShader.js";
import { compile_shader } from "../../shade/device/compile_shader.js";
import { ShaderCompileError } from "../../shade/device/ShaderCompileError.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { RenderExtensionError } from "../../shade/renderer/extension/RenderExtensionError.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../shade/renderer/fullscreen/FullscreenEffect.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu, read_texture, write_readback_png } from "../harness/index.js";

const engines: GraphicsEngine[] = [];
afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
});

/** A covering triangle painting x in [from, to) of the scene colour; `body` is the fragment's colour expression. */
function quad_wgsl(from: number, to: number, body: string): string {
    return [
        "struct Out { @builtin(position) position: vec4f, @location(0) x: f32 };", // line 1
        "@vertex fn vs(@builtin(vertex_index) i: u32) -> Out {",
        "    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u)) * 2.0 - 1.0;",
        "    return Out(vec4f(p, 0.0, 1.0), p.x * 0.5 + 0.5);",
        "}",
        "@fragment fn fs(in: Out) -> @location(0) vec4f {",
        `    if (in.x < ${from} || in.x >= ${to}) { discard; }`,
        `    return ${body};`, // line 8
        "}",
    ].join("\n");
}

/** An extension with its own pipeline, made per device once its module compiled. */
class OwnPipelineBand extends RenderExtension {
    phase = FramePhase.AfterTransparency;
    name: string;
    body: string;
    records = 0;
    readonly #states = new WeakMap<GPUDevice, { shader: CompiledShader; pipeline: GPURenderPipeline | null }>();
    constructor(name: string, body: string) {
        super();
        this.name = name;
        this.body = body;
    }
    shader(device: GPUDevice): CompiledShader | null {
        return this.#states.get(device)?.shader ?? null;
    }
    record(frame: FrameContext): void {
        this.records++;
        const device = frame.device;
        let state = this.#states.get(device);
        if (state === undefined) {
            state = { shader: compile_shader(device, { label: `${this.name} shader`, code: quad_wgsl(0.33, 0.66, this.body) }), pipeline: null };
            this.#states.set(device, state);
        }
        if (!state.shader.expect_compiled()) return; // still compiling: nothing of ours this frame
        const module = state.shader.module;
        state.pipeline ??= device.createRenderPipeline({
            label: `${this.name} pipeline`,
            layout: "auto",
            vertex: { module, entryPoint: "vs" },
            fragment: { module, entryPoint: "fs", targets: [{ format: "rgba16float" }] },
        });
        const pipeline = state.pipeline;
        const scene = frame.get(SceneColor);
        const b = frame.graph.add(`${this.name} / band`, null, (_data, resources, execution) => {
            const pass = execution.encoder.beginRenderPass({ label: `${this.name} / band`, colorAttachments: [resources.color_attachment(written)] });
            pass.setPipeline(pipeline);
            pass.draw(3);
            pass.end();
        });
        const written = b.write(scene.color, "load");
        scene.color = written;
    }
}

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

async function setup(body: string) {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(30, 12);
    const engine = new GraphicsEngine({ gpu: get_gpu(), target, on_error: (e) => errors.push(e) });
    engine.feature_taa_enabled = false;
    engines.push(engine);
    engine.add_extension(new Band("a left", 0, 0.33, "0.0, 4.0, 0.0"));
    const own = engine.add_extension(new OwnPipelineBand("own pipeline", body));
    engine.add_extension(new Band("z right", 0.66, 1.01, "0.0, 0.0, 4.0"));
    await engine.start();
    return { engine, target, errors, own };
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

/** Renders until the extension's shader has its compilation result (a few frames at most). */
async function render_until_compiled(engine: GraphicsEngine, own: OwnPipelineBand): Promise<void> {
    expect(engine.render()).toBe(true);
    await own.shader(engine.device!)!.done;
    expect(engine.render()).toBe(true);
}

describe("compile_shader: an extension's own pipeline", () => {
    it("compiles and draws (the control)", async () => {
        const { engine, target, errors, own } = await setup("vec4f(4.0, 0.0, 0.0, 1.0)");
        await render_until_compiled(engine, own);
        expect(own.shader(engine.device!)!.status).toBe("compiled");
        expect(await bands(engine, target, "shader_compile_control")).toBe("GRB");
        expect(errors).toEqual([]);
    });

    it("broken WGSL: reported once naming the extension, the shader label and the line; the rest of the frame drawn", async () => {
        const { engine, target, errors, own } = await setup("vec4f(undefined_thing, 0.0, 0.0, 1.0)");
        await render_until_compiled(engine, own);
        expect(errors.length).toBe(1);
        const error = errors[0] as RenderExtensionError;
        expect(error).toBeInstanceOf(RenderExtensionError);
        expect(error.message).toBe("Render extension 'own pipeline' failed to record at AfterTransparency");
        expect(error.extension).toBe(own);
        const cause = error.cause as ShaderCompileError;
        expect(cause).toBeInstanceOf(ShaderCompileError);
        expect(cause.label).toBe("own pipeline shader");
        expect(cause.messages[0].line).toBe(8);
        expect(cause.message).toMatch(/^WGSL shader 'own pipeline shader' does not compile:\n {2}line 8:\d+: .*undefined_thing/);
        expect(cause.message).toContain("    return vec4f(undefined_thing, 0.0, 0.0, 1.0);");
        // the neighbours still draw: not black, only the broken band missing, nothing more reported
        expect(await bands(engine, target, "shader_compile_broken")).toBe("G-B");
        engine.render();
        engine.render();
        expect(await bands(engine, target, "shader_compile_broken_later")).toBe("G-B");
        expect(errors.length).toBe(1); // no GPU validation errors: no pipeline was made of the broken module

        // fixed on a new device (a restart): compiles, draws again
        own.body = "vec4f(4.0, 0.0, 0.0, 1.0)";
        await engine.stop();
        await engine.start();
        await render_until_compiled(engine, own);
        expect(await bands(engine, target, "shader_compile_fixed")).toBe("GRB");
        expect(errors.length).toBe(1);
    });
});
