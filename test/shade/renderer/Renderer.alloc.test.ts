// Allocation per steady frame of Renderer.render_frame with six extensions spread over the phases.
//
// What is measured: the young-generation (new space) bytes a frame allocates, read from
// v8.getHeapSpaceStatistics() over a window that starts right after a full GC and that no GC lands in (checked
// with a PerformanceObserver on 'gc' entries). That is exact to the byte, where counting minor GCs alone would
// need a nursery's worth of garbage (megabytes) before it shows anything. Minor GCs are counted as well, over a
// longer run. vitest's forks run without --expose-gc; the full GC comes from v8.setFlagsFromString('--expose-gc')
// and vm (as Jest's leak detector does).
//
// Dawn's JS wrappers allocate inside the `webgpu` addon on every frame (a command encoder, a render pass
// encoder per pass, a command buffer) whatever our code does. So zero allocation is asserted on a FAKE device
// (device-independent: every object it returns is made once), which leaves the renderer's own code as the only
// thing that can allocate; on Dawn the test reports what a frame allocates, wrappers included, and asserts a
// loose bound only. A positive control shows that the measurement sees one small object per frame.
import { PerformanceObserver, constants, performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FrameGraphHandle } from "../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../shade/renderer/extension/GBufferTextures.js";
import { PresentTarget } from "../../../shade/renderer/extension/PresentTarget.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../shade/renderer/extension/ViewTextures.js";
import { FullscreenEffect } from "../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_sphere_geometry } from "../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../../../shade/renderer/Renderer.js";
import { Geometry } from "../../../shade/renderer/geometry/Geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { ShadowExtension } from "../../../shade/renderer/shadows/ShadowExtension.js";
import { MeshSkin } from "../../../shade/renderer/scene/MeshSkin.js";
import { SkinPaletteTable } from "../../../shade/renderer/scene/SkinPaletteTable.js";
import { PointLight } from "../../../shade/renderer/scene/PointLight.js";
import { Scene } from "../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import type { FullscreenPath } from "../../../shade/renderer/fullscreen/FullscreenPath.js";
import { gc, observed_bytes_per_frame } from "../../harness/allocation.js";
import { with_gpu_device } from "../../harness/index.js";
import { fake_gpu_device, type FakeDeviceStats } from "./fake_gpu_device.js";

const SIZE = 64;
/** Render or compute passes an empty scene's frame runs at least: gbuffer, lighting, scene painter, upscale, tonemap. */
const MIN_PASSES_PER_FRAME = 5;

// ---- six extensions over the six phases: five record nothing (four of them read a record), one paints ----

/** FrameStart: records nothing. */
class Idle extends RenderExtension {
    name = "idle";
    phase = FramePhase.FrameStart;
    record(_frame: FrameContext): void {}
}

/** AfterGBuffer: reads the G-buffer and depth, records nothing. */
class GBufferReader extends RenderExtension {
    name = "gbuffer reader";
    phase = FramePhase.AfterGBuffer;
    seen: FrameGraphHandle = -1;
    record(frame: FrameContext): void {
        this.seen = frame.get(GBufferTextures).albedo ^ frame.get(ViewTextures).depth;
    }
}

/** Reads the scene colour if the frame carries one (AfterLighting, BeforePresent), records nothing. */
class SceneReader extends RenderExtension {
    seen: FrameGraphHandle = -1;
    width = 0;
    constructor(
        public name: string,
        public phase: FramePhase,
    ) {
        super();
    }
    record(frame: FrameContext): void {
        if (!frame.has(SceneColor)) return;
        this.seen = frame.get(SceneColor).color;
        this.width = frame.describe(this.seen).width;
    }
}

/** AfterTransparency: paints the left half of the scene colour, keeping the rest (a write with "load"). */
class ScenePainter extends RenderExtension {
    name = "scene painter";
    phase = FramePhase.AfterTransparency;
    readonly #effect = new FullscreenEffect({
        label: "scene painter",
        inputs: 0,
        format: "rgba16float",
        fragment: `fn effect(uv: vec2f) -> vec4f {
            if (!(uv.x < 0.5)) { discard; }
            return vec4f(0.5, 0.1, 0.05, 1.0);
        }`,
    });
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
    }
}

