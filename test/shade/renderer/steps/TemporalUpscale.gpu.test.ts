// The temporal upscale (TAA) through the real Renderer on Dawn: convergence of a still image, exact colours
// away from edges, a live resolution-scale change resetting the history, the switch off, and - with the
// Renderer's jitter call emulated by a FrameStart extension - a jittered world-space edge and a camera pan
// reprojected through depth.
import { mat4 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../../shade/renderer/extension/ViewTextures.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { CAMERA_WGSL } from "../../../../shade/renderer/scene/Camera.js";
import { TemporalJitter } from "../../../../shade/renderer/steps/TemporalJitter.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, tonemapped, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 64;
const BRIGHT = [0.5, 0.1, 0.05];
const SKY = [0.05, 0.07, 0.1];
const BRIGHT_LDR = BRIGHT.map(tonemapped);
const SKY_LDR = SKY.map(tonemapped);
/** Frames rendered for convergence: more than one whole jitter cycle (16) plus the blend's settling. */
const FRAMES = 20;
/** "Stopped changing": max abs difference of two consecutive frames, 8-bit units (2/255). */
const STILL = 2;
/** Away from an edge the canvas equals the tonemapped painted colour within this (8-bit units). */
const FLAT_TOLERANCE = 2;

/** Paints the left half of the scene colour bright in screen space (a hard vertical edge), as in Renderer.gpu.test. */
class ScenePainter extends RenderExtension {
    name = "scene painter";
    phase = FramePhase.AfterTransparency;
    readonly #effect = new FullscreenEffect({
        label: "scene painter",
        inputs: 0,
        format: "rgba16float",
        fragment: `fn effect(uv: vec2f) -> vec4f {
            if (!(uv.x < 0.5)) { discard; }
            return vec4f(${BRIGHT.join(", ")}, 1.0);
        }`,
    });
    record(frame: FrameContext): void {
        const scene = frame.get(SceneColor);
        scene.color = this.#effect.graph_draw(frame.graph, scene.color, undefined, undefined, undefined, undefined, "load");
    }
}

/** Notes the scene colour's size at AfterTransparency (internal) and BeforePresent (output). */
class SizeProbe extends RenderExtension {
    readonly seen: string[] = [];
    constructor(
        public name: string,
        public phase: FramePhase,
    ) {
        super();
    }
    record(frame: FrameContext): void {
        const d = frame.describe(frame.get(SceneColor).color);
        this.seen.push(`${d.width}x${d.height}`);
    }
}

/**
 * Sets this frame's camera jitter from FrameStart, whatever the Renderer did: `"halton"` emulates the
 * Renderer integration this step asks for (`next_jitter` before `camera.update`); `"none"` holds the camera
 * still, for the screen-space painter, which no jitter moves (the resolve would take out a jitter the painted
 * edge never had). Re-derives the camera and keeps `previous_view_projection` as the Renderer's own update left
 * it (last frame's final matrix).
 */
