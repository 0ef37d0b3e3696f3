// GraphicsEngine stays consistent with its renderer and cannot wedge: refused calls change nothing, failed
// starts and recoveries end "stopped" and can be retried, the last start/stop wins, the scene survives
// restarts and lost devices, user callbacks never break recovery (Dawn on SwiftShader).
import { afterEach, describe, expect, it } from "vitest";
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { make_box_geometry } from "../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu, read_texture, write_readback_png } from "../harness/index.js";

const engines: GraphicsEngine[] = [];

afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
});

function make_engine(options: { gpu?: GPU; target?: TextureRenderTarget } = {}) {
    const errors: Error[] = [];
    const target = options.target ?? new TextureRenderTarget(32, 32);
    const engine = new GraphicsEngine({ gpu: options.gpu ?? get_gpu(), target, on_error: (e) => errors.push(e) });
    engines.push(engine);
    return { engine, target, errors };
}

class Probe extends RenderExtension {
    name: string;
    phase = FramePhase.AfterTransparency;
    records = 0;
    during: ((frame: FrameContext) => void) | null = null;
    constructor(name = "probe") {
        super();
        this.name = name;
    }
    record(frame: FrameContext): void {
        this.records++;
        const during = this.during;
        this.during = null;
        during?.(frame);
    }
}

function counts(engine: GraphicsEngine, phase = FramePhase.AfterTransparency) {
    return { engine: engine.extension_count(phase), renderer: engine.renderer?.extension_count(phase) ?? null };
}

/** A GPU whose adapter requests fail the first `failures` times (no adapter), then come from Dawn. */
function flaky_gpu(failures: { adapter?: number; device?: number }): GPU {
    const real = get_gpu();
    let adapter_failures = failures.adapter ?? 0;
    let device_failures = failures.device ?? 0;
    return {
        async requestAdapter(options?: GPURequestAdapterOptions) {
            if (adapter_failures > 0) {
                adapter_failures--;
                return null;
            }
            const adapter = await real.requestAdapter(options);
            if (adapter === null || device_failures === 0) return adapter;
            return new Proxy(adapter, {
                get(target, key) {
                    if (key === "requestDevice" && device_failures > 0) {
                        device_failures--;
                        return () => Promise.reject(new Error("OperationError: the device request was refused (test)"));
                    }
                    const value = Reflect.get(target, key, target);
                    return typeof value === "function" ? value.bind(target) : value;
                },
            });
        },
        getPreferredCanvasFormat: () => real.getPreferredCanvasFormat(),
        wgslLanguageFeatures: real.wgslLanguageFeatures,
    } as GPU;
}

/** A red box filling the middle of the view. */
function red_box_scene(): Scene {
    const scene = new Scene();
    scene.sun.intensity = 0;
    scene.ambient.set([1, 1, 1]);
    scene.add(new Mesh(make_box_geometry(1.6, 1.6, 1.6), new StandardMaterial({ base_color: [1, 0, 0, 1], roughness: 1, label: "red box" })));
    return scene;
}

function place_camera(engine: GraphicsEngine): void {
    engine.view.camera.position.set([0, 0, 4]);
    engine.view.camera.target.set([0, 0, 0]);
}

async function centre_pixel(engine: GraphicsEngine, target: TextureRenderTarget, name: string): Promise<number[]> {
    const image = await read_texture(engine.device!, target.acquire());
    write_readback_png(image, name);
    const i = (16 * image.width + 16) * 4;
    return [...image.data.slice(i, i + 4)];
}

describe("GraphicsEngine consistency", () => {
    it("add_extension inside record: the engine refuses first, engine and renderer agree, also after stop -> start", async () => {
        const { engine, errors } = make_engine();
        const probe = engine.add_extension(new Probe());
        await engine.start();
        let refused: Error | null = null;
        probe.during = () => {
            try {
                engine.add_extension(new Probe("late"));
            } catch (e) {
                refused = e as Error;
            }
        };
        expect(engine.render()).toBe(true);
        expect(refused!.message).toMatch(/add_extension\('late'\) called while render extension 'probe' records at AfterTransparency/);
        expect(counts(engine)).toEqual({ engine: 1, renderer: 1 });
        await engine.stop();
        await engine.start();
        expect(counts(engine)).toEqual({ engine: 1, renderer: 1 });
        expect(errors).toEqual([]);
    });

    it("remove_extension inside record: refused, the extension stays registered on both", async () => {
        const { engine, errors } = make_engine();
        const probe = engine.add_extension(new Probe());
        await engine.start();
        let refused: Error | null = null;
        probe.during = () => {
            try {
                engine.remove_extension(probe);
            } catch (e) {
                refused = e as Error;
            }
        };
        engine.render();
        expect(refused!.message).toMatch(/remove_extension\('probe'\) called while render extension 'probe' records/);
        expect(counts(engine)).toEqual({ engine: 1, renderer: 1 });
        await engine.stop();
        await engine.start();
        expect(counts(engine)).toEqual({ engine: 1, renderer: 1 });
        engine.render();
        expect(probe.records).toBe(2);
        expect(errors).toEqual([]);
    });

    it("adding an extension already registered on the renderer directly is refused and changes nothing", async () => {
        const { engine, errors } = make_engine();
        await engine.start();
        const direct = engine.renderer!.add_extension(new Probe("direct"));
        expect(() => engine.add_extension(direct)).toThrow("render extension 'direct' is already registered on the renderer directly");
        expect(counts(engine)).toEqual({ engine: 0, renderer: 1 });
        await engine.stop();
        await engine.start();
        expect(counts(engine)).toEqual({ engine: 0, renderer: 0 }); // the refused call did not take effect later
        expect(errors).toEqual([]);
    });

    it("two extensions of one name on a phase are refused; the first stays", () => {
        const { engine } = make_engine();
        engine.add_extension(new Probe("twin"));
        expect(() => engine.add_extension(new Probe("twin"))).toThrow(
            "AfterTransparency already has a render extension named 'twin' (Probe); names order the extensions of a phase and must be unique there",
        );
        expect(engine.extension_count(FramePhase.AfterTransparency)).toBe(1);
    });
});