/** Overlay: reads the present target, records nothing. */
class PresentReader extends RenderExtension {
    name = "present reader";
    phase = FramePhase.Overlay;
    seen: FrameGraphHandle = -1;
    record(frame: FrameContext): void {
        this.seen = frame.get(PresentTarget).target;
    }
}

/** Positive control: a no-op extension that, while `allocating`, allocates one small object per frame (and keeps it). */
class Leaky extends RenderExtension {
    name = "leaky";
    phase = FramePhase.AfterLighting;
    allocating = false;
    frames = 0;
    kept: { frame: number } | null = null;
    record(_frame: FrameContext): void {
        if (this.allocating) this.kept = { frame: this.frames++ };
        else this.frames++;
    }
}

function add_extensions(renderer: Renderer): void {
    renderer.add_extension(new Idle());
    renderer.add_extension(new GBufferReader());
    renderer.add_extension(new SceneReader("scene reader (lit)", FramePhase.AfterLighting));
    renderer.add_extension(new ScenePainter());
    renderer.add_extension(new SceneReader("scene reader (upscaled)", FramePhase.BeforePresent));
    renderer.add_extension(new PresentReader());
}

// ---- measuring ----

let minor_gcs = 0;
let major_gcs = 0;
const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
        const kind = (entry as { readonly detail?: { readonly kind?: number } | null }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor_gcs++;
        else major_gcs++;
    }
});

/** Lets queued GC entries reach the observer. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

function median(values: readonly number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Minor (young-generation) GCs over `frames` calls of `frame`, after a full GC. */
async function minor_gcs_over(frame: () => void, frames: number): Promise<number> {
    gc();
    await settle();
    const before = minor_gcs;
    for (let i = 0; i < frames; i++) frame();
    await settle();
    return minor_gcs - before;
}

beforeAll(() => observer.observe({ entryTypes: ["gc"] }));
afterAll(() => observer.disconnect());

// ---- FAKE device (no GPU) ----

/** The full-screen steps' path for every renderer of this file (see Renderer.compute.alloc.test.ts). */
const PATHS = process.env.SHADE_ALLOC_PATHS as FullscreenPath | undefined;

function fake_renderer(scene?: Scene, fullscreen_paths: FullscreenPath | undefined = PATHS): { renderer: Renderer; stats: FakeDeviceStats } {
    const { device, stats } = fake_gpu_device({ features: ["indirect-first-instance"] });
    const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, fullscreen_paths });
    add_extensions(renderer);
    return { renderer, stats };
}

/** Frames for the JIT to settle (optimised code allocates less than the interpreter's). */
const FAKE_WARMUP = 5000;
/** Frames per exact window: a 32-byte object per frame adds up to 32 kB, well inside the nursery after a full GC. */
const FAKE_WINDOW = 1000;
/** The GC-counting run. */
const FAKE_COUNTED = 5_000;
/** Dawn: frames to warm up (after the FAKE device's warm-up), to measure, to count GCs over. */
const DAWN_WARMUP = 50;
const DAWN_WINDOW = 64;
const DAWN_COUNTED = 100;
/** Below one small object (32 bytes) per frame: no per-frame allocation, with room for measurement noise. */
const BYTES_PER_FRAME_BOUND = 8;

/** Four opaque boxes in two materials, three blended spheres, three point lights. */
function small_scene(): Scene {
    const scene = new Scene();
    const box = make_box_geometry();
    const sphere = make_sphere_geometry(0.5, 8, 4);
    const red = new StandardMaterial({ base_color: [1, 0, 0, 1] });
    const blue = new StandardMaterial({ base_color: [0, 0, 1, 1] });
    const glass = new StandardMaterial({ base_color: [1, 1, 1, 0.4], transparency: "blended" });
    for (let i = 0; i < 4; i++) scene.add(new Mesh(box, i % 2 === 0 ? red : blue));
    for (let i = 0; i < 3; i++) scene.add(new Mesh(sphere, glass));
    for (let i = 0; i < 3; i++) scene.add_point_light(new PointLight());
    return scene;
}