class JitterDriver extends RenderExtension {
    name = "jitter driver";
    phase = FramePhase.FrameStart;
    readonly sequence = new TemporalJitter(16);
    readonly jitter = new Float32Array(2);
    readonly #previous = mat4.create();
    frame_number = 0;
    constructor(readonly mode: "halton" | "none") {
        super();
    }
    record(frame: FrameContext): void {
        const camera = frame.view.camera;
        const w = frame.internal_resolution[0];
        const h = frame.internal_resolution[1];
        mat4.copy(this.#previous, camera.previous_view_projection);
        if (this.mode === "halton") this.sequence.write_clip(this.frame_number++, w, h, this.jitter);
        camera.update(w, h, this.jitter[0], this.jitter[1]);
        mat4.copy(camera.previous_view_projection, this.#previous);
        camera.data.set(this.#previous, 64);
        camera.bind(frame.device);
    }
}

const WORLD_EDGE_WGSL = /* wgsl */ `
${CAMERA_WGSL}
@group(0) @binding(0) var<uniform> camera: CameraUniforms;
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4f {
    // the half-plane x < 0 of the world plane z = 0, as two triangles
    var corners = array<vec2f, 6>(vec2f(-50.0, -50.0), vec2f(0.0, -50.0), vec2f(0.0, 50.0),
                                  vec2f(-50.0, -50.0), vec2f(0.0, 50.0), vec2f(-50.0, 50.0));
    return camera.view_projection * vec4f(corners[index], 0.0, 1.0);
}
@fragment
fn fs_main() -> @location(0) vec4f { return vec4f(${BRIGHT.join(", ")}, 1.0); }
`;

/**
 * Real geometry for the jittered tests: the world half-plane x < 0 of z = 0, drawn with the (jittered) camera
 * into depth at AfterGBuffer (so the resolve reprojects it through its true depth) and into the scene colour
 * at AfterTransparency. `depth` false leaves depth at the far plane (the control for the pan test).
 */
class WorldEdge extends RenderExtension {
    name: string;
    phase: FramePhase;
    #pipeline: GPURenderPipeline | null = null;
    #group: GPUBindGroup | null = null;
    #target: FrameGraphHandle = -1;
    readonly #descriptor: GPURenderPassDescriptor = { label: "world edge", colorAttachments: [] };
    constructor(readonly into: "depth" | "color") {
        super();
        this.name = `world edge ${into}`;
        this.phase = into === "depth" ? FramePhase.AfterGBuffer : FramePhase.AfterTransparency;
    }
    record(frame: FrameContext): void {
        if (this.#pipeline === null) {
            const device = frame.device;
            const module = device.createShaderModule({ label: `${this.name} shader`, code: WORLD_EDGE_WGSL });
            this.#pipeline = device.createRenderPipeline({
                label: `${this.name} pipeline`,
                layout: "auto",
                vertex: { module, entryPoint: "vs_main" },
                fragment: this.into === "color" ? { module, entryPoint: "fs_main", targets: [{ format: "rgba16float" }] } : undefined,
                depthStencil: this.into === "depth" ? { format: "depth32float", depthWriteEnabled: true, depthCompare: "less" } : undefined,
                primitive: { topology: "triangle-list" },
            });
            this.#group = device.createBindGroup({
                label: `${this.name} bind group`,
                layout: this.#pipeline.getBindGroupLayout(0),
                entries: [{ binding: 0, resource: { buffer: frame.view.camera.buffer } }],
            });
        }
        const pass = frame.graph.add(this.name, this, (self: WorldEdge, resources, execution) => self.execute(resources, execution));
        if (this.into === "depth") {
            const views = frame.get(ViewTextures);
            this.#target = views.depth = pass.write(views.depth, "load");
        } else {
            const scene = frame.get(SceneColor);
            this.#target = scene.color = pass.write(scene.color, "load");
        }
    }
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const d = this.#descriptor;
        if (this.into === "depth") {
            d.colorAttachments = [];
            d.depthStencilAttachment = resources.depth_attachment(this.#target);
        } else {
            d.colorAttachments = [resources.color_attachment(this.#target)];
        }
        const pass = execution.encoder.beginRenderPass(d);
        pass.setPipeline(this.#pipeline!);
        pass.setBindGroup(0, this.#group!);
        pass.draw(6);
        pass.end();
    }
}

function make_renderer(device: GPUDevice, options: { taa?: boolean; scale?: number } = {}) {
    const target = new TextureRenderTarget(SIZE, SIZE);
    const renderer = new Renderer({ device, target, feature_taa_enabled: options.taa ?? true, resolution_scale: options.scale ?? 0.5 });
    return { renderer, target };
}

/** A renderer with the screen-space edge painted and the camera held un-jittered. */
function painted_renderer(device: GPUDevice, options: { taa?: boolean; scale?: number } = {}) {
    const made = make_renderer(device, options);
    made.renderer.add_extension(new JitterDriver("none"));
    made.renderer.add_extension(new ScenePainter());
    return made;
}

async function frame(device: GPUDevice, renderer: Renderer, target: TextureRenderTarget): Promise<TextureReadback> {
    renderer.render_frame();
    return read_texture(device, target.acquire());
}

/** Max abs difference over every channel of every pixel (8-bit units), and where. */
function max_delta(a: TextureReadback, b: TextureReadback): { delta: number; x: number; y: number } {
    let delta = 0;
    let at = 0;
    for (let i = 0; i < a.data.length; i++) {
        if ((i & 3) === 3) continue;
        const d = Math.abs(a.data[i] - b.data[i]);
        if (d > delta) {
            delta = d;
            at = i >> 2;
        }
    }
    return { delta, x: at % a.width, y: Math.floor(at / a.width) };
}

function rgb(image: TextureReadback, x: number, y: number): number[] {
    const i = (y * image.width + x) * 4;
    return [image.data[i], image.data[i + 1], image.data[i + 2]];
}

/** Failures name the pixel and the expected colour; the image is left in test/output. */
function expect_rgb(image: TextureReadback, x: number, y: number, expected: number[], tolerance: number, name: string): void {
    const actual = rgb(image, x, y);
    if (actual.every((v, i) => Math.abs(v - expected[i]) <= tolerance)) return;
    const path = write_readback_png(image, name);
    throw new Error(`${name}: pixel (${x}, ${y}) is [${actual}], expected [${expected.map((v) => v.toFixed(1))}] +/- ${tolerance}; see ${path}`);
}

/** Columns (on row `y`) that are neither flat colour: where the edge's transition lies. */
function edge_columns(image: TextureReadback, y: number): number[] {
    const columns: number[] = [];
    for (let x = 0; x < image.width; x++) {
        const c = rgb(image, x, y);
        const flat = (ref: number[]) => c.every((v, i) => Math.abs(v - ref[i]) <= FLAT_TOLERANCE);
        if (!flat(BRIGHT_LDR) && !flat(SKY_LDR)) columns.push(x);
    }
    return columns;
}

/** The linear red a tonemapped 8-bit red came from (the tonemap inverted by bisection). */
function linear_red(ldr: number): number {
    let lo = 0;
    let hi = 16;
    for (let i = 0; i < 40; i++) {
        const mid = (lo + hi) / 2;
        if (tonemapped(mid) < ldr) lo = mid;
        else hi = mid;
    }
    return (lo + hi) / 2;
}

/**
 * Where the edge lies along row `y`, in pixels (sub-pixel): where red crosses halfway from bright to sky in
 * LINEAR light, the space the resolve blends in (the tonemap's curve would move an LDR halfway point towards
 * the dark side by a good part of the transition's width).
 */
function edge_position(image: TextureReadback, y: number): number {
    const half = (BRIGHT[0] + SKY[0]) / 2;
    for (let x = 0; x + 1 < image.width; x++) {
        const a = linear_red(rgb(image, x, y)[0]);
        const b = linear_red(rgb(image, x + 1, y)[0]);
        if (a >= half && b < half) return x + 0.5 + (a - half) / (a - b);
    }
    throw new Error(`no bright-to-sky crossing on row ${y}`);
}

/** Renders until two consecutive frames differ by less than STILL; returns the frames and when that happened. */
async function converge(device: GPUDevice, renderer: Renderer, target: TextureRenderTarget, frames: number) {
    const images: TextureReadback[] = [];
    const deltas: number[] = [];
    let converged_at = -1;
    for (let i = 0; i < frames; i++) {
        images.push(await frame(device, renderer, target));
        if (i > 0) {
            const d = max_delta(images[i - 1], images[i]).delta;
            deltas.push(d);
            if (d < STILL && converged_at === -1) converged_at = i + 1;
            if (d >= STILL) converged_at = -1;
        }
    }
    return { images, deltas, converged_at };
}

describe("temporal upscale (TAA) on Dawn", () => {
    it("a still image converges: the edge stops changing and lies between the two tonemapped colours", async () => {
        await with_gpu_device(async (device) => {
            const { renderer, target } = painted_renderer(device);
            const { images, deltas, converged_at } = await converge(device, renderer, target, FRAMES);
            const last = images[FRAMES - 1];
            write_readback_png(last, "taa_still_converged");
            console.log(`[taa] still edge, no jitter: frame-to-frame max delta ${deltas.join(" ")}; still from frame ${converged_at}`);

            expect(max_delta(images[FRAMES - 2], last).delta).toBeLessThan(STILL);
            expect(converged_at).toBeGreaterThan(0);
            const columns = edge_columns(last, 32);
            expect(columns.length, `edge columns ${columns}`).toBeGreaterThan(0);
            expect(columns.length).toBeLessThanOrEqual(4);
            for (let y = 0; y < SIZE; y += 7) {
                for (const x of columns) {
                    const c = rgb(last, x, y);
                    for (let k = 0; k < 3; k++) {
                        const lo = Math.min(BRIGHT_LDR[k], SKY_LDR[k]) - FLAT_TOLERANCE;
                        const hi = Math.max(BRIGHT_LDR[k], SKY_LDR[k]) + FLAT_TOLERANCE;
                        expect(c[k], `channel ${k} of (${x}, ${y}) = [${c}] between the colours`).toBeGreaterThanOrEqual(lo);
                        expect(c[k], `channel ${k} of (${x}, ${y}) = [${c}] between the colours`).toBeLessThanOrEqual(hi);
                    }
                }
            }
            // the transition is where the painter put it: the output's middle
            expect(Math.abs(edge_position(last, 32) - SIZE / 2)).toBeLessThan(0.25);
            renderer.destroy();
        });
    });

    it("away from the edge the canvas is the painted colours, tonemapped (within 2/255)", async () => {
        await with_gpu_device(async (device) => {
            const { renderer, target } = painted_renderer(device);
            const { images } = await converge(device, renderer, target, FRAMES);
            const last = images[FRAMES - 1];
            for (let y = 0; y < SIZE; y++) {
                for (let x = 0; x < SIZE; x++) {
                    if (x < SIZE / 2 - 4) expect_rgb(last, x, y, BRIGHT_LDR, FLAT_TOLERANCE, "taa_flat_bright");
                    if (x >= SIZE / 2 + 4) expect_rgb(last, x, y, SKY_LDR, FLAT_TOLERANCE, "taa_flat_sky");
                }
            }
            renderer.destroy();
        });
    });

    it("a resolution-scale change resizes the internal targets live and resets the history (no smear of the old size)", async () => {
        await with_gpu_device(async (device) => {
            const { renderer, target } = painted_renderer(device, { scale: 0.5 });
            const internal = renderer.add_extension(new SizeProbe("internal probe", FramePhase.AfterTransparency));
            const output = renderer.add_extension(new SizeProbe("output probe", FramePhase.BeforePresent));
            const { images } = await converge(device, renderer, target, 10);
            const before = images[9];
            renderer.resolution_scale = 0.25;
            const after = await frame(device, renderer, target);
            expect(internal.seen.slice(-2)).toEqual(["32x32", "16x16"]);
            expect(output.seen.slice(-2)).toEqual(["64x64", "64x64"]);

            const fresh = painted_renderer(device, { scale: 0.25 });
            const first = await frame(device, fresh.renderer, fresh.target);
            write_readback_png(before, "taa_scale_before");
            write_readback_png(after, "taa_scale_after");
            write_readback_png(first, "taa_scale_fresh");
            const vs_fresh = max_delta(after, first);
            const vs_before = max_delta(after, before);
            console.log(`[taa] scale 0.5 -> 0.25: vs a fresh renderer's first frame ${vs_fresh.delta}/255; vs the last 0.5 frame ${vs_before.delta}/255`);
            expect(vs_fresh.delta, `at (${vs_fresh.x}, ${vs_fresh.y})`).toBeLessThanOrEqual(1);
            // the test can see a smear: the two sizes really resolve differently at the edge
            expect(vs_before.delta).toBeGreaterThan(10);

            // and it settles again at the new size
            const settled = await converge(device, renderer, target, 4);
            expect(max_delta(settled.images[2], settled.images[3]).delta).toBeLessThan(STILL);
            renderer.destroy();
            fresh.renderer.destroy();
        });
    });

    it("with feature_taa_enabled false no TAA pass runs and both sides of the boundary are one size", async () => {
        await with_gpu_device(async (device) => {
            for (const taa of [true, false]) {
                const { renderer, target } = painted_renderer(device, { taa, scale: 0.5 });
                const internal = renderer.add_extension(new SizeProbe("internal probe", FramePhase.AfterTransparency));
                const output = renderer.add_extension(new SizeProbe("output probe", FramePhase.BeforePresent));
                renderer.capture_graph_dump = true;
                const image = await frame(device, renderer, target);
                const dot = renderer.last_frame_dot;
                if (taa) {
                    expect(dot).toContain('label="taa resolve"');
                    expect(dot).toContain('label="taa sharpen"');
                    expect(internal.seen).toEqual(["32x32"]);
                } else {
                    expect(dot).not.toContain("taa resolve");
                    expect(dot).not.toContain("taa sharpen");
                    expect(dot).not.toContain("taa history");
                    expect(internal.seen).toEqual(["64x64"]);
                    // no resampling at all: the edge is exactly one pixel step
                    expect_rgb(image, 31, 32, BRIGHT_LDR, FLAT_TOLERANCE, "taa_off");
                    expect_rgb(image, 32, 32, SKY_LDR, FLAT_TOLERANCE, "taa_off");
                }
                expect(output.seen).toEqual(["64x64"]);
                renderer.destroy();
            }
        });
    });

    it("jittered (the Renderer's jitter call emulated): a world-space edge converges to a stable antialiased edge", async () => {
        await with_gpu_device(async (device) => {
            const { renderer, target } = make_renderer(device);
            const driver = renderer.add_extension(new JitterDriver("halton"));
            renderer.add_extension(new WorldEdge("depth"));
            renderer.add_extension(new WorldEdge("color"));
            const phases = driver.sequence.phases;
            const frames = 3 * phases;
            const { images, deltas } = await converge(device, renderer, target, frames);
            const last = images[frames - 1];
            write_readback_png(last, "taa_jittered_converged");
            write_readback_png(images[0], "taa_jittered_first");
            // Under a jitter the current frame keeps moving beneath the history, so consecutive frames differ at the
            // edge by up to about blend x contrast. Converged means periodic: a frame equals the one a cycle later.
            const cycle: number[] = [];
            for (let i = 0; i + phases < frames; i++) cycle.push(max_delta(images[i], images[i + phases]).delta);
            const converged_at = cycle.findIndex((_, i) => cycle.slice(i).every((d) => d < STILL)) + 1;
            const band = Math.max(...deltas.slice(-phases));
            console.log(
                `[taa] jittered world edge: frame-to-frame max delta ${deltas.join(" ")}; ` +
                    `same phase a cycle apart ${cycle.join(" ")}; periodic (within ${STILL - 1}/255) from frame ${converged_at}`,
            );
            expect(converged_at).toBeGreaterThan(0);
            expect(converged_at).toBeLessThanOrEqual(phases);
            expect(band).toBeLessThanOrEqual(10);

            // flat away from the edge; the edge between the colours and where the geometry put it
            for (let y = 8; y < SIZE; y += 8) {
                expect_rgb(last, 4, y, BRIGHT_LDR, FLAT_TOLERANCE, "taa_jittered_converged");
                expect_rgb(last, 60, y, SKY_LDR, FLAT_TOLERANCE, "taa_jittered_converged");
                expect(edge_columns(last, y).length).toBeLessThanOrEqual(3);
            }
            // a still camera at x = 0 sees the plane's edge x = 0 down the middle of the screen, in every phase
            console.log(`[taa] edge x over the last cycle: ${images.slice(-phases).map((im) => edge_position(im, 32).toFixed(2)).join(" ")}`);
            for (let i = frames - phases; i < frames; i++) {
                for (let y = 8; y < SIZE; y += 8) expect(Math.abs(edge_position(images[i], y) - SIZE / 2)).toBeLessThan(0.25);
            }
            renderer.destroy();
        });
    });

    it("jittered, camera panning: the history follows the geometry through its depth", async () => {
        await with_gpu_device(async (device) => {
            const step = 0.05;
            const frames = 32;
            // `pan` false: the camera stays at the last position (the reference: a converged still image there)
            const run = async (with_depth: boolean, pan: boolean) => {
                const { renderer, target } = make_renderer(device);
                renderer.add_extension(new JitterDriver("halton"));
                if (with_depth) renderer.add_extension(new WorldEdge("depth"));
                renderer.add_extension(new WorldEdge("color"));
                let image: TextureReadback | null = null;
                for (let i = 0; i < frames; i++) {
                    const x = (pan ? i : frames - 1) * step;
                    renderer.view.camera.position[0] = x;
                    renderer.view.camera.target[0] = x;
                    image = await frame(device, renderer, target);
                }
                renderer.destroy();
                return image!;
            };
            const tracked = await run(true, true);
            const far_plane = await run(false, true);
            const still = await run(true, false);
            write_readback_png(tracked, "taa_pan_depth");
            write_readback_png(far_plane, "taa_pan_no_depth");
            write_readback_png(still, "taa_pan_still_reference");
            const error = (image: TextureReadback) => {
                let worst = 0;
                for (let y = 4; y < SIZE; y += 4) worst = Math.max(worst, Math.abs(edge_position(image, y) - edge_position(still, y)));
                return worst;
            };
            const moved = edge_position(still, 32) - SIZE / 2;
            console.log(
                `[taa] pan ${step}/frame (${(moved / (frames - 1)).toFixed(2)} px/frame): edge off the still image's by ` +
                    `${error(tracked).toFixed(2)} px reprojected through depth, ${error(far_plane).toFixed(2)} px through far-plane depth`,
            );
            // through depth: no lag, only the jitter's wobble (signed errors over the rows are mixed, about +/-0.25 px)
            expect(error(tracked)).toBeLessThan(0.5);
            // through the far plane a translation barely reprojects: the history trails the edge by pixels
            expect(error(far_plane)).toBeGreaterThan(1.5);
        });
    });
});