describe("GraphicsEngine lifecycle", () => {
    it("a failed start (no adapter) ends stopped with a clear error, and a later start tries again", async () => {
        const { engine, errors } = make_engine({ gpu: flaky_gpu({ adapter: 1 }) });
        await expect(engine.start()).rejects.toThrow("GraphicsEngine.start: no WebGPU adapter is available");
        expect(engine.state).toBe("stopped");
        expect(engine.renderer).toBeNull();
        await engine.start();
        expect(engine.state).toBe("running");
        expect(engine.render()).toBe(true);
        expect(errors).toEqual([]);
    });

    it("a rejected device request ends stopped naming the cause, and a later start tries again", async () => {
        const { engine } = make_engine({ gpu: flaky_gpu({ device: 1 }) });
        const failure = await engine.start().catch((e: Error) => e);
        expect((failure as Error).message).toMatch(/^GraphicsEngine.start: the device request was rejected: OperationError/);
        expect(engine.state).toBe("stopped");
        await engine.start();
        expect(engine.state).toBe("running");
    });

    it("start without a target says how to give one", async () => {
        const engine = new GraphicsEngine({ gpu: get_gpu() });
        engines.push(engine);
        await expect(engine.start()).rejects.toThrow("GraphicsEngine.start: no render target; pass { target } to new GraphicsEngine() or set graphics.target");
        expect(engine.state).toBe("stopped");
        engine.target = new TextureRenderTarget(8, 8);
        await engine.start();
        expect(engine.render()).toBe(true);
        expect(() => {
            engine.target = new TextureRenderTarget(8, 8);
        }).toThrow("GraphicsEngine.target cannot change while the engine is running; stop() first");
    });

    it("start(); stop(); start() without awaiting: the last call wins and the engine runs", async () => {
        const { engine, errors } = make_engine();
        const a = engine.start();
        const b = engine.stop();
        const c = engine.start();
        await Promise.all([a, b, c]);
        expect(engine.state).toBe("running");
        expect(engine.render()).toBe(true);
        expect(errors).toEqual([]);
    });

    it("start(); stop() without awaiting: the engine ends stopped and its device is gone", async () => {
        const { engine } = make_engine();
        const a = engine.start();
        await engine.stop();
        await a;
        expect(engine.state).toBe("stopped");
        expect(engine.device).toBeNull();
        expect(engine.render()).toBe(false);
    });

    it("the scene is held by the engine: it survives stop -> start and a lost device with nothing re-assigned", async () => {
        const { engine, target, errors } = make_engine();
        engine.feature_taa_enabled = false;
        engine.scene = red_box_scene();
        place_camera(engine);
        await engine.start();
        engine.render();
        const first = await centre_pixel(engine, target, "engine_scene_first");
        expect(first[0]).toBeGreaterThan(200);
        expect(first[1]).toBeLessThan(40);

        await engine.stop();
        await engine.start();
        engine.render();
        expect(await centre_pixel(engine, target, "engine_scene_restart")).toEqual(first);

        const device = engine.device!;
        device.destroy();
        await device.lost;
        await engine.ready();
        engine.render();
        expect(await centre_pixel(engine, target, "engine_scene_after_loss")).toEqual(first);
        expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^GPU device lost \(destroyed\)/)]);
    });

    it("asks for indirect-first-instance and culls the G-buffer on the GPU; gbuffer_culling: false holds across a restart", async () => {
        const { engine } = make_engine();
        engine.scene = red_box_scene();
        place_camera(engine);
        await engine.start();
        expect(engine.device!.features.has("indirect-first-instance")).toBe(true);
        expect(engine.renderer!.gbuffer_culling.culls(engine.device!)).toBe(true);
        engine.render();
        expect(Array.from(await engine.renderer!.gbuffer_culling.read_instance_counts(engine.device!)), "the box drawn through culling").toEqual([1]);

        const off = new GraphicsEngine({ gpu: get_gpu(), target: new TextureRenderTarget(32, 32), gbuffer_culling: false });
        engines.push(off);
        await off.start();
        expect(off.renderer!.gbuffer_culling.culls(off.device!)).toBe(false);
        await off.stop();
        await off.start();
        expect(off.renderer!.gbuffer_culling.culls(off.device!), "after stop -> start").toBe(false);
    });

    it("on a lost device the dead renderer is destroyed and engine.renderer is null while recovering", async () => {
        const { engine } = make_engine();
        await engine.start();
        const dead = engine.renderer!;
        const device = engine.device!;
        device.destroy();
        await device.lost;
        expect(engine.state).toBe("recovering");
        expect(engine.renderer).toBeNull();
        expect(dead.destroyed).toBe(true);
        await engine.ready();
        expect(engine.renderer).not.toBe(dead);
        expect(engine.render()).toBe(true);
    });

    it("an on_error callback that throws during device loss does not stop teardown or recovery", async () => {
        const target = new TextureRenderTarget(16, 16);
        let told = 0;
        const engine = new GraphicsEngine({
            gpu: get_gpu(),
            target,
            on_error: () => {
                told++;
                throw new Error("a careless callback");
            },
        });
        engines.push(engine);
        const probe = engine.add_extension(new Probe());
        await engine.start();
        const device = engine.device!;
        const logged: unknown[] = [];
        const console_error = console.error;
        console.error = (...args: unknown[]) => logged.push(args);
        try {
            device.destroy();
            await device.lost;
            await engine.ready();
        } finally {
            console.error = console_error;
        }
        expect(told).toBe(1);
        expect(logged.length).toBe(1); // the callback's own throw, logged once
        expect(engine.state).toBe("running");
        expect(engine.device).not.toBe(device);
        expect(engine.render()).toBe(true);
        expect(probe.records).toBe(1);
    });

    it("a recovery that fails is reported through on_error, ends stopped, and a later start tries again", async () => {
        const real = get_gpu();
        let adapters_left = 1;
        const gpu = {
            requestAdapter: (options?: GPURequestAdapterOptions) => (adapters_left-- > 0 ? real.requestAdapter(options) : Promise.resolve(null)),
            getPreferredCanvasFormat: () => real.getPreferredCanvasFormat(),
            wgslLanguageFeatures: real.wgslLanguageFeatures,
        } as GPU;
        const { engine, errors } = make_engine({ gpu });
        await engine.start();
        const device = engine.device!;
        device.destroy();
        await device.lost;
        await expect(engine.ready()).rejects.toThrow("GraphicsEngine could not recover from a lost device; call start() to try again");
        expect(engine.state).toBe("stopped");
        expect(errors.map((e) => e.message)).toEqual([
            expect.stringMatching(/^GPU device lost/),
            "GraphicsEngine could not recover from a lost device; call start() to try again",
        ]);
        expect((errors[1].cause as Error).message).toBe("GraphicsEngine recovery: no WebGPU adapter is available");
        adapters_left = 1;
        await engine.start();
        expect(engine.render()).toBe(true);
    });

    it("a 0x0 target skips frames quietly until it has a size", async () => {
        const target = new TextureRenderTarget(0, 0);
        const { engine, errors } = make_engine({ target });
        const probe = engine.add_extension(new Probe());
        await engine.start();
        for (let i = 0; i < 3; i++) expect(engine.render()).toBe(false);
        expect(probe.records).toBe(0);
        target.resize(24, 16);
        expect(engine.render()).toBe(true);
        expect(probe.records).toBe(1);
        target.resize(0, 16);
        expect(engine.render()).toBe(false);
        expect(errors).toEqual([]);
    });

    it("render() called from inside record says so, and only that extension is dropped", async () => {
        const { engine, errors } = make_engine();
        const probe = engine.add_extension(new Probe());
        await engine.start();
        probe.during = () => engine.render();
        expect(engine.render()).toBe(true); // the frame is drawn without the misbehaving extension
        expect(errors.map((e) => e.message)).toEqual(["Render extension 'probe' failed to record at AfterTransparency"]);
        expect((errors[0].cause as Error).message).toBe(
            "Renderer.render_frame: render() called re-entrantly from inside render extension 'probe', in its record; a frame cannot start while another is recording",
        );
        expect(engine.render()).toBe(true);
        expect(probe.records).toBe(1); // suspended until a retry
        engine.retry_extensions();
        engine.render();
        expect(probe.records).toBe(2);
        expect(errors.length).toBe(1);
    });

    it("resolution_scale is checked on assignment", () => {
        const { engine } = make_engine();
        for (const bad of [0, Number.NaN, 5, -1]) {
            expect(() => {
                engine.resolution_scale = bad;
            }).toThrow(`GraphicsEngine.resolution_scale must be a number in (0, 4], got ${bad}`);
        }
        engine.resolution_scale = 0.5;
        expect(engine.resolution_scale).toBe(0.5);
    });
});