/** Two skinned boxes (two joints each), two picking from a palette table, and a rigid one: the skins change every frame (`SkinWaver`). */
function skinned_scene(): Scene {
    const scene = new Scene();
    const box = make_box_geometry();
    const n = box.vertex_count;
    const joints = new Float32Array(n * 4);
    const weights = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
        joints[i * 4] = box.attributes.position.array[i * 3 + 1] > 0 ? 1 : 0;
        weights[i * 4] = 1;
    }
    const skinned = new Geometry({ position: box.attributes.position.array, normal: box.attributes.normal!.array, uv: box.attributes.uv!.array, joints, weights, index: box.index });
    const material = new StandardMaterial({ base_color: [0, 1, 0, 1] });
    for (let i = 0; i < 2; i++) {
        const mesh = new Mesh(skinned, material);
        mesh.skin = new MeshSkin(2, `skin ${i}`);
        scene.add(mesh);
    }
    // and two picking from a table of three palettes (blended on the GPU)
    const table = new SkinPaletteTable(2, new Float32Array(3 * 2 * 16), "three palettes");
    for (let i = 0; i < 2; i++) {
        const mesh = new Mesh(skinned, material);
        mesh.skin = new MeshSkin(2, `table skin ${i}`, "mesh", table);
        scene.add(mesh);
    }
    scene.add(new Mesh(box, material));
    return scene;
}

/** FrameStart: moves joint 1 of every skinned mesh a little each frame and marks the skin changed. */
class SkinWaver extends RenderExtension {
    name = "skin waver";
    phase = FramePhase.FrameStart;
    readonly #t = new Float32Array(1);
    readonly #scene: Scene;
    constructor(scene: Scene) {
        super();
        this.#scene = scene;
    }
    record(_frame: FrameContext): void {
        this.#t[0] += 0.01;
        const meshes = this.#scene.meshes;
        for (let i = 0; i < meshes.length; i++) {
            const skin = meshes[i].skin;
            if (skin === null) continue;
            if (skin.table !== null) {
                skin.blend[0] = (skin.blend[0] + 1) % 3;
                skin.blend[4] = 0.5;
                skin.blend[5] = 0.5;
            } else skin.matrices[16 + 12] = Math.sin(this.#t[0]);
            skin.mark_changed();
        }
    }
}

/** FrameStart: moves the scene's first live mesh every frame, and its first frozen mesh (with `changed()`) every fourth. */
class FrozenMover extends RenderExtension {
    name = "frozen mover";
    phase = FramePhase.FrameStart;
    #frame = 0;
    readonly #scene: Scene;
    constructor(scene: Scene) {
        super();
        this.#scene = scene;
    }
    record(_frame: FrameContext): void {
        const n = ++this.#frame;
        const meshes = this.#scene.meshes;
        let live_moved = false;
        let frozen_moved = false;
        for (let i = 0; i < meshes.length; i++) {
            const mesh = meshes[i];
            if (!mesh.frozen && !live_moved) {
                mesh.position[0] = Math.sin(n * 0.1);
                live_moved = true;
            } else if (mesh.frozen && !frozen_moved && n % 4 === 0) {
                mesh.position[1] = Math.sin(n * 0.1);
                mesh.changed();
                frozen_moved = true;
            }
        }
    }
}

/** Warms `renderer` up, then asserts that its steady frames allocate nothing (exact bytes, and minor GCs). */
async function expect_no_allocation(renderer: Renderer, stats: FakeDeviceStats, label: string): Promise<void> {
    const frame = () => renderer.render_frame();
    // in rounds with pauses: on a loaded machine V8's concurrent compiler lags, and code not yet optimised
    // boxes the doubles it passes on
    for (let round = 0; round < 5; round++) {
        for (let i = 0; i < FAKE_WARMUP / 5; i++) frame();
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const textures = stats.textures;
    const bundle_encoders = stats.bundle_encoders;
    const passes = stats.render_passes + stats.compute_passes;
    frame();
    const per_frame = stats.render_passes + stats.compute_passes - passes;
    expect(per_frame, "render passes per frame (the frame really runs)").toBeGreaterThanOrEqual(MIN_PASSES_PER_FRAME);
    expect(stats.debug_depth, "debug groups balanced").toBe(0);
    if (PATHS === "compute") expect(stats.compute_passes, "the full-screen steps ran as compute passes").toBeGreaterThan(0);

    // a window now and then catches the JIT settling: the median of three
    const windows: number[] = [];
    for (let i = 0; i < 3; i++) windows.push((await observed_bytes_per_frame(frame, FAKE_WINDOW)).bytes);
    const bytes = median(windows);
    const minor = await minor_gcs_over(frame, FAKE_COUNTED);
    console.log(
        `[alloc] FAKE device, ${label}, ${renderer.registry.all().length} extensions, ${per_frame} passes, full-screen paths ${PATHS ?? "auto"}, ` +
            `__SHADE_DEBUG__ ${String(__SHADE_DEBUG__)}: ${bytes.toFixed(1)} young bytes/frame ` +
            `(median of ${windows.map((b) => b.toFixed(1)).join(", ")}; ${FAKE_WINDOW}-frame windows); ${minor} minor GCs over ${FAKE_COUNTED} frames`,
    );
    expect(stats.textures, "the transient pool created textures in steady state").toBe(textures);
    expect(stats.bundle_encoders, "the G-buffer's render bundle recorded again in steady state").toBe(bundle_encoders);
    expect(bytes, `young-generation bytes per steady frame (${label})`).toBeLessThan(BYTES_PER_FRAME_BOUND);
    expect(minor, `minor GCs over ${FAKE_COUNTED} steady frames (${label})`).toBe(0);
}

// SHADE_ALLOC_PATHS=compute runs the same tests with every full-screen step on its compute path
// (Renderer.compute.alloc.test.ts): a process of its own, as a device runs one path all its life.
const ONLY_SKINNED = process.env.SHADE_ALLOC_SKINNED === "1";
// the levels-of-detail frame, likewise in a process of its own (Renderer.levels.alloc.test.ts)
const ONLY_LEVELS = process.env.SHADE_ALLOC_LEVELS === "1";
const OWN_PROCESS = ONLY_SKINNED || ONLY_LEVELS;

describe("Renderer allocation per steady frame", () => {
    it.skipIf(OWN_PROCESS)("FAKE device (device-independent): the renderer's own frame allocates nothing once warm", async () => {
        const { renderer, stats } = fake_renderer();
        await expect_no_allocation(renderer, stats, "empty scene");
        renderer.destroy();
    });

    it.skipIf(OWN_PROCESS)("FAKE device (device-independent): with opaque and blended meshes and point lights, a frame allocates nothing once warm", async () => {
        const { renderer, stats } = fake_renderer(small_scene());
        await expect_no_allocation(renderer, stats, "4 opaque + 3 blended meshes, 3 point lights");
        expect(renderer.gbuffer_bundle_records, "the G-buffer's bundle path ran (recorded once)").toBe(1);
        renderer.destroy();
    });

    it.skipIf(OWN_PROCESS)("FAKE device (device-independent): with frozen meshes (one changed every fourth frame) beside moving ones, a frame allocates nothing once warm", async () => {
        const scene = small_scene();
        for (let i = 0; i < 3; i++) scene.meshes[i].frozen = true;
        const { renderer, stats } = fake_renderer(scene);
        renderer.add_extension(new FrozenMover(scene));
        const reads = renderer.gbuffer_draw_list.frozen_writes;
        await expect_no_allocation(renderer, stats, "3 frozen + 1 moving opaque, 3 blended meshes");
        expect(renderer.gbuffer_draw_list.frozen_writes, "the frozen part was read again after changes").toBeGreaterThan(reads);
        renderer.destroy();
    });

    // in a process of its own (Renderer.levels.alloc.test.ts): after this file's other tests it read 13-27 young bytes
    // a frame in about half the runs of a fresh clone (alone: passes every run), as the skinned case below does
    it.runIf(ONLY_LEVELS)("FAKE device (device-independent): with levels of detail picked (G-buffer and shadow cascades), a frame allocates nothing once warm", async () => {
        const scene = small_scene();
        const box = scene.meshes[0].geometry;
        // two coarser levels, the coarsest drawn (every mesh is under a screen size of 1 from the camera)
        box.detail_levels = [
            { index: box.index.slice(0, 18), screen_size: 1 },
            { index: box.index.slice(0, 6), screen_size: 0.999 },
        ];
        const { renderer, stats } = fake_renderer(scene);
        renderer.add_extension(new ShadowExtension({ resolution: 64 }));
        await expect_no_allocation(renderer, stats, "4 opaque meshes at a coarser level, with shadows; 3 blended meshes");
        expect(renderer.gbuffer_culling.levels, "the culling table has the levels").toBe(3);
        renderer.destroy();
    });

    // in a process of its own (Renderer.skinned.alloc.test.ts): after this file's other tests, the same frame reads
    // 300-600 young bytes a frame that V8's sampling heap profiler attributes to no function (alone: under 3)
    it.runIf(ONLY_SKINNED)("FAKE device (device-independent): with skinned meshes whose skins change every frame, a frame allocates nothing once warm", async () => {
        const scene = skinned_scene();
        const { renderer, stats } = fake_renderer(scene);
        renderer.add_extension(new SkinWaver(scene));
        await expect_no_allocation(renderer, stats, "2 skinned meshes re-skinned every frame, 2 picking from a palette table, 1 rigid");
        expect(renderer.gbuffer_bundle_records, "the rigid mesh's bundle recorded once, the skins drawn apart").toBe(1);
        renderer.destroy();
    });

    it.skipIf(OWN_PROCESS)("FAKE device (device-independent): the measurement sees one small object per frame (positive control)", async () => {
        // the same renderer and frame, with the one allocation switched on and off: warmed with both, so that
        // nothing but that object differs between the windows
        const { renderer } = fake_renderer();
        const leaky = renderer.add_extension(new Leaky());
        const frame = () => renderer.render_frame();
        for (let i = 0; i < FAKE_WARMUP; i++) {
            leaky.allocating = i % 2 === 0;
            frame();
        }
        // a window now and then catches the JIT settling: the median of three rounds
        const on: number[] = [];
        const off: number[] = [];
        for (let round = 0; round < 3; round++) {
            leaky.allocating = true;
            on.push((await observed_bytes_per_frame(frame, FAKE_WINDOW)).bytes);
            leaky.allocating = false;
            off.push((await observed_bytes_per_frame(frame, FAKE_WINDOW)).bytes);
        }
        const saved = median(on.map((b, i) => b - off[i]));
        console.log(
            `[alloc] positive control: ${median(on).toFixed(1)} young bytes/frame with an extension that allocates ` +
                `{ frame } per frame, ${median(off).toFixed(1)} with it switched off (medians of 3 windows)`,
        );
        // `{ frame }` is at least 24 bytes on any V8 heap layout
        expect(saved, "bytes per frame the allocating extension adds").toBeGreaterThanOrEqual(24);
        expect(median(on)).toBeGreaterThanOrEqual(BYTES_PER_FRAME_BOUND);
        renderer.destroy();
    });

    it.skipIf(OWN_PROCESS)("on Dawn: reports what a steady frame allocates, Dawn's wrappers included (loose bound)", async () => {
        // optimised code is what a steady frame runs; Dawn frames are too slow on SwiftShader to get there, so the
        // renderer's code is warmed on a FAKE device first (when this test runs alone)
        const warm = fake_renderer().renderer;
        for (let i = 0; i < FAKE_WARMUP; i++) warm.render_frame();
        warm.destroy();
        await with_gpu_device(async (device) => {
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, fullscreen_paths: PATHS });
            add_extensions(renderer);
            const frame = () => renderer.render_frame();
            const started = performance.now();
            for (let i = 0; i < DAWN_WARMUP; i++) frame();
            await device.queue.onSubmittedWorkDone();
            const warm_ms = performance.now() - started;

            const window = await observed_bytes_per_frame(frame, DAWN_WINDOW);
            await device.queue.onSubmittedWorkDone();
            const minor = await minor_gcs_over(frame, DAWN_COUNTED);
            await device.queue.onSubmittedWorkDone();
            console.log(
                `[alloc] Dawn (${SIZE}x${SIZE}), ${renderer.registry.all().length} extensions: ` +
                    `${window.bytes.toFixed(0)} young bytes/frame over ${window.frames} frames (Dawn's JS wrappers included: ` +
                    `compare the FAKE device's figure); ${minor} minor GCs over ${DAWN_COUNTED} frames; ` +
                    `${(warm_ms / DAWN_WARMUP).toFixed(2)} ms/frame while warming up`,
            );
            // loose: the wrappers are a few hundred bytes per object; a leak of our own is caught on the FAKE device
            expect(window.bytes).toBeLessThan(16 * 1024);
            renderer.destroy();
        });
    });
});
